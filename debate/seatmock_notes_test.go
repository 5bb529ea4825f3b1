package debate

import (
	"strings"
	"testing"
)

// TestMockSpecCountsMessagesNotNotes: the mock's spec counts the seats'
// messages; the host's notes in the transcript are named apart.
func TestMockSpecCountsMessagesNotNotes(t *testing.T) {
	info := TurnInfo{Purpose: PurposeSeatSpec, Topic: "Adopt GraphQL", Round: 2, Rounds: 2, Transcript: []Turn{
		{Agent: "lead", Text: "kind: brief\n\nThe decision."},
		{Agent: hostNoteAgent, Model: hostNoteModel, Text: "Mind the cost."},
		{Agent: "peer", Text: "kind: answer\n\nYes."},
	}}
	spec := mockSeat(info)
	if !strings.Contains(spec, "The room argued it over 2 messages and 1 note from the host.") {
		t.Fatalf("the spec counts:\n%s", spec)
	}
}
