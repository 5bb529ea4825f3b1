package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// allCommands is root and every command under it, help included.
func allCommands(root *cobra.Command) []*cobra.Command {
	root.InitDefaultHelpCmd()
	out := []*cobra.Command{root}
	for _, c := range root.Commands() {
		out = append(out, allCommands(c)...)
	}
	return out
}

// sourceWords are the words a command's help is written from.
func sourceWords(c *cobra.Command) []string {
	text := []string{cmpOr(c.Long, c.Short), c.Example}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			text = append(text, f.Usage)
		}
	})
	return strings.Fields(strings.Join(text, " "))
}

// checkHelp fails when a line of help is wider than width or a word of the
// command's texts does not appear whole.
func checkHelp(t *testing.T, c *cobra.Command, help string, width int) {
	t.Helper()
	for _, l := range strings.Split(help, "\n") {
		w := ansi.StringWidth(l)
		// Under 80 columns one quoted word of an example may be wider
		// than the line: it is never broken.
		oneWord := len(shellWords(strings.TrimSuffix(strings.TrimSpace(ansi.Strip(l)), ` \`))) == 1
		if w > width && (width >= maxHelpWidth || !oneWord) {
			t.Errorf("%s --help at %d columns: a line is %d wide:\n%s", c.CommandPath(), width, w, l)
		}
	}
	have := map[string]bool{}
	for _, f := range strings.Fields(ansi.Strip(help)) {
		have[f] = true
	}
	for _, w := range sourceWords(c) {
		if !have[w] {
			t.Errorf("%s --help at %d columns: the word %q is split or missing", c.CommandPath(), width, w)
		}
	}
}

// TestHelpWraps renders every command's help at 80 columns (the width in
// a pipe) and narrower: no line is wider, no word is split.
func TestHelpWraps(t *testing.T) {
	root := newRoot()
	for _, c := range allCommands(root) {
		for _, w := range []int{80, 60, 50} {
			checkHelp(t, c, renderHelp(c, w, defaultHelpStyles()), w)
		}
	}
}

// TestHelpInPipe runs --help the way a user does, through the real root
// command into a buffer (not a terminal): 80 columns, no colour, and the
// sections in place.
func TestHelpInPipe(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"debate", "--help"}, {"help", "serve"}, {"tui", "-h"}, {"transcript", "--help"}} {
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		c, _, err := newRoot().Find(args[:1])
		if err != nil || args[0] == "--help" || args[0] == "help" {
			c = nil
		}
		help := out.String()
		if strings.Contains(help, "\x1b[") {
			t.Errorf("%v: colour codes in a pipe", args)
		}
		for _, want := range []string{"USAGE", "FLAGS", "--help"} {
			if !strings.Contains(help, want) {
				t.Errorf("%v: %q missing:\n%s", args, want, help)
			}
		}
		if c != nil {
			checkHelp(t, c, help, 80)
		}
	}
}

// TestHelpInTerminal runs the built binary's --help in an 80-column tmux
// pane: the terminal wraps no line (its captured lines, wrapped lines
// joined, are all within 80 columns), and the text is what a pipe gets.
func TestHelpInTerminal(t *testing.T) {
	bin := builtBinary(t)
	for _, args := range []string{"--help", "debate --help", "serve --help", "tui --help"} {
		screen := inTerminal(t, bin, 80, strings.Fields(args))
		for _, l := range strings.Split(screen, "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%s: the terminal wrapped a line of %d cells:\n%s", args, w, l)
			}
		}
		pipe, err := exec.Command(bin, strings.Fields(args)...).Output()
		if err != nil {
			t.Fatal(err)
		}
		if trimLines(screen) != trimLines(string(pipe)) {
			t.Errorf("%s: the terminal shows other text than a pipe gets:\n%s\n---\n%s", args, screen, pipe)
		}
	}
}

// trimLines drops trailing spaces and blank lines at both ends.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// TestVersionOneLine: version, --version and -v print the same line.
func TestVersionOneLine(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		root := newRoot()
		var out strings.Builder
		root.SetOut(&out)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		outs = append(outs, out.String())
	}
	if outs[0] != outs[1] || outs[1] != outs[2] || !strings.HasPrefix(outs[0], "roundtable ") {
		t.Fatalf("version %q, --version %q, -v %q", outs[0], outs[1], outs[2])
	}
}

// TestHelpKeepsLists: an indented list of terms in a command's text (the
// council's kinds of seat) keeps one entry a line, each description in a
// column, at any width; it is not reflowed into one paragraph.
func TestHelpKeepsLists(t *testing.T) {
	for _, w := range []int{80, 60} {
		help := ansi.Strip(renderHelp(newCouncilCmd(), w, defaultHelpStyles()))
		starts := 0
		for _, l := range strings.Split(help, "\n") {
			for _, term := range []string{"name=model:", "name=acp:", "name=mcp", "name=person"} {
				if strings.HasPrefix(strings.TrimSpace(l), term) {
					starts++
				}
				if i := strings.Index(l, term); i > 0 && strings.TrimSpace(l[:i]) != "" {
					t.Errorf("at %d columns, %q runs on from other text: %q", w, term, l)
				}
			}
		}
		if starts != 4 {
			t.Errorf("at %d columns, %d of the 4 kinds of seat start a line:\n%s", w, starts, help)
		}
	}
}

// TestTopicAsWords: a topic or a room's name typed after the command, as
// a new user tries first, is refused with the line that works, and
// nothing is created.
func TestTopicAsWords(t *testing.T) {
	cwd := t.TempDir()
	for _, c := range []struct{ args, want string }{
		{"debate Adopt GraphQL", `roundtable debate --topic "Adopt GraphQL"`},
		{"council Split the store", `roundtable council --topic "Split the store"`},
		{"tui Adopt Rust", `roundtable tui --topic "Adopt Rust"`},
	} {
		_, stderr, code := runBin(t, "", append(strings.Fields(c.args), "--cwd", cwd)...)
		if code != 2 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "takes its topic with --topic") {
			t.Errorf("roundtable %s: exit %d, stderr %q; want 2 and the line %s", c.args, code, stderr, c.want)
		}
	}
	// A command that names a room takes one word as the room's name; one
	// that takes only flags says so, not "unknown command".
	for _, c := range []struct{ args, want string }{
		{"transcript gq", "roundtable transcript takes its room with --room, not as a word after it: roundtable transcript --room gq"},
		{"watch gq", "roundtable watch --room gq"},
		{"host gq", "roundtable host --room gq"},
		{"seat gq", "roundtable seat --room gq"},
		{"verdict gq", "roundtable verdict --room gq"},
		{"eval questions.jsonl", `roundtable eval takes no words after it, only flags; got "questions.jsonl"`},
		{"rooms list gq", `roundtable rooms list takes no words after it, only flags; got "gq"`},
	} {
		args := strings.Fields(c.args)
		if args[0] != "eval" { // eval reads no room folder
			args = append(args, "--cwd", cwd)
		}
		_, stderr, code := runBin(t, "", args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "unknown command") {
			t.Errorf("roundtable %s: exit %d, stderr %q; want 2 and %s", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable")); !os.IsNotExist(err) {
		t.Errorf("a refused command created %s (%v)", filepath.Join(cwd, ".roundtable"), err)
	}
	// The root command's words are no topic: it says so as before.
	if _, stderr, code := runBin(t, "", "Adopt", "--cwd", cwd); code != 2 || strings.Contains(stderr, "--topic") {
		t.Errorf("roundtable Adopt: exit %d, stderr %q; want 2 without a --topic line", code, stderr)
	}
}

// TestUnknownFlagNamesTheNearest: an unknown flag is answered with the
// command's flag the user most likely meant (a letter off, a missing
// plural, a usual other name) and the --help of the command it was given
// to; a flag near none gets no guess. Exit 2, nothing created.
// TestUnknownCommandNamesTheNearest: a mistyped command (two letters
// swapped count as one edit), or one named as other tools name it, gets
// the nearest of ours; a word near none gets no guess. Before, cobra's suggestions were lost (the root takes no
// words), so "roundtable export" said only "unknown command".
func TestUnknownCommandNamesTheNearest(t *testing.T) {
	for word, guess := range map[string]string{
		"export": "roundtable transcript", "ls": "roundtable rooms", "rooom": "roundtable rooms",
		"tiu": "roundtable tui", "debat": "roundtable debate", "Transcript": "roundtable transcript", "banana": "",
		"hots": "roundtable host", "wacth": "roundtable watch",
	} {
		_, stderr, code := runBin(t, "", word)
		switch {
		case code != 2 || !strings.Contains(stderr, `unknown command "`+word+`"`):
			t.Errorf("roundtable %s: exit %d, %q", word, code, stderr)
		case guess == "" && strings.Contains(stderr, "did you mean"):
			t.Errorf("roundtable %s: %q guesses; want none", word, stderr)
		case guess != "" && !strings.Contains(stderr, "(did you mean "+guess+"?)"):
			t.Errorf("roundtable %s: %q; want the guess %s", word, stderr, guess)
		}
	}
}

// A command of commands (rooms) names the nearest of its own, as other
// tools name them (rm, mv, ls), or lists them all; never "takes no words".
func TestUnknownSubcommandNamesTheNearest(t *testing.T) {
	cwd := t.TempDir()
	for _, c := range []struct{ args, want string }{
		{"rooms rm gq", `unknown command "rm" for "roundtable rooms" (did you mean roundtable rooms delete?)`},
		{"rooms mv gq graphql", `(did you mean roundtable rooms rename?)`},
		{"rooms ls", `(did you mean roundtable rooms list?)`},
		{"rooms delet gq", `(did you mean roundtable rooms delete?)`},
		{"rooms undelete gq", `(did you mean roundtable rooms restore?)`},
		{"rooms frobnicate", `unknown command "frobnicate" for "roundtable rooms"; its commands are delete, list, rename and restore`},
	} {
		_, stderr, code := runBin(t, "", append(strings.Fields(c.args), "--cwd", cwd)...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "takes no words") || !strings.Contains(stderr, "Try roundtable rooms --help.") {
			t.Errorf("roundtable %s: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestUnknownFlagNamesTheNearest(t *testing.T) {
	cwd := t.TempDir()
	for _, c := range []struct{ args, guess, help string }{
		{"debate --round 3", "--rounds", "roundtable debate --help"},
		{"debate --turns 3", "--rounds", "roundtable debate --help"},
		{"tui --persona x", "--personas", "roundtable tui --help"},
		{"host --port 9000", "--listen", "roundtable host --help"},
		{"transcript --rom gq", "--room", "roundtable transcript --help"},
		{"eval --question q.jsonl", "--questions", "roundtable eval --help"},
		{"--room gq --seet lead", "--seat", "roundtable --help"},
		{"debate --nope", "", "roundtable debate --help"},
		{"rooms list --jsn", "--json", "roundtable rooms list --help"},
		{"rooms delete --room gq", "", "roundtable rooms delete --help"},
	} {
		args := strings.Fields(c.args)
		if args[0] != "eval" {
			args = append(args, "--cwd", cwd)
		}
		_, stderr, code := runBin(t, "", args...)
		guessed := strings.Contains(stderr, "(did you mean ")
		switch {
		case code != 2 || !strings.Contains(stderr, "Try "+c.help+"."):
			t.Errorf("roundtable %s: exit %d, stderr %q; want 2 and Try %s.", c.args, code, stderr, c.help)
		case c.guess == "" && guessed:
			t.Errorf("roundtable %s: stderr %q guesses a flag; want none", c.args, stderr)
		case c.guess != "" && !strings.Contains(stderr, "(did you mean "+c.guess+"?)"):
			t.Errorf("roundtable %s: stderr %q; want the guess %s", c.args, stderr, c.guess)
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable")); !os.IsNotExist(err) {
		t.Errorf("a refused command created %s (%v)", filepath.Join(cwd, ".roundtable"), err)
	}
	// The rooms commands that take the room as a word say so for --room.
	if _, stderr, _ := runBin(t, "", "rooms", "delete", "--room", "gq", "--cwd", cwd); !strings.Contains(stderr, "(it takes the room as a word: roundtable rooms delete NAME") {
		t.Errorf("rooms delete --room gq: %q; want the line with the room as a word", stderr)
	}
}

// TestEditDistance: the count the guess rests on.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"round", "rounds", 1}, {"rounds", "round", 1}, {"seet", "seat", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"port", "listen", 5}, {"hots", "host", 1}, {"hots", "note", 2}, {"tuo", "tui", 1}, {"roosm", "rooms", 1}, {"ca", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestTextInTerminal runs a debate's text output, a verdict, a transcript
// and an eval's report in a 60-column tmux pane: each breaks its lines at
// words, so the terminal wraps none but code and tables (each line,
// wrapped lines joined, fits 60 columns; the eval's chart is drawn to
// fit), and says the same words a pipe gets. Before, the terminal cut
// words in two ("access p|atterns") and every line of the chart.
func TestTextInTerminal(t *testing.T) {
	bin := builtBinary(t)
	debateArgs := []string{"debate", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--fast", "--seed", "3"}
	cwd := t.TempDir()
	src := filepath.Join("..", "..", "room", "testdata", "reference-rooms", "cache-design") // the original server's room
	if out, err := exec.Command("cp", "-r", src+"/.", cwd).CombinedOutput(); err != nil {
		t.Fatalf("copy the reference room: %v\n%s", err, out)
	}
	_ = exec.Command("chmod", "-R", "u+w", cwd).Run()
	verdictArgs := []string{"verdict", "--room", "cache-design", "--fast", "--cwd", cwd}
	questions := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(questions, []byte(`{"id":"g1","question":"Natalia sold 48 clips in April and half as many in May. How many in all?","answer":"72"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(slices.Clone(debateArgs), "--cwd", t.TempDir()), "━━━ Moderator's verdict ━━━"},
		{verdictArgs, "### Next steps"},
		{[]string{"transcript", "--room", "cache-design", "--cwd", cwd}, "## Round 1"},
		{[]string{"eval", "--questions", questions, "--arms", "single,vote:3,debate", "--provider", "mock"}, "accuracy against tokens per question"},
	} {
		screen := inTerminal(t, bin, 60, c.args)
		args := c.args
		if args[0] == "debate" {
			args = append(slices.Clone(debateArgs), "--cwd", t.TempDir())
		}
		pipe, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatal(err)
		}
		kept := codeLines(string(pipe), c.args[0] != "eval") // tables stay whole, and code but eval's chart, which fits
		for _, l := range strings.Split(screen, "\n") {
			if w := ansi.StringWidth(l); w > 60 && !kept[strings.TrimSpace(l)] {
				t.Errorf("%s: the terminal wrapped a line of %d cells:\n%s", c.args[0], w, l)
			}
		}
		words := func(s string) string { // a quote's wrapped lines start with ">" too
			if c.args[0] == "eval" { // the chart is drawn to the terminal's width
				s = withoutCode(s)
			}
			return strings.Join(strings.Fields(strings.ReplaceAll(s, ">", "")), " ")
		}
		if got, want := words(screen), words(string(pipe)); got != want {
			t.Errorf("%s: the terminal shows other words than a pipe gets:\n%s\n---\n%s", c.args[0], screen, pipe)
		}
		if !strings.Contains(screen, c.want) {
			t.Errorf("%s: no %q:\n%s", c.args[0], c.want, screen)
		}
	}
}

// codeLines is the table rows of Markdown text and, with code, the lines
// inside its code fences, without their indent (a terminal shows tabs as
// spaces).
func codeLines(text string, code bool) map[string]bool {
	kept := map[string]bool{}
	in := false
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			in = !in
		} else if in && code || strings.HasPrefix(t, "|") {
			kept[t] = true
		}
	}
	return kept
}

// withoutCode is Markdown text without its code fences' lines.
func withoutCode(text string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
		} else if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// inTerminal runs bin with args in a tmux pane width columns wide,
// stderr left out, and returns what it printed, wrapped lines joined.
func inTerminal(t *testing.T, bin string, width int, args []string) string {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal("tmux is not installed: this test runs the binary in a real terminal; install it (apt-get install tmux)")
	}
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	sock := "rt-text-" + hex.EncodeToString(id)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", sock, "kill-server").Run() })
	line := bin
	for _, a := range args {
		line += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	start := exec.Command(tmux, "-L", sock, "-f", "/dev/null", "new-session", "-d", "-s", "text",
		"-x", strconv.Itoa(width), "-y", "400", line+" 2>/dev/null; echo __end__; sleep 60")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	var screen string
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		out, err := exec.Command(tmux, "-L", sock, "capture-pane", "-p", "-J", "-S", "-", "-t", "text").Output()
		if err != nil {
			t.Fatal(err)
		}
		if screen = string(out); strings.Contains(screen, "__end__") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	screen, _, found := strings.Cut(screen, "__end__")
	if !found {
		t.Fatalf("%s did not finish:\n%s", args[0], screen)
	}
	return screen
}
