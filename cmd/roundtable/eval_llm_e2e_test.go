//go:build llm

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLLMEvalMechanics runs `roundtable eval` against llama.cpp's server
// and the tiny real model, as a user points it at any OpenAI-compatible
// server: --base-url alone, no --model (the server's one model). The tiny
// model's answers mean nothing; the mechanics must hold: every arm answers
// every question with the calls its kind makes, the tokens are the
// server's own counts (none estimated), every figure of report.json is
// recomputed from items.jsonl, and a second run over the same folder
// redoes nothing.
func TestLLMEvalMechanics(t *testing.T) {
	url := llmURLForModels(t)
	cwd := t.TempDir()
	qs := filepath.Join(cwd, "q.jsonl")
	const questions = `{"id":"add","question":"What is 17 + 25?","answer":"42"}
{"id":"sheep","question":"A farmer has 12 sheep and buys 7 more. How many sheep does he have?","answer":"19"}
{"id":"capital","question":"Which city is the capital of France?","choices":["Berlin","Paris","Madrid"],"answer":"B"}
`
	if err := os.WriteFile(qs, []byte(questions), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(cwd, "results", "tiny")
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + t.TempDir(), "LANG=C.UTF-8"}
	args := []string{
		"eval", "--questions", qs, "--arms", "single,vote:3,debate", "--base-url", url,
		"--personas", "2", "--rounds", "2", "--max-tokens", "48", "--concurrency", "2", "--out", out,
	}
	_, stderr, code := runIn(t, env, cwd, args...)
	if code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	calls := map[string]int{"single": 1, "vote:3": 3, "debate": 2*2 + 1}
	records := readEvalItems(t, filepath.Join(out, "items.jsonl"))
	checkEvalReport(t, filepath.Join(out, "report.json"), records, calls, 3)
	if md, err := os.ReadFile(filepath.Join(out, "report.md")); err != nil || !strings.Contains(string(md), "vote:3") {
		t.Errorf("report.md: %v\n%s", err, md)
	}

	// Again over the same folder: every item is there, none is asked again.
	_, stderr, code = runIn(t, env, cwd, args...)
	if code != 0 {
		t.Fatalf("second eval: exit %d\n%s", code, stderr)
	}
	if again := readEvalItems(t, filepath.Join(out, "items.jsonl")); len(again) != len(records) {
		t.Errorf("the second run saved %d items, the first %d: it redid some", len(again), len(records))
	}
	checkEvalReport(t, filepath.Join(out, "report.json"), records, calls, 3)
}

// evalRecord is a line of items.jsonl, read without the eval package's
// types.
type evalRecord struct {
	Arm              string `json:"arm"`
	ID               string `json:"id"`
	Correct          bool   `json:"correct"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	Tokens           int    `json:"tokens"`
	Calls            int    `json:"calls"`
	EstimatedCalls   int    `json:"estimated_calls"`
}

func readEvalItems(t *testing.T, path string) []evalRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rs []evalRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var r evalRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v: %s", path, err, sc.Text())
		}
		rs = append(rs, r)
	}
	return rs
}

// checkEvalReport holds report.json's arms to the records: per arm n
// items, each with the calls of its kind and the server's own token
// counts, and the arm's totals and accuracy their sums.
func checkEvalReport(t *testing.T, path string, records []evalRecord, calls map[string]int, n int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Arms []struct {
			Name             string  `json:"name"`
			Items            int     `json:"items"`
			Correct          int     `json:"correct"`
			Accuracy         float64 `json:"accuracy"`
			PromptTokens     int     `json:"prompt_tokens"`
			CompletionTokens int     `json:"completion_tokens"`
			EstimatedCalls   int     `json:"estimated_calls"`
		} `json:"arms"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rep.Arms) != len(calls) {
		t.Fatalf("%d arms in the report, want %d:\n%s", len(rep.Arms), len(calls), data)
	}
	for _, a := range rep.Arms {
		want, ok := calls[a.Name]
		if !ok {
			t.Errorf("an arm not asked for: %q", a.Name)
			continue
		}
		var items, correct, prompt, completion int
		for _, r := range records {
			if r.Arm != a.Name {
				continue
			}
			items++
			if r.Correct {
				correct++
			}
			prompt += r.PromptTokens
			completion += r.CompletionTokens
			if r.Calls != want || r.EstimatedCalls != 0 || r.PromptTokens <= 0 || r.CompletionTokens <= 0 || r.Tokens != r.PromptTokens+r.CompletionTokens {
				t.Errorf("%s %s: %d calls (want %d), %d estimated, tokens %d+%d=%d", a.Name, r.ID, r.Calls, want, r.EstimatedCalls, r.PromptTokens, r.CompletionTokens, r.Tokens)
			}
		}
		if items != n || a.Items != n || a.Correct != correct || a.PromptTokens != prompt || a.CompletionTokens != completion || a.EstimatedCalls != 0 {
			t.Errorf("%s: report %d items %d correct %d+%d tokens (%d estimated); the records %d items %d correct %d+%d tokens",
				a.Name, a.Items, a.Correct, a.PromptTokens, a.CompletionTokens, a.EstimatedCalls, items, correct, prompt, completion)
		}
		if a.Items > 0 && a.Accuracy != float64(a.Correct)/float64(a.Items) {
			t.Errorf("%s: accuracy %v, %d of %d correct", a.Name, a.Accuracy, a.Correct, a.Items)
		}
	}
}
