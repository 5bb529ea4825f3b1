package debate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestActivityKeepsInvariants runs debates whose speakers report activity
// at random points (the moderator too) and checks the invariants, invariant
// 2 above all: activity is never part of a turn's text. The recorded room
// keeps each turn's activity with its message.
func TestActivityKeepsInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	kinds := []string{ActivityTool, ActivityPlan, ActivityRefused, ActivityFailed, ActivityNote}
	for i := range 20 {
		n := 1 + rng.IntN(4)
		rounds := 1 + rng.IntN(3)
		every := 1 + rng.IntN(3)
		p := &script{activity: func(req Request, tok int) *Activity {
			if tok%every != 0 {
				return nil
			}
			return &Activity{Kind: kinds[tok%len(kinds)], Text: fmt.Sprintf("ACT %s %d", req.Info.Speaker.Name, tok)}
		}}
		cfg := Config{Topic: "t", Personas: personasN(n), Rounds: rounds, BlindOpening: i%2 == 0, StopOnConsensus: i%3 == 0}
		t.Run(fmt.Sprintf("%d-p%d-r%d-every%d", i, n, rounds, every), func(t *testing.T) {
			evs, r := runRecorded(t, t.TempDir(), "act", cfg, p)
			checkInvariants(t, evs, mustNormalize(t, cfg))
			acts := map[string]int{} // by seat
			for _, ev := range evs {
				switch ev.Type {
				case EventActivity:
					acts[ev.Agent]++
				case EventTurnEnd, EventSummary:
					if strings.Contains(ev.Text, "ACT ") {
						t.Fatalf("activity leaked into the text: %q", ev.Text)
					}
				default:
				}
			}
			if acts[cfg.Personas[0].Name] == 0 || acts[DefaultModerator().Name] == 0 {
				t.Fatalf("activity by seat %v", acts)
			}
			st, err := r.State()
			if err != nil {
				t.Fatal(err)
			}
			saved := map[string]int{}
			for _, m := range st.Messages {
				for _, a := range m.Activity {
					if !strings.HasPrefix(a.Text, "ACT ") || a.Kind == "" {
						t.Errorf("saved activity %+v", a)
					}
				}
				saved[m.Seat] += len(m.Activity)
			}
			for seat, k := range acts {
				if seat == DefaultModerator().Name {
					seat = room.SeatModerator
				}
				if saved[seat] != k {
					t.Errorf("%s: %d activity events, %d saved", seat, k, saved[seat])
				}
			}
		})
	}
}

func mustNormalize(t *testing.T, c Config) Config {
	t.Helper()
	n, err := c.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestActivityEventJSON(t *testing.T) {
	ev := Event{Type: EventActivity, Round: 2, Agent: "Claude", Kind: ActivityRefused, Text: "refused: edit main.go"}
	b, err := ev.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"event":"activity","data":{"round":2,"agent":"Claude","kind":"refused","text":"refused: edit main.go"}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back Event
	if err := back.UnmarshalJSON(b); err != nil || back.Kind != ev.Kind || back.Text != ev.Text || back.Agent != ev.Agent || back.Round != 2 {
		t.Fatalf("read back %+v, %v", back, err)
	}
}
