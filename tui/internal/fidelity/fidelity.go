// Package fidelity checks that a screen shows every character an author
// wrote: a generator of random Markdown-ish text of the kind agents write
// (generics, JSX, comparisons, HTML, entities, URLs, CJK and emoji, long
// tokens, lists, headings, code) and a check that every character of it
// that Markdown does not consume appears on a screen, in order. The
// screens' tests use both; nothing in the program does.
package fidelity

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/roundtable-dev/roundtable/room/transcript"
)

// Vanish holds the only characters that may be missing from the screen
// anywhere in a text: the inline marks Markdown consumes (emphasis `*` and
// `_`, strikethrough `~`, code-span backticks, backslash escapes). Block
// markers at the start of a line (see Expected) may go too. Nothing else
// may: not `<`, `>` or `&`, not any part of HTML.
const Vanish = "*_~`\\"

// blockMarker matches what Markdown consumes at the start of a line: quote
// markers, a list bullet or number (Glamour draws its own), a heading's
// hashes.
var blockMarker = regexp.MustCompile(`^[ \t]*(?:>[ \t]?)*(?:(?:[-+*]|[0-9]{1,9}[.)])[ \t]+|#{1,6}(?:[ \t]+|$))?`)

// fence matches a code fence line; Glamour shows neither it nor its
// language.
var fence = regexp.MustCompile("^[ \t]*(?:>[ \t]?)*(?:```|~~~)")

