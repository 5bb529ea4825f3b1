package debate

import (
	"context"
	"testing"
	"time"
)

// TestCutTurnCountsStreamedTokens: a turn cut (here stopped) before the provider reports
// its usage counts the tokens it streamed, in its turn_end (which the
// recorder saves with the incomplete message) and in the debate's total,
// so a replay adds up to what the live screen counted.
func TestCutTurnCountsStreamedTokens(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng, err := New(Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 3}, NewMock(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	tokens := 0
	for ev := range eng.Run(ctx) {
		evs = append(evs, ev)
		if ev.Type == EventToken && ev.Round == 2 {
			if tokens++; tokens == 5 {
				cancel() // a stop: the provider never reports this turn's usage
			}
		}
	}
	cut := evs[len(evs)-2]
	if cut.Type != EventTurnEnd || !cut.Incomplete {
		t.Fatalf("no cut turn: %+v", cut)
	}
	streamed, sum := 0, 0
	for _, ev := range evs {
		if ev.Type == EventToken && ev.Agent == cut.Agent && ev.Round == cut.Round {
			streamed++
		}
		if ev.Type == EventTurnEnd && ev.Usage != nil {
			sum += ev.Usage.CompletionTokens
		}
	}
	if streamed == 0 || cut.Usage == nil || cut.Usage.CompletionTokens != streamed {
		t.Fatalf("the cut turn streamed %d tokens, its usage says %+v", streamed, cut.Usage)
	}
	last := evs[len(evs)-1]
	if last.Usage == nil || last.Usage.CompletionTokens != sum {
		t.Fatalf("the total says %+v, the turns add up to %d", last.Usage, sum)
	}
}
