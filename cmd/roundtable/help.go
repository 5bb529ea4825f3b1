package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/roundtable-dev/roundtable/room"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxHelpWidth is the widest help gets: a terminal's width up to this,
// and this in a pipe.
const maxHelpWidth = 80

// helpKeyCap is the widest the column of flag and command names gets; a
// longer name puts its description on the next line.
const helpKeyCap = 24

// programs start the lines of a help text that are commands to type, which
// wrap between shell words instead of as prose.
var programs = []string{"roundtable", "claude", "codex", "gemini", "qwen", "opencode"}

// helpStyles colour the help on a terminal; in a pipe the colour profile
// writer drops them.
type helpStyles struct {
	title, key, dim lipgloss.Style
}

func defaultHelpStyles() helpStyles {
	return helpStyles{
		title: lipgloss.NewStyle().Bold(true),
		key:   lipgloss.NewStyle().Foreground(lipgloss.Cyan),
		dim:   lipgloss.NewStyle().Faint(true),
	}
}

// helpFunc prints a command's help on its output, wrapped at word
// boundaries to the terminal's width (at most 80 columns; 80 in a pipe).
func helpFunc(c *cobra.Command, _ []string) {
	out := c.OutOrStdout()
	w := colorprofile.NewWriter(out, os.Environ())
	_, _ = io.WriteString(w, renderHelp(c, termWidth(out), defaultHelpStyles()))
}

// termWidth is the width help wraps at on out: the terminal's, at most
// 80; 80 in a pipe.
func termWidth(out io.Writer) int {
	w := ttyWidth(out)
	if w <= 0 {
		return maxHelpWidth
	}
	return max(min(w, maxHelpWidth), 30)
}

// textWidth is the width live text breaks its lines at on out
// (debate.WrapWriter): the terminal's less one, so that a full line never
// leaves the cursor in the terminal's pending-wrap column; 0 (no breaks)
// when out is not a terminal.
func textWidth(out io.Writer) int {
	return max(ttyWidth(out)-1, 0)
}

// ttyWidth is the width of the terminal out writes to; 0 when out is not
// a terminal.
func ttyWidth(out io.Writer) int {
	f, ok := out.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		return 0
	}
	return w
}

// renderHelp is c's help at width cells: what it does, its usage, its
// examples, its commands and its flags. No line is wider than width unless
// one word is, and no word is split.
func renderHelp(c *cobra.Command, width int, st helpStyles) string {
	var b strings.Builder
	b.WriteString("\n")
	for _, l := range wrapText(strings.TrimSpace(cmpOr(c.Long, c.Short)), width, 2) {
		b.WriteString(l + "\n")
	}
	section := func(title string) { b.WriteString("\n" + st.title.Render(title) + "\n") }

	section("USAGE")
	var usage []string
	if c.Runnable() {
		usage = append(usage, strings.Replace(c.UseLine(), "[flags]", "[--flags]", 1))
	}
	if c.HasAvailableSubCommands() {
		usage = append(usage, c.CommandPath()+" [command] [--flags]")
	}
	for _, u := range usage {
		for _, l := range wrapShell(u, width, 2) {
			b.WriteString(l + "\n")
		}
	}

	if ex := strings.TrimSpace(c.Example); ex != "" {
		section("EXAMPLES")
		for _, l := range wrapText(dedent(c.Example), width, 2) {
			b.WriteString(l + "\n")
		}
	}

	var cmds [][2]string
	for _, sc := range c.Commands() {
		if sc.IsAvailableCommand() || sc.Name() == "help" {
			cmds = append(cmds, [2]string{sc.Name(), sc.Short})
		}
	}
	if len(cmds) > 0 {
		section("COMMANDS")
		writeColumns(&b, cmds, width, st)
	}

	var flags [][2]string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, flagRow(f))
		}
	})
	sort.SliceStable(flags, func(i, j int) bool {
		return strings.TrimLeft(flags[i][0], "-") < strings.TrimLeft(flags[j][0], "-")
	})
	if len(flags) > 0 {
		section("FLAGS")
		writeColumns(&b, flags, width, st)
	}
	if !c.HasParent() {
		section("EXIT CODES")
		writeColumns(&b, exitCodes, width, st)
	}
	return b.String()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// flagRow is a flag's name (with its shorthand and value's kind) and its
// description (with its default).
func flagRow(f *pflag.Flag) [2]string {
	name := "--" + f.Name
	if f.Shorthand != "" {
		name = "-" + f.Shorthand + ", " + name
	}
	varname, usage := pflag.UnquoteUsage(f)
	if varname != "" && f.Value.Type() != "bool" {
		name += " " + varname
	}
	switch f.DefValue {
	case "", "false", "0", "0s", "[]":
	default:
		usage += " (default " + f.DefValue + ")"
	}
	return [2]string{name, usage}
}