// Expected is what a screen must show of text, in order: its characters
// after transcript.SanitizeTerminal (which every screen applies), without
// white space, without fence lines and block markers, and without the
// characters of Vanish.
func Expected(text string) []rune {
	var out []rune
	for line := range strings.SplitSeq(transcript.SanitizeTerminal(text), "\n") {
		if fence.MatchString(line) {
			continue
		}
		line = line[len(blockMarker.FindString(line)):]
		for _, r := range line {
			if unicode.IsSpace(r) || strings.ContainsRune(Vanish, r) {
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

// Check reports the first character of Expected(text) that screen (plain
// text, escape sequences stripped) does not show in order, with where it
// was looked for. Characters of the screen in between are ignored: the
// check is that nothing written is lost, not that nothing is added.
func Check(text, screen string) error {
	want := Expected(text)
	got := []rune(screen)
	j := 0
	for i, r := range want {
		for j < len(got) && got[j] != r {
			j++
		}
		if j == len(got) {
			return fmt.Errorf("character %d of %d, %q (after %q), is missing from the screen",
				i+1, len(want), r, string(want[max(i-24, 0):i]))
		}
		j++
	}
	return nil
}

// atoms are the pieces of a line: words, and the things agents write that
// a Markdown renderer may take for markup.
var atoms = []string{
	// Plain words, some ending in the punctuation a wrapper mishandles.
	"the", "a", "cache", "should", "matter.", "ones.", "sprint,", "doesn't", "win;", "user-visible", "x", "it's",
	`"completions":`, "(maybe)", "e.g.", "etc.", "wait...", "—", "50%", "$HOME", "a|b", "path/to/file.go:12",
	// Generics, JSX, comparisons, HTML.
	"Store<T>", "Map<K, V>", "Result<Vec<u8>, E>", "List<List<int>>", "<Button onClick={x}/>", "<Button>",
	"</Button>", "the <b>bold</b> tag", "a < b > c", "x<y", "i<n&&j>0", "1 <= 2", "<br>", "<img src=x onerror=alert(1)>",
	"<script>alert('x')</script>", `<a href="https://evil.example">link</a>`, "<!-- a note -->", "<!--x-->",
	`<div class="a">`, "</div>", "<T>", "<>", "<3", "->", "<-", "=>",
	// Entities as typed.
	"&amp;", "AT&T", "&lt;tag&gt;", "&#42;", "&copy", "&nbsp;", "&",
	// Links as text.
	"https://example.com/path?q=1&r=2", "http://127.0.0.1:8080/v1", "www.example.org", "user@example.com",
	// Wide characters.
	"名前を変える", "数据库连接池", "한국어", "🙂", "👍🏽", "🚀🚀", "日本語のテキスト。",
	// Inline Markdown.
	"*em*", "**strong**", "_em_", "~~gone~~", "`code`", "`Store<T>`", "`a < b`", "`&amp;`", "`<div>`",
}

// starters may begin a line without starting a block of their own.
var starters = []string{"the", "cache", "Store<T>", "x<y", "AT&T", "&amp;", "名前を変える", "🙂", "`code`", "<b>bold</b>", "<Button>", "https://example.com/a"}

// Doc returns a random Markdown-ish text: paragraphs, headings, lists,
// quotes, code fences and HTML blocks made of atoms, with an occasional
// very long token.
func Doc(rng *rand.Rand) string {
	var blocks []string
	for range 1 + rng.IntN(5) {
		blocks = append(blocks, block(rng))
	}
	return strings.Join(blocks, "\n\n")
}

func block(rng *rand.Rand) string {
	switch rng.IntN(10) {
	case 0:
		return strings.Repeat("#", 1+rng.IntN(6)) + " " + line(rng, 6)
	case 1:
		var items []string
		for i := range 1 + rng.IntN(4) {
			marker := "- "
			if rng.IntN(3) == 0 {
				marker = fmt.Sprintf("%d. ", i+1)
			}
			if i > 0 && rng.IntN(4) == 0 {
				marker = "  " + marker
			}
			items = append(items, marker+line(rng, 12))
		}
		return strings.Join(items, "\n")
	case 2:
		return "> " + line(rng, 12) + "\n> " + line(rng, 8)
	case 3:
		lang := []string{"", "go", "json", "html"}[rng.IntN(4)]
		var code []string
		for range 1 + rng.IntN(3) {
			code = append(code, strings.ReplaceAll(line(rng, 10), "`", "'"))
		}
		return "```" + lang + "\n" + strings.Join(code, "\n") + "\n```"
	case 4:
		return []string{
			"<script>\ndocument.title = 'x' < 'y';\n</script>",
			"<style>\nbody { color: red; }\n</style>",
			`<iframe src="https://evil.example/frame"></iframe>`,
			"<!--\n" + line(rng, 6) + "\n-->",
			"<div>\n" + line(rng, 8) + "\n</div>",
			"<details>\n<summary>" + line(rng, 3) + "</summary>\n</details>",
		}[rng.IntN(6)]
	default:
		var lines []string
		for range 1 + rng.IntN(3) {
			lines = append(lines, line(rng, 14))
		}
		return strings.Join(lines, "\n")
	}
}

// line is a starter and up to n more atoms; one line in eight carries a
// long token.
func line(rng *rand.Rand, n int) string {
	parts := []string{starters[rng.IntN(len(starters))]}
	for range rng.IntN(n + 1) {
		parts = append(parts, atoms[rng.IntN(len(atoms))])
	}
	if rng.IntN(8) == 0 {
		parts = append(parts, longToken(rng))
	}
	return strings.Join(parts, " ")
}

// longToken is 40 to 240 characters without a space: letters and digits,
// sometimes a URL's worth of punctuation.
func longToken(rng *rand.Rand) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	if rng.IntN(2) == 0 {
		b.WriteString("https://example.com/")
	}
	for range 40 + rng.IntN(200) {
		b.WriteByte(chars[rng.IntN(len(chars))])
		if rng.IntN(20) == 0 {
			b.WriteByte("/.-=?"[rng.IntN(5)])
		}
	}
	return b.String()
}

// CasesEnv names the environment variable that sets how many random cases
// the property tests run (for a longer run than the default).
const CasesEnv = "ROUNDTABLE_FIDELITY_CASES"

// Cases is how many random cases a property test runs: the number in
// CasesEnv when it is set, else def.
func Cases(def int) int {
	if n, err := strconv.Atoi(os.Getenv(CasesEnv)); err == nil && n > 0 {
		return n
	}
	return def
}
