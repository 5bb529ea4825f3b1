package debate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestResumeAfterConsensus: a debate whose moderator found consensus after
// round 1 of 3 records it (consensus.json); stopped before its verdict and
// resumed (`roundtable debate --resume`), it goes to the verdict, not to
// round 2. The same room without the marker holds rounds 2 and 3.
func TestResumeAfterConsensus(t *testing.T) {
	cfg, err := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 3, StopOnConsensus: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(t.TempDir(), "agreed", cfg)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := New(cfg, rankScript("A, B"))
	if err != nil {
		t.Fatal(err)
	}
	recordInto(t, eng, r)
	if k := r.ConsensusRound(); k != 1 {
		t.Fatalf("the run found consensus after round 1; the room says round %d", k)
	}

	bin := buildBinary(t)
	run := binaryRunner(bin, cleanEnv(t))
	cwd := t.TempDir()
	stopped := func(name string, agreed bool) {
		t.Helper()
		r, err := CreateRoom(cwd, name, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range cfg.Personas {
			if _, err := r.Record(room.Post{Seat: p.Name, Kind: KindTurn, Round: 1, Text: p.Name + " speaks.\n\n**My position:** support: it helps."}); err != nil {
				t.Fatal(err)
			}
		}
		if agreed {
			if err := r.SetConsensus(1); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.Close(room.CloseOptions{Reason: ReasonCancelled}); err != nil {
			t.Fatal(err)
		}
	}
	turnsAfterResume := func(name string) (turns int, summary bool, msgs int) {
		t.Helper()
		out, errOut, code := run(cwd, nil, "debate", "--resume", name, "--fast", "--format", "jsonl")
		if code != 0 {
			t.Fatalf("--resume %s: exit %d\n%s", name, code, errOut)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var ev Event
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("not an event: %q", line)
			}
			turns += map[bool]int{true: 1}[ev.Type == EventTurnStart]
			summary = summary || ev.Type == EventSummary
		}
		r, err := room.Open(cwd, name)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := r.State()
		if st.Closed == nil || st.Closed.Reason != ReasonComplete {
			t.Errorf("%s: closed %+v", name, st.Closed)
		}
		return turns, summary, len(st.Messages)
	}
	stopped("agreed", true)
	if turns, summary, msgs := turnsAfterResume("agreed"); turns != 0 || !summary || msgs != 4 {
		t.Errorf("resumed after consensus: %d turns spoken, summary %v, %d messages; want the verdict alone (4 messages)", turns, summary, msgs)
	}
	stopped("unmarked", false)
	if turns, _, _ := turnsAfterResume("unmarked"); turns == 0 {
		t.Errorf("without consensus.json the resumed debate held no more rounds: the test shows nothing")
	}
}
