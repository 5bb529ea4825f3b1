//go:build linux

package debate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// TestAgentToolOutcomes: a tool call that ends failed shows as a failure
// with its reason (the last line of its output, else its exit code), a
// command that completed says it ran, a read that completed adds nothing,
// and a call roundtable refused is not shown failed on top of refused.
func TestAgentToolOutcomes(t *testing.T) {
	steps := []acpagent.Step{
		{Tool: &acpagent.Tool{
			Kind: "execute", Title: "touch ROUNDTABLE_TOUCHED", End: "failed", ExitCode: 1,
			Output: "```sh\ntouch: cannot touch 'ROUNDTABLE_TOUCHED': Read-only file system\n```\n",
		}},
		{Tool: &acpagent.Tool{Kind: "execute", Title: "go vet ./...", End: "completed", Output: "ok"}},
		{Tool: &acpagent.Tool{Kind: "edit", Path: "ROOT/main.go", End: "failed", ExitCode: 2}},
		{Tool: &acpagent.Tool{Kind: "read", Path: "ROOT/go.mod", End: "completed", Output: "module x"}},
		{Permission: &acpagent.Tool{Kind: "execute", Title: "rm -rf build", End: "failed", Output: "The user refused."}},
		{Say: "Done."},
	}
	for _, tc := range []struct {
		name    string
		tools   AgentTools
		want    []string
		notWant []string
	}{
		{
			"read-only", 0,
			[]string{
				"tool|touch ROUNDTABLE_TOUCHED",
				"failed|failed: touch ROUNDTABLE_TOUCHED (touch: cannot touch 'ROUNDTABLE_TOUCHED': Read-only file system)",
				"tool|go vet ./...",
				"tool|ran: go vet ./...",
				"tool|editing main.go",
				"failed|failed: edit main.go (exit code 2)",
				"tool|reading go.mod",
				"refused|refused: rm -rf build",
			},
			[]string{"go.mod (", "failed: rm -rf build", "ran: reading", "ran: read"},
		},
		{
			"exec", AllowExec,
			[]string{"failed|failed: rm -rf build (The user refused.)"},
			[]string{"refused|refused: rm -rf build"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScripted(t, acpagent.Script{Turns: []acpagent.Turn{{Steps: steps}}}, tc.tools)
			text, acts, err := sc.speak(context.Background(), "Codex", nil)
			if err != nil || text != "Done." {
				t.Fatalf("turn: %q, %v (outcomes must not be text)", text, err)
			}
			var lines []string
			for _, a := range acts {
				lines = append(lines, a.Kind+"|"+a.Text)
			}
			joined := strings.Join(lines, "\n")
			at := -1
			for _, want := range tc.want {
				i := strings.Index(joined, want)
				if i < 0 {
					t.Errorf("activity lacks %q:\n%s", want, joined)
					continue
				}
				if i < at {
					t.Errorf("%q out of order:\n%s", want, joined)
				}
				at = i
			}
			for _, bad := range tc.notWant {
				if strings.Contains(joined, bad) {
					t.Errorf("activity has %q:\n%s", bad, joined)
				}
			}
			if n := strings.Count(joined, "failed: touch"); n != 1 {
				t.Errorf("the failed touch shows %d times:\n%s", n, joined)
			}
		})
	}
}

// TestActivityLineFailed: a failure is drawn like a refusal, not like a
// tool that ran.
func TestActivityLineFailed(t *testing.T) {
	if got := ActivityLine(ActivityFailed, "failed: touch x"); got != "✗ failed: touch x" {
		t.Errorf("ActivityLine(failed) = %q", got)
	}
}

// TestAgentStoppedOnRefusalIsAskedToGoOn: an agent that ends its turn
// "cancelled" right after a refusal (codex-acp's only reject option aborts
// the turn) is told what it may do and asked to go on, and its answer is
// the turn's; one that cancels with nothing refused, or keeps stopping,
// fails the turn as before.
func TestAgentStoppedOnRefusalIsAskedToGoOn(t *testing.T) {
	refusedThenStop := acpagent.Turn{Steps: []acpagent.Step{{Permission: &acpagent.Tool{Kind: "execute", Title: "touch x"}}}, StopReason: "cancelled"}
	for _, tc := range []struct {
		name    string
		turns   []acpagent.Turn
		text    string
		err     string
		prompts int
	}{
		{"goes on", []acpagent.Turn{refusedThenStop, {Steps: []acpagent.Step{{Say: "Reading only, I say no."}}}}, "Reading only, I say no.", "", 2},
		{"keeps stopping", []acpagent.Turn{refusedThenStop}, "", "cancelled its turn by itself", 1 + maxRefusalAsks},
		{"stops with nothing refused", []acpagent.Turn{{Steps: []acpagent.Step{{Say: "Hm"}}, StopReason: "cancelled"}}, "Hm", "cancelled its turn by itself", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScripted(t, acpagent.Script{Turns: tc.turns}, 0)
			text, acts, err := sc.speak(context.Background(), "Codex", nil)
			if text != tc.text || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("turn: %q, %v; want %q, error %q", text, err, tc.text, tc.err)
			}
			prompts := sc.prompts(t)
			if len(prompts) != tc.prompts {
				t.Fatalf("%d prompts, want %d: %q", len(prompts), tc.prompts, prompts)
			}
			for _, p := range prompts[1:] {
				if !strings.Contains(p, "Roundtable refused that: in this debate you may only read and search") {
					t.Errorf("the follow-up prompt does not say what was refused: %q", p)
				}
			}
			if tc.prompts > 1 && !slices.Contains(acts, Activity{Kind: ActivityRefused, Text: "refused: touch x"}) {
				t.Errorf("activity %+v lacks the refusal", acts)
			}
		})
	}
}