// writeColumns writes name/description rows: the names in a column as
// wide as the widest (up to helpKeyCap), the descriptions wrapped beside
// them.
func writeColumns(b *strings.Builder, rows [][2]string, width int, st helpStyles) {
	col := 0
	for _, r := range rows {
		if w := ansi.StringWidth(r[0]); w <= helpKeyCap {
			col = max(col, w)
		}
	}
	const indent, gap = 2, 2
	descAt := indent + col + gap
	for _, r := range rows {
		key := strings.Repeat(" ", indent) + st.key.Render(r[0])
		desc := room.WrapWords(r[1], max(width-descAt, 20))
		kw := indent + ansi.StringWidth(r[0])
		if kw+gap > descAt {
			b.WriteString(key + "\n")
			key, kw = "", 0
		}
		for i, d := range desc {
			lead := strings.Repeat(" ", descAt)
			if i == 0 {
				lead = key + strings.Repeat(" ", descAt-kw)
			}
			b.WriteString(lead + d + "\n")
		}
		if len(desc) == 0 {
			b.WriteString(key + "\n")
		}
	}
}

// wrapText wraps a help text at width, indented by indent: paragraphs of
// prose are wrapped at spaces (keeping their own indentation as a hanging
// indent), and a paragraph that is a command to type (it starts with a
// program's name) wraps each command between shell words, with a " \"
// continuation, so it still runs.
func wrapText(text string, width, indent int) []string {
	var out []string
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			out = append(out, "")
		}
		lines := strings.Split(para, "\n")
		first := strings.TrimSpace(lines[0])
		pad := indent + len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
		if isCommand(first) {
			for _, cmd := range joinContinued(lines) {
				out = append(out, wrapShell(cmd, width, pad)...)
			}
			continue
		}
		if pad > indent && termGap.MatchString(lines[0]) {
			out = append(out, wrapTerms(lines, width, pad)...)
			continue
		}
		for _, l := range room.WrapWords(strings.Join(strings.Fields(para), " "), width-pad) {
			out = append(out, strings.Repeat(" ", pad)+l)
		}
	}
	return out
}

// termGap matches the first line of an indented list of terms, each with
// its description after two or more spaces ("  name=mcp   an MCP agent").
var termGap = regexp.MustCompile(`^ +\S+ {2,}\S`)

// wrapTerms lays out an indented list of terms: one entry a line at the
// list's indentation (a deeper line goes on the entry before), each
// description in a column after the widest term, wrapped with a hanging
// indent; when the terms leave the description too little room, it goes
// under its term.
func wrapTerms(lines []string, width, pad int) []string {
	base := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	var terms, descs []string
	for _, l := range lines {
		if len(l)-len(strings.TrimLeft(l, " ")) > base && len(terms) > 0 {
			descs[len(descs)-1] += " " + strings.TrimSpace(l)
			continue
		}
		term, desc, _ := strings.Cut(strings.TrimSpace(l), "  ")
		terms, descs = append(terms, term), append(descs, strings.TrimSpace(desc))
	}
	col := 0
	for _, t := range terms {
		col = max(col, len(t)+2)
	}
	var out []string
	for i, t := range terms {
		if width-pad-col < 24 {
			out = append(out, strings.Repeat(" ", pad)+t)
			for _, l := range room.WrapWords(descs[i], width-pad-4) {
				out = append(out, strings.Repeat(" ", pad+4)+l)
			}
			continue
		}
		for j, l := range room.WrapWords(descs[i], width-pad-col) {
			lead := strings.Repeat(" ", col)
			if j == 0 {
				lead = t + strings.Repeat(" ", col-len(t))
			}
			out = append(out, strings.Repeat(" ", pad)+lead+l)
		}
	}
	return out
}

func isCommand(line string) bool {
	word, _, _ := strings.Cut(line, " ")
	for _, p := range programs {
		if word == p {
			return true
		}
	}
	return false
}

// joinContinued joins lines ending in a backslash with the next, giving
// one line per command.
func joinContinued(lines []string) []string {
	var out []string
	var cur string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if cont, ok := strings.CutSuffix(l, `\`); ok {
			cur += strings.TrimSpace(cont) + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	if cur != "" {
		out = append(out, strings.TrimSpace(cur))
	}
	return out
}

// wrapShell wraps one command line at width, indented by indent, between
// shell words (a quoted string is one word, and a flag stays with its
// value when they fit on a line); continuation lines end in " \" and are
// indented two more.
func wrapShell(cmd string, width, indent int) []string {
	words := pairFlags(shellWords(cmd), width-indent-4)
	pad := strings.Repeat(" ", indent)
	var out []string
	cur := pad
	for i, w := range words {
		need := ansi.StringWidth(w)
		if i < len(words)-1 {
			need += 2 // " \"
		}
		if cur != pad && ansi.StringWidth(cur)+1+need > width {
			out = append(out, cur+` \`)
			cur = pad + "  "
		} else if cur != pad {
			cur += " "
		}
		cur += w
	}
	return append(out, cur)
}

// pairFlags joins each "--flag" with the value after it, when the two fit
// in width, so a line never ends between a flag and its value.
func pairFlags(words []string, width int) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && !strings.Contains(w, "=") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			if pair := w + " " + words[i+1]; ansi.StringWidth(pair) <= width {
				out = append(out, pair)
				i++
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// shellWords splits a command line at spaces outside quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == ' ':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// dedent removes the indentation every line of s shares, and the blank
// lines around it.
func dedent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if common < 0 || n < common {
			common = n
		}
	}
	for i, l := range lines {
		if len(l) >= common && common > 0 {
			lines[i] = l[common:]
		}
	}
	return strings.Join(lines, "\n")
}

// versionLine is what version, --version and -v print.
func versionLine() string {
	return fmt.Sprintf("roundtable %s (commit %s, %s)\n", buildVersion(), buildCommit(), goVersion())
}
