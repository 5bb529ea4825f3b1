package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate/eval/evaltest"
)

// TestEvalCommand runs the built binary against the scripted panel on two
// questions: m1 knows the first, m2 and m3 the second. single (m1) gets
// 1/2, vote:3 (m1 m2 m3) 2/2, the debate (three personas, two rounds,
// then the moderator, who answers the last round's majority) 2/2; tokens
// are the usage the server reports.
func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.jsonl")
	p := evaltest.Panel{
		Gold:   map[string]int{"How many apples are in basket A?": 12, "How many pears are in basket B?": 1500},
		Right:  map[string][]string{"How many apples are in basket A?": {"m1"}, "How many pears are in basket B?": {"m2", "m3"}},
		Models: []string{"m1", "m2", "m3"},
	}
	lines := `{"id":"apples","question":"How many apples are in basket A?","answer":"12"}
{"id":"pears","question":"How many pears are in basket B?","answer":"1,500"}
`
	if err := os.WriteFile(q, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := evaltest.New(t, p.Script())
	srv.SetModels(p.Models...)
	args := []string{"eval", "--questions", q, "--arms", "single,vote:3,debate", "--base-url", srv.BaseURL(), "--models", "m1,m2,m3", "--concurrency", "2"}
	stdout, stderr, code := runBin(t, "", append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Arms []struct {
			Name     string  `json:"name"`
			Correct  int     `json:"correct"`
			Accuracy float64 `json:"accuracy"`
			Tokens   int     `json:"tokens"`
			Results  []struct {
				ID     string `json:"id"`
				Answer string `json:"answer"`
			} `json:"results"`
		} `json:"arms"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	call := evaltest.PromptBase + evaltest.Completion
	later := call + 3*evaltest.PerTurn
	moderator := call + 6*evaltest.PerTurn
	want := map[string][2]int{"single": {1, 2 * call}, "vote:3": {2, 6 * call}, "debate": {2, 2 * (3*call + 3*later + moderator)}}
	var got []string
	for _, a := range rep.Arms {
		got = append(got, fmt.Sprintf("%s %d %d", a.Name, a.Correct, a.Tokens))
	}
	wantS := []string{
		fmt.Sprintf("single %d %d", want["single"][0], want["single"][1]),
		fmt.Sprintf("vote:3 %d %d", want["vote:3"][0], want["vote:3"][1]),
		fmt.Sprintf("debate %d %d", want["debate"][0], want["debate"][1]),
	}
	if strings.Join(got, "; ") != strings.Join(wantS, "; ") {
		t.Errorf("arms (name, correct, tokens): %s; want %s", strings.Join(got, "; "), strings.Join(wantS, "; "))
	}
	if len(rep.Arms) > 0 && (len(rep.Arms[0].Results) != 2 || rep.Arms[0].Results[1].Answer != "1501") {
		t.Errorf("single's answers: %+v", rep.Arms[0].Results)
	}
	if n := strings.Count(stderr, "eval: ["); n != 6 {
		t.Errorf("%d progress lines on stderr, want 6:\n%s", n, stderr)
	}

	stdout, stderr, code = runBin(t, "", args...)
	if code != 0 || !strings.Contains(stdout, "| single | m1 | 1/2 = 50.0 % |") || !strings.Contains(stdout, "## Equal budget") {
		t.Errorf("Markdown: exit %d\n%s\n%s", code, stdout, stderr)
	}

	for _, bad := range [][]string{
		{"eval", "--questions", filepath.Join(dir, "nosuch.jsonl")},
		{"eval", "--questions", q, "--arms", "vote:0"},
		{"eval"},
		{"eval", "--questions", q, "--personas", "1"},
	} {
		_, stderr, code := runBin(t, "", bad...)
		if code != 2 || !strings.HasPrefix(stderr, "roundtable: ") {
			t.Errorf("roundtable %s: exit %d, want 2 (%s)", strings.Join(bad, " "), code, strings.TrimSpace(stderr))
		}
	}
	// A server that fails mid-run is exit 1, after the report of what was done.
	_, stderr, code = runBin(t, "", "eval", "--questions", q, "--base-url", "http://127.0.0.1:1/v1", "--model", "m")
	if code != 1 {
		t.Errorf("an unreachable server: exit %d, want 1 (%s)", code, strings.TrimSpace(stderr))
	}
}
