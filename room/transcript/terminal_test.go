package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestForTerminal: prose, list items and quotes break at words within the
// width, keeping their marker's indent (a quote's ">" on each line);
// code, tables and short lines stay as they are, and the words are the same.
func TestForTerminal(t *testing.T) {
	long := "the first user-visible win lands within one sprint, not after a migration nobody sees"
	code := "    go test -run '^$' -bench HostIdleSiege -benchtime 1x ./room/host/ and more words here"
	fenced := "x := strings.Repeat(\"a very long line of code that must stay whole\", 3) // and a comment"
	table := "| column one is wide | column two is wider than the terminal is | three |"
	in := strings.Join([]string{
		"# Title", "", long, "", "- **Time to value:** " + long, "  1. " + long, "> " + long, "> - " + long, "",
		code, "", "```go", fenced, "```", "", "~~~~", fenced, "~~~ not the end", fenced, "~~~~", table, "",
	}, "\n")
	out := ForTerminal(in, 40)
	words := func(s string) string { // a quote's lines each start with ">"
		return strings.Join(strings.Fields(strings.ReplaceAll(s, ">", "")), " ")
	}
	if words(out) != words(in) {
		t.Fatalf("the words changed:\n%s", out)
	}
	kept := map[string]bool{code: true, fenced: true, table: true, "~~~ not the end": true}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 40 && !kept[l] {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
	for l := range kept {
		if !strings.Contains(out, "\n"+l+"\n") {
			t.Errorf("%q was broken:\n%s", l, out)
		}
	}
	for _, want := range []string{
		"\n- **Time to value:** the first\n  user-visible", "\n  1. the first user-visible win lands\n     within",
		"\n> the first user-visible win lands\n> within", "\n> - the first user-visible win lands\n>   within",
		"\nthe first user-visible win lands within\none sprint",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if ForTerminal(in, 0) != in {
		t.Error("width 0 (not a terminal) changed the text")
	}
}
