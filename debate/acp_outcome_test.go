package debate

import (
	"context"
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
