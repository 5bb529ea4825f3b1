package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/eval"
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

// TestEvalOutResume: with --out the reports sit in the folder and stdout
// says where; the binary killed by the scripted server at its 20th
// request and run again asks no saved item again and writes the report
// of an unbroken run; another configuration in the folder is exit 2.
func TestEvalOutResume(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.jsonl")
	p := evaltest.Panel{Gold: map[string]int{}, Right: map[string][]string{}, Models: []string{"m1", "m2", "m3"}}
	var lines strings.Builder
	for i := 1; i <= 5; i++ {
		text := fmt.Sprintf("How many plums are in bag %d?", i)
		fmt.Fprintf(&lines, `{"id":"b%d","question":%q,"answer":"%d"}`+"\n", i, text, 10*i)
		p.Gold[text] = 10 * i
		p.Right[text] = []string{"m1", "m2", "m3"}[:i%4]
	}
	if err := os.WriteFile(q, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(srv *evaltest.Server, out string) []string {
		return []string{"eval", "--questions", q, "--arms", "single,vote:3,debate", "--base-url", srv.BaseURL(), "--models", "m1,m2,m3", "--concurrency", "2", "--out", out}
	}

	whole := evaltest.New(t, p.Script())
	whole.SetModels(p.Models...)
	wholeDir := filepath.Join(dir, "whole")
	stdout, stderr, code := runBin(t, "", args(whole, wholeDir)...)
	wantLine := fmt.Sprintf("eval: reports in %s, %s and %s\n", filepath.Join(wholeDir, "report.md"), filepath.Join(wholeDir, "report.json"), filepath.Join(wholeDir, "report.html"))
	if code != 0 || stdout != wantLine {
		t.Fatalf("exit %d, stdout %q (want %q): %s", code, stdout, wantLine, stderr)
	}
	want, err := os.ReadFile(filepath.Join(wholeDir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if md, err := os.ReadFile(filepath.Join(wholeDir, "report.md")); err != nil || !strings.Contains(string(md), "| single | m1 |") ||
		!strings.Contains(string(md), "```text\naccuracy against tokens per question\n") {
		t.Errorf("report.md: %v\n%s", err, md)
	}
	if page, err := os.ReadFile(filepath.Join(wholeDir, "report.html")); err != nil || !strings.Contains(string(page), "<td>m1, m2, m3</td>") ||
		strings.Count(string(page), "<circle ") != 3 {
		t.Errorf("report.html: %v\n%s", err, page)
	}

	srv := evaltest.New(t, p.Script())
	srv.SetModels(p.Models...)
	out := filepath.Join(dir, "killed", "here")
	var (
		mu   sync.Mutex
		proc *os.Process
		seen int
	)
	srv.SetFail(func(evaltest.Request) int {
		mu.Lock()
		defer mu.Unlock()
		if seen++; seen == 20 && proc != nil {
			_ = proc.Kill()
		}
		return 0
	})
	cmd := exec.Command(builtBinary(t), args(srv, out)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	mu.Lock()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proc = cmd.Process
	mu.Unlock()
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the binary was not killed:\n%s", errb.String())
	}
	// A request the killed run had sent is answered before the count,
	// not counted as the rerun's.
	if !srv.Drain(10 * time.Second) {
		t.Fatal("the killed run's connections to the server were still open 10 s after it died")
	}
	first := len(srv.Requests())
	data, _ := os.ReadFile(filepath.Join(out, "items.jsonl"))
	saved, calls := 0, 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Calls int `json:"calls"`
		}
		if json.Unmarshal([]byte(line), &r) == nil {
			saved++
			calls += r.Calls
		}
	}
	if saved == 0 || saved >= 15 {
		t.Fatalf("%d items saved before the kill, after %d requests", saved, first)
	}
	stdout, stderr, code = runBin(t, "", args(srv, out)...)
	if code != 0 || !strings.Contains(stderr, fmt.Sprintf("%d items already done", saved)) {
		t.Fatalf("the rerun: exit %d, %s\n%s", code, stdout, stderr)
	}
	if again := len(srv.Requests()) - first; again != len(whole.Requests())-calls {
		t.Errorf("the rerun made %d requests; want the unbroken run's %d less the %d of the %d saved items", again, len(whole.Requests()), calls, saved)
	}
	got, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if !bytes.Equal(got, want) {
		t.Errorf("the resumed report.json differs from the unbroken run's:\n%s\nwant\n%s", got, want)
	}

	_, stderr, code = runBin(t, "", append(args(srv, out), "--rounds", "3")...)
	if code != 2 || !strings.Contains(stderr, "rounds (2, now 3)") {
		t.Errorf("another configuration in the folder: exit %d, %s", code, stderr)
	}
}

// TestEvalServedModel: --base-url with no model uses the one model the
// server lists; a server listing several is exit 2 naming them; one that
// is not running is exit 1.
func TestEvalServedModel(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.jsonl")
	p := evaltest.Panel{Gold: map[string]int{"How many figs?": 7}, Right: map[string][]string{"How many figs?": {"solo"}}, Models: []string{"solo"}}
	if err := os.WriteFile(q, []byte(`{"id":"f","question":"How many figs?","answer":"7"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := evaltest.New(t, p.Script())
	srv.SetModels("solo")
	stdout, stderr, code := runBin(t, "", "eval", "--questions", q, "--arms", "single,vote:2", "--base-url", srv.BaseURL(), "--format", "json")
	if code != 0 || !strings.Contains(stderr, "eval: model solo, the one the server lists") ||
		!strings.Contains(stdout, `"models": [
        "solo"
      ]`) || strings.Count(stdout, `"accuracy": 1,`) != 2 {
		t.Errorf("one model listed: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, r := range srv.Requests() {
		if r.Model != "solo" {
			t.Errorf("a request for model %q", r.Model)
		}
	}
	srv.SetModels("big", "small")
	_, stderr, code = runBin(t, "", "eval", "--questions", q, "--arms", "single", "--base-url", srv.BaseURL())
	if code != 2 || !strings.Contains(stderr, "serves 2 models (big, small); choose one with --model") {
		t.Errorf("two models listed: exit %d, %s", code, stderr)
	}
	// Arms that name their own models need none from the server.
	n := len(srv.Requests())
	stdout, stderr, code = runBin(t, "", "eval", "--questions", q, "--arms", "single=small,vote:2=big+small", "--base-url", srv.BaseURL(), "--format", "json")
	if code != 0 || strings.Contains(stderr, "the one the server lists") || !strings.Contains(stdout, `"name": "vote:2=big+small"`) {
		t.Errorf("arms with their own models: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var asked []string
	for _, r := range srv.Requests()[n:] {
		asked = append(asked, r.Model)
	}
	if slices.Sort(asked); strings.Join(asked, ",") != "big,small,small" {
		t.Errorf("the arms' calls asked %v, want big, small, small", asked)
	}
	_, stderr, code = runBin(t, "", "eval", "--questions", q, "--arms", "single", "--base-url", "http://127.0.0.1:1/v1")
	if code != 1 || !strings.Contains(stderr, "is not answering") {
		t.Errorf("no server: exit %d, %s", code, stderr)
	}
	// A call the server refuses stops the run: exit 1, the report says
	// why, and the error says what is kept and how to go on.
	srv.SetFail(func(evaltest.Request) int { return 400 })
	out := filepath.Join(dir, "refused")
	_, stderr, code = runBin(t, "", "eval", "--questions", q, "--arms", "single", "--base-url", srv.BaseURL(), "--model", "big", "--out", out)
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if code != 1 || !strings.Contains(stderr, "single, question f: ") ||
		!strings.Contains(stderr, "The questions finished are kept in "+out+": once the cause is fixed, run the same command again") ||
		!strings.Contains(string(md), "**Stopped before the end** (a call failed: single, question f: ") {
		t.Errorf("a refused call with --out: exit %d, %s\nreport.md:\n%s", code, stderr, md)
	}
	_, stderr, code = runBin(t, "", "eval", "--questions", q, "--arms", "single", "--base-url", srv.BaseURL(), "--model", "big")
	if code != 1 || !strings.Contains(stderr, "with --out DIR a rerun keeps what finished") {
		t.Errorf("a refused call without --out: exit %d, %s", code, stderr)
	}
}

// TestEvalMaxCostCommand: --max-cost with a provider that reports no
// cost and no price for the model is refused before any call (exit 2);
// with --prices it is a budget: the run stops once it is spent, the
// report says so, and the exit code is 0.
func TestEvalMaxCostCommand(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.jsonl")
	p := evaltest.Panel{Gold: map[string]int{}, Right: map[string][]string{}, Models: []string{"m1"}}
	var lines strings.Builder
	for i := 1; i <= 4; i++ {
		text := fmt.Sprintf("How many bolts are in bin %d?", i)
		p.Gold[text] = 100 * i
		fmt.Fprintf(&lines, `{"id":"b%d","question":%q,"answer":"%d"}`+"\n", i, text, 100*i)
	}
	if err := os.WriteFile(q, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := evaltest.New(t, p.Script())
	srv.SetModels("m1")
	args := []string{"eval", "--questions", q, "--arms", "single", "--base-url", srv.BaseURL(), "--model", "m1", "--concurrency", "1", "--format", "json"}
	_, stderr, code := runBin(t, "", append(args, "--max-cost", "0.01")...)
	if code != 2 || !strings.Contains(stderr, "--max-cost needs prices: the openai provider reports no cost for model m1") || len(srv.Requests()) != 0 {
		t.Errorf("no prices: exit %d, %d requests, %s", code, len(srv.Requests()), stderr)
	}
	prices := filepath.Join(dir, "prices.toml")
	// A call is 20 prompt and 9 completion tokens: $0.0002 + $0.00009.
	if err := os.WriteFile(prices, []byte("[prices.\"m1\"]\nprompt = 10\ncompletion = 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runBin(t, "", append(args, "--max-cost", "0.0005", "--prices", prices)...)
	var rep eval.Report
	if code != 0 || json.Unmarshal([]byte(stdout), &rep) != nil {
		t.Fatalf("with prices: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// 0.00029 a call: the second reaches 0.00058, so two items.
	if rep.Arms[0].Items != 2 || !strings.Contains(rep.Stopped, "cost budget of $0.0005 is spent") || len(srv.Requests()) != 2 {
		t.Errorf("%d items, %d requests, stopped %q; want 2, 2 and the cost budget", rep.Arms[0].Items, len(srv.Requests()), rep.Stopped)
	}
	_, stderr, code = runBin(t, "", append(args, "--max-cost", "0.01", "--prices", filepath.Join(dir, "nosuch.toml"))...)
	if code != 2 || !strings.Contains(stderr, "nosuch.toml") {
		t.Errorf("a missing prices file: exit %d, %s", code, stderr)
	}
}
