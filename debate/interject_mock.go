package debate

import (
	"fmt"
	"strings"
)

// The mock reads the user's notes like a model would: each persona's next
// turn answers the newest note it has not answered yet, quoting it, so a
// test (and a person trying the mock) sees the note land.

// mockNotes splits the user's notes out of info's transcript: info
// without them (what the rest of the mock reasons over), and the newest
// note the speaker has not spoken since (nil when none).
func mockNotes(info TurnInfo) (TurnInfo, *Turn) {
	var turns []Turn
	var newest *Turn
	for i := range info.Transcript {
		t := info.Transcript[i]
		switch {
		case t.Note:
			newest = &info.Transcript[i]
		case t.Agent == info.Speaker.Name:
			newest = nil // answered (or spoken past) already
			turns = append(turns, t)
		default:
			turns = append(turns, t)
		}
	}
	if newest == nil {
		return info, nil
	}
	info.Transcript = turns
	return info, newest
}

// noteAnswers are how a persona takes up the user's note.
var noteAnswers = []string{
	"that is the question this debate has to settle, so I'll answer it first.",
	"fair, and it changes what matters most here.",
	"you're right to push on that; here is where I stand on it.",
	"that is the constraint I would weigh above the rest of this thread.",
}

// mockNoteReply is the paragraph with which a persona answers note.
func mockNoteReply(info TurnInfo, note Turn) string {
	rng := newRNG(info.Seed, info.Topic, info.Speaker.Name, info.Round, "note", note.Text)
	q := cleanQuote(note.Text)
	if q == "" {
		q = strings.TrimSpace(note.Text)
	}
	return fmt.Sprintf("To the user's note, “%s”: %s", q, pick(rng, noteAnswers))
}

// withoutNotes is info's transcript without the user's notes.
func withoutNotes(info TurnInfo) TurnInfo {
	n := 0
	for _, t := range info.Transcript {
		if t.Note {
			n++
		}
	}
	if n == 0 {
		return info
	}
	turns := make([]Turn, 0, len(info.Transcript)-n)
	for _, t := range info.Transcript {
		if !t.Note {
			turns = append(turns, t)
		}
	}
	info.Transcript = turns
	return info
}

// mockVerdictNotes is the verdict's answer to the user's notes: one
// bullet each, empty when there were none.
func mockVerdictNotes(info TurnInfo) string {
	var b strings.Builder
	for _, t := range info.Transcript {
		if !t.Note {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("\n\n### Your notes\n")
		}
		fmt.Fprintf(&b, "- “%s” (round %d): weighed above the course of the debate in this decision.\n", cleanQuote(t.Text), t.Round)
	}
	return strings.TrimRight(b.String(), "\n")
}

// mockUnansweredNote is the consensus check's answer when the user's
// newest note came after the last turn: nobody has answered it yet, so the
// debate goes on.
func mockUnansweredNote(info TurnInfo) (string, bool) {
	ts := info.Transcript
	if len(ts) == 0 || !ts[len(ts)-1].Note {
		return "", false
	}
	return fmt.Sprintf("CONTINUE\nThe user's note, “%s”, has not been answered yet.", cleanQuote(ts[len(ts)-1].Text)), true
}
