package mcpserver

import (
	"fmt"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// Steering notes. The person hosting a room (watch's i, roundtable note)
// can write a note to both seats; it is saved in the room's notes/ folder,
// where the original server never looks, and takes no turn and spends no
// budget. Each seat server hands every note to its agent once, with the
// agent's next read_room or wait_for_message, under a "notes" key the
// original replies do not have: a client written for the original reads
// the same reply with one key more. A parked wait_for_message wakes for a
// note and returns it, with messages empty, whoever's turn it is.

// hostNotesDesc ends the descriptions of the tools that hand out notes.
const hostNotesDesc = " A reply may also carry notes: steering notes from the host, the person running this room, each given to you once. They outrank the course of the debate and take no turn; a wait returns for them alone with messages empty."

// noteOut is a note as a reply carries it: who it is from (always the
// host in an MCP room) and where it sits, after the message numbered
// after_seq (0: before the first).
type noteOut struct {
	Seq      int    `json:"seq"`
	At       string `json:"at"`
	From     string `json:"from"`
	Text     string `json:"text"`
	AfterSeq int    `json:"after_seq"`
}

// takeNotes returns the notes this seat's session has not been handed yet
// and counts them as handed, in one step: two calls of one session (a
// parked wait and a read_room) never both get a note.
func (s *Seat) takeNotes(st room.State) []room.Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := room.NotesAfter(st.Notes, s.notesShown)
	if len(fresh) > 0 {
		s.notesShown = fresh[len(fresh)-1].Seq
	}
	return fresh
}

// notesPlaced are the notes of st that sit among messages numbered above
// since and below before: read_room's history read shows a page of the
// room with its notes in it.
func notesPlaced(notes []room.Note, since, before float64) []room.Note {
	var out []room.Note
	for _, n := range notes {
		if float64(n.AfterSeq) >= since && float64(n.AfterSeq) < before {
			out = append(out, n)
		}
	}
	return out
}

// unionNotes merges two lists of notes sorted by seq, each note once.
func unionNotes(a, b []room.Note) []room.Note {
	out := make([]room.Note, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].Seq < b[j].Seq:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].Seq < a[i].Seq:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

func notesOut(notes []room.Note) []noteOut {
	out := make([]noteOut, len(notes))
	for i, n := range notes {
		from := n.From
		if from == "" {
			from = room.NoteFromHost
		}
		out[i] = noteOut{Seq: n.Seq, At: n.At, From: from, Text: n.Text, AfterSeq: n.AfterSeq}
	}
	return out
}

// addNotes puts notes into a reply's own keys with a sentence, first in
// the reply's note, that says what they are and what to do now; noteOnly
// marks a wait that woke for notes alone, which says whose turn it is.
func (s *Seat) addNotes(extra map[string]any, notes []room.Note, st room.State, noteOnly bool) {
	if len(notes) == 0 {
		return
	}
	extra["notes"] = notesOut(notes)
	say := notesSentence(len(notes))
	if s.takesTurns() {
		say = strings.Replace(say, "tell the other seat", "tell the others", 1)
	}
	switch {
	case st.Closed != nil:
	case noteOnly && st.Turn == s.opt.Seat:
		say += " A note takes no turn: it is still your turn, so post, following it."
	case noteOnly && s.takesTurns():
		say += fmt.Sprintf(" A note is not a message from another seat and takes no turn: it is still the %s's turn, so call wait_for_message again once you have taken it in; it returns at your turn.", st.Turn)
	case noteOnly:
		say += fmt.Sprintf(" A note is not a message from the %s and takes no turn: the %s still has the turn, so call wait_for_message again once you have taken it in.",
			otherSeat(s.opt.Seat), otherSeat(s.opt.Seat))
	}
	if prev, ok := extra["note"].(string); ok && prev != "" {
		say += " " + prev
	}
	extra["note"] = say
}

// notesSentence introduces n notes from the host.
func notesSentence(n int) string {
	if n == 1 {
		return "The host (the person running this room) sent you a steering note, in notes: it outranks the course of the debate, so follow it in what you say next and tell the other seat you are doing so."
	}
	return fmt.Sprintf("The host (the person running this room) sent you %d steering notes, in notes: they outrank the course of the debate, so follow them in what you say next and tell the other seat you are doing so.", n)
}
