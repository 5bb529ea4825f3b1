package debate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestResumeBinary runs the built binary: a debate over a server that cuts
// the stream fails (exit 1, the room closed failed); `roundtable debate
// --resume ROOM` continues it there to its verdict (exit 0), its jsonl
// starting at the turn that failed; the room then holds every turn once;
// --max-tokens-total stops another debate with a budget event; bad uses
// of the flags exit 2.
func TestResumeBinary(t *testing.T) {
	bin := buildBinary(t)
	run := binaryRunner(bin, cleanEnv(t))
	cs := newCutServer(t, 3) // round 1, the third persona
	cwd := t.TempDir()
	wire := []string{"--provider", "openai", "--base-url", cs.URL + "/v1", "--model", "m", "--rounds", "2", "--no-user-personas"}

	_, errOut, code := run(cwd, nil, append([]string{"debate", "--topic", "Should we adopt GraphQL", "--room", "gql", "--format", "jsonl"}, wire...)...)
	if code != 1 || !strings.Contains(errOut, "Security Reviewer") {
		t.Fatalf("the cut debate exited %d:\n%s", code, errOut)
	}
	out, errOut, code := run(cwd, nil, append([]string{"debate", "--resume", "gql", "--format", "jsonl"}, wire[:6]...)...)
	if code != 0 || !strings.Contains(errOut, "resuming the debate in room gql") {
		t.Fatalf("--resume exited %d:\n%s", code, errOut)
	}
	var starts []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not an event: %q", line)
		}
		if ev.Type == EventTurnStart {
			starts = append(starts, fmt.Sprintf("%s/%d", ev.Agent, ev.Round))
		}
	}
	if len(starts) != 4 || starts[0] != "Security Reviewer/1" {
		t.Errorf("the resumed debate spoke %v; want Security Reviewer's round-1 turn, then round 2", starts)
	}
	r, err := room.Open(cwd, "gql")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	if st.Closed == nil || st.Closed.Reason != ReasonComplete || len(st.Messages) != 8 {
		t.Fatalf("%d messages, closed %+v", len(st.Messages), st.Closed)
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), "closed-1.json")); err != nil {
		t.Errorf("the failed ending was not kept: %v", err)
	}
	// A complete room is not resumed again.
	if _, errOut, code := run(cwd, nil, "debate", "--resume", "gql", "--fast"); code != 2 || !strings.Contains(errOut, "is complete") {
		t.Errorf("resuming a complete room: exit %d\n%s", code, errOut)
	}

	out, _, code = run(cwd, nil, "debate", "--topic", "Budget", "--fast", "--rounds", "3", "--max-tokens-total", "1", "--room", "b", "--format", "jsonl", "--no-user-personas")
	if code != 0 || strings.Count(out, `"event":"turn_end"`) != 1 || !strings.Contains(out, `{"event":"budget","data":{"round":1,"reason":"the token budget of 1 was reached`) {
		t.Errorf("--max-tokens-total 1: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"debate", "--resume", "gql", "--topic", "t"},
		{"debate", "--resume", "gql", "--rounds", "2"},
		{"debate", "--topic", "t", "--max-cost", "-1"},
		{"debate", "--topic", "t", "--max-cost", "lots"},
		{"debate", "--topic", "t", "--max-tokens-total", "0"},
	} {
		if _, errOut, code := run(cwd, nil, args...); code != 2 {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
	}
}
