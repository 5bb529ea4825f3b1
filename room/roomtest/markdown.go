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
	// A table as wide but no longer than the bound on Glamour's cost
	// allows, then prose: the cells are what costs the HTML.
	tableAndProse := "|" + strings.Repeat("a|", 2000) + "\n|" + strings.Repeat("-|", 2000) + "\n" +
		strings.Repeat("|a|\n", max(size>>12, 2)) + "\n" + rep("Some plain words in a sentence. ")
	var indent strings.Builder
	for i := 0; indent.Len() < size; i++ {
		indent.WriteString(strings.Repeat("  ", i%64) + "- a\n")
	}
	return []MarkdownText{
		{"link openers", rep("[a](")},
		{"image openers", rep("![a](")},
		{"angle link openers", rep("[a](<")},
		{"paren link openers", rep("[a](()")},
		// Link openers spread out on long lines, so that the delimiters
		// alone stay cheap and the scans are what costs.
		{"spread link openers", rep(strings.Repeat("[a](xxxxxxxxxxxxxxxx", 1<<10) + "\n")},
		{"nested quotes", rep("> ")},
		{"nested lists", rep("- ")},
		{"nested ordered lists", rep("1. ")},
		{"quote blocks", rep("> > > > > > > > text\n\n")},
		{"list blocks", rep("- - - - - - - - text\n\n")},
		{"indented lists", indent.String()},
		{"wide table", table},
		{"wide table and prose", tableAndProse},
		{"emphasis runs", rep("*a_")},
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

// EdgeMarkdown is texts of about size bytes each that sit just within the
// bound tooComplex draws (transcript.TooComplex): for each shape, the most
// of it that is still rendered as Markdown, then ordinary prose up to size.
// They are the costliest Markdown a message can hold; the benchmarks
// compare them with OrdinaryMarkdown.
func EdgeMarkdown(size int, tooComplex func(string) bool) []MarkdownText {
	prose := func(n int) string {
		const s = "Some plain words in a sentence. "
		return strings.Repeat(s, max(n, 0)/len(s))
	}
	shapes := []struct {
		name string
		unit func(k int) string
	}{
		{"table cells", func(k int) string {
			return "|" + strings.Repeat("a|", 2000) + "\n|" + strings.Repeat("-|", 2000) + "\n" + strings.Repeat("|a|\n", k)
		}},
		{"link openers", func(k int) string { return strings.Repeat("[a](xxxxxxxxxxxxxxxx", k) + "\n" }},
		{"quote blocks", func(k int) string { return strings.Repeat("> > > > > > > > text\n\n", k) }},
		{"list items", func(k int) string { return strings.Repeat("- a\n", k) }},
		{"emphasis", func(k int) string { return strings.Repeat("*a* _b_ ", k) + "\n" }},
		{"nested lists", func(k int) string { return strings.Repeat("- - - - - - a\n", k) }},
	}
	var out []MarkdownText
	for _, sh := range shapes {
		text := func(k int) string {
			u := sh.unit(k)
			return u + "\n" + prose(size-len(u))
		}
		lo, hi := 0, 1
		for len(sh.unit(hi)) < size && !tooComplex(text(hi)) {
			lo, hi = hi, hi*2
		}
		for hi-lo > 1 {
			if mid := (lo + hi) / 2; tooComplex(text(mid)) {
				hi = mid
			} else {
				lo = mid
			}
		}
		out = append(out, MarkdownText{Name: sh.name, Text: text(lo)})
	}
	return out
}
