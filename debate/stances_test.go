package debate

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestAssignStances(t *testing.T) {
	ps := []Persona{{Name: "A"}, {Name: "B", Stance: StanceFor}, {Name: "C"}, {Name: "D"}, {Name: "E"}}
	got := AssignStances(ps)
	want := []string{StanceFor, StanceFor, StanceNeutral, StanceFor, StanceAgainst}
	for i, p := range got {
		if p.Stance != want[i] {
			t.Errorf("%s: stance %q, want %q", p.Name, p.Stance, want[i])
		}
	}
	if ps[0].Stance != "" {
		t.Errorf("AssignStances changed its argument: %+v", ps[0])
	}
	cfg, err := Config{Topic: "t", Personas: DefaultPersonas()}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg.Personas {
		if p.Stance != "" {
			t.Errorf("without Stances, %s got stance %q", p.Name, p.Stance)
		}
	}
}

// TestStancesFlag: `roundtable debate --stances` has the panel argue for,
// against and neutral in turn, as its room records (so R resumes it so)
// and as the mock's positions show.
func TestStancesFlag(t *testing.T) {
	bin := buildBinary(t)
	run := binaryRunner(bin, cleanEnv(t))
	cwd := t.TempDir()
	_, errOut, code := run(cwd, nil, "debate", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--stances", "--fast", "--format", "jsonl", "--room", "st")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	r, err := room.Open(cwd, "st")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for i, p := range r.Config().Personas {
		if w := stanceCycle[i%3]; p.Stance != w {
			t.Errorf("room.json: %s has stance %q, want %q", p.Name, p.Stance, w)
		}
		want[p.Name] = map[string]string{StanceFor: "support", StanceAgainst: "oppose", StanceNeutral: "conditional"}[p.Stance]
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, m := range st.Messages {
		w, ok := want[m.Seat]
		if !ok {
			continue
		}
		turns++
		_, pos, _ := strings.Cut(m.Text, positionMark)
		if !strings.HasPrefix(strings.TrimSpace(pos), w) {
			t.Errorf("%s's position: %q, want %s", m.Seat, strings.TrimSpace(pos), w)
		}
	}
	if turns != len(want) || turns == 0 {
		t.Errorf("%d turns for %d personas", turns, len(want))
	}
}
