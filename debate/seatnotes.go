package debate

import (
	"fmt"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// A seat roundtable plays hears the host's steering notes (watch's i,
// roundtable note) as an MCP seat does: each where it was given, among the
// messages of the room so far, marked as the host's and as outranking the
// course of the debate. A note is no turn: the seat still answers on its
// own turn only.

// hostNoteAgent and hostNoteModel label a note in a seat's transcript.
const (
	hostNoteAgent = "host"
	hostNoteModel = "steering note: it outranks the course of the debate"
)

// seatEntry is one entry of the room so far: a message, or a note.
type seatEntry struct {
	msg  *room.Message
	note *room.Note
}

// seatEntries are st's messages with its notes placed after the message
// each followed (AfterSeq), in order.
func seatEntries(st room.State) []seatEntry {
	out := make([]seatEntry, 0, len(st.Messages)+len(st.Notes))
	ni := 0
	for i := range st.Messages {
		m := &st.Messages[i]
		for ni < len(st.Notes) && st.Notes[ni].AfterSeq < m.Seq {
			out = append(out, seatEntry{note: &st.Notes[ni]})
			ni++
		}
		out = append(out, seatEntry{msg: m})
	}
	for ; ni < len(st.Notes); ni++ {
		out = append(out, seatEntry{note: &st.Notes[ni]})
	}
	return out
}

// writeRoomSoFar writes the room so far for a seat's model, oldest first.
func writeRoomSoFar(b *strings.Builder, st room.State) {
	if len(st.Messages) == 0 && len(st.Notes) == 0 {
		b.WriteString("The room is empty: nobody has posted yet.\n\n")
		return
	}
	if len(st.Messages) == 0 {
		b.WriteString("Nobody has posted yet. The host has written:\n\n")
	} else {
		b.WriteString("The room so far, oldest first:\n\n")
	}
	for _, e := range seatEntries(st) {
		if n := e.note; n != nil {
			fmt.Fprintf(b, "--- note %d from the host (the person running this room; it outranks the course of the debate) ---\n%s\n\n", n.Seq, strings.TrimSpace(n.Text))
			continue
		}
		m := e.msg
		fmt.Fprintf(b, "--- #%d %s (%s), %s ---\n%s\n\n", m.Seq, m.Seat, m.Agent, m.Kind, strings.TrimSpace(m.Text))
	}
}

// seatTurns are the room so far as turns, a note as the host's.
func seatTurns(st room.State) []Turn {
	entries := seatEntries(st)
	turns := make([]Turn, len(entries))
	for i, e := range entries {
		if n := e.note; n != nil {
			turns[i] = Turn{Agent: hostNoteAgent, Model: hostNoteModel, Text: n.Text}
			continue
		}
		turns[i] = Turn{Agent: e.msg.Seat, Model: e.msg.Agent, Text: e.msg.Text}
	}
	return turns
}
