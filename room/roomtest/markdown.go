package roomtest

import (
	"fmt"
	"strings"
)

// Markdown whose rendering costs far more than its length (issue 31,
// "Hostile Markdown"): each text below, at the 256 KiB a seat may post,
// cost a renderer seconds to minutes before the bound. The transcript and
// the terminal renderer show them as plain text; the benchmarks compare
// their cost with OrdinaryMarkdown of the same size.

// MarkdownText is a named text for table tests and benchmarks.
type MarkdownText struct {
	Name string
	Text string
}

// HostileMarkdown is the hostile texts, each about size bytes.
func HostileMarkdown(size int) []MarkdownText {
	rep := func(s string) string { return strings.Repeat(s, max(size/len(s), 1)) }
	// A table whose header is wide and whose rows are short: every row is
	// padded to the header's cells.
	header := "|" + rep("a|")[:size/2] + "\n|" + rep("-|")[:size/4] + "\n"
	table := header + strings.Repeat("|a|\n", max((size-len(header))/4, 1))
	var indent strings.Builder
	for i := 0; indent.Len() < size; i++ {
		indent.WriteString(strings.Repeat("  ", i%64) + "- a\n")
	}
	return []MarkdownText{
		{"link openers", rep("[a](")},
		{"image openers", rep("![a](")},
		{"angle link openers", rep("[a](<")},
		{"paren link openers", rep("[a](()")},
		{"nested quotes", rep("> ")},
		{"nested lists", rep("- ")},
		{"nested ordered lists", rep("1. ")},
		{"quote blocks", rep("> > > > > > > > text\n\n")},
		{"list blocks", rep("- - - - - - - - text\n\n")},
		{"indented lists", indent.String()},
		{"wide table", table},
	}
}

// OrdinaryMarkdown is agent Markdown of about size bytes, the peer of
// HostileMarkdown in the benchmarks: a proposal with headings, paragraphs,
// lists nested two deep, a quote, code, a table and links, repeated.
func OrdinaryMarkdown(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Part %d: bound the runner\n\n", i+1)
		b.WriteString("The runner at `internal/jobs/runner.go:88` starts every due job in its own goroutine with **no bound**, " +
			"and `reprice` fans out to 32 more. See <https://example.com/issue/42> and [the design](https://example.com/design#runner).\n\n")
		b.WriteString("> The lead's point: *a second service* costs more than it saves.\n> > And the peer's answer, quoted.\n\n")
		b.WriteString("1. a semaphore, `MaxConcurrentJobs` = 2;\n   - sized from the config;\n   - checked at start;\n" +
			"2. cap the fan-out at `GOMAXPROCS/4`;\n3. cancel jobs on shutdown.\n\n")
		b.WriteString("```go\nsem := make(chan struct{}, cfg.MaxConcurrentJobs)\nfor _, j := range due {\n\tsem <- struct{}{}\n\tgo run(j, sem)\n}\n```\n\n")
		b.WriteString("| option | cost | risk |\n| --- | --- | --- |\n| semaphore | 20 lines | low |\n| worker service | new deployable | medium |\n\n")
		b.WriteString("I'd rather not pay for a ~~second service~~ *second service* for a bug that is twenty lines.\n\n")
	}
	return b.String()
}
