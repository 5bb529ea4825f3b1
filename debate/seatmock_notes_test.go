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

// TestMockSpecDecisionReads: the mock's spec states its decision as one
// plain clause whatever the topic's form. Before, a topic with no verb
// ("Write-through cache?") gave "We go ahead with going ahead with
// write-through cache".
func TestMockSpecDecisionReads(t *testing.T) {
	for topic, want := range map[string]string{
		"Write-through cache?":              "We will go ahead with write-through cache, in small",
		"Should we adopt GraphQL":           "We will adopt GraphQL, in small",
		"Should the cache be write-through": "We will make the cache write-through, in small",
		"Postgres or MySQL?":                "We will choose Postgres over MySQL, in small",
	} {
		spec := mockSeat(TurnInfo{Purpose: PurposeSeatSpec, Topic: topic, Round: 2, Rounds: 2})
		if !strings.Contains(spec, "## Decision\n\n"+want) {
			t.Errorf("topic %q: the spec's decision is not %q:\n%s", topic, want, spec)
		}
	}
}
