package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// Every command block of the README and docs/ (a ```sh fence) is marked
// on the line before it: runnableMark, a block TestDocsCommands runs as
// written, or notRunMark and why no test here can run it (it opens the
// terminal app, needs a key, a local model server or an agent CLI), and
// where it is tested instead when it is.
const (
	runnableMark = "<!-- runnable -->"
	notRunMark   = "<!-- not run: "
)

// docBlock is one runnable block of a page.
type docBlock struct {
	line int // where its fence opens
	text string
}

// runnableBlocks reads the blocks of path marked runnable.
func runnableBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		blocks           []docBlock
		marked, skip, in bool
		cur              strings.Builder
		start, lineN     int
		prev             string
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineN++
		l := sc.Text()
		switch {
		case in && strings.HasPrefix(l, "```"):
			if !skip {
				blocks = append(blocks, docBlock{start, cur.String()})
			}
			in = false
		case in:
			cur.WriteString(l + "\n")
		case strings.HasPrefix(l, "```sh"):
			why, isNotRun := strings.CutPrefix(strings.TrimSpace(prev), notRunMark)
			if !marked && (!isNotRun || strings.TrimSpace(strings.TrimSuffix(why, "-->")) == "") {
				t.Errorf("%s:%d: a command block with no mark: put %s or %s<why> --> on the line before it", path, lineN, runnableMark, notRunMark)
			}
			in, skip, marked, start = true, !marked, false, lineN
			cur.Reset()
		case marked && strings.TrimSpace(l) != "":
			t.Fatalf("%s:%d: %s is not followed by a ```sh block", path, lineN, runnableMark)
		case strings.TrimSpace(l) == runnableMark:
			marked = true
		}
		prev = l
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if in || marked {
		t.Fatalf("%s: a runnable block does not end", path)
	}
	return blocks
}

// TestDocsCommands runs every command block of the README and docs/
// marked runnable, as written (and fails on a block marked neither way), with bash in a new folder (one per page,
// the blocks in order, so a page's later block sees the rooms its earlier
// ones made) and the freshly built roundtable on PATH. A block passes when
// every command in it, those sent to the background included, exits 0.
func TestDocsCommands(t *testing.T) {
	pages := []string{"../../README.md"}
	for _, glob := range []string{"../../docs/*.md", "../../docs/*/*.md"} {
		docs, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, docs...)
	}
	// roundtable is built into a folder put first on PATH, so the pages'
	// commands run it by name as a reader's shell does.
	bin := t.TempDir()
	if err := os.Symlink(builtBinary(t), filepath.Join(bin, "roundtable")); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, page := range pages {
		blocks := runnableBlocks(t, page)
		total += len(blocks)
		if len(blocks) == 0 {
			continue
		}
		name := strings.TrimPrefix(page, "../../")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			home := t.TempDir() // no personas.toml of the user's
			for _, b := range blocks {
				// Background jobs are waited for one by one, so one that
				// fails fails the block.
				script := "set -euo pipefail\n" + b.text + "for j in $(jobs -p); do wait \"$j\"; done\n"
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				cmd := exec.CommandContext(ctx, "bash", "-c", script)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home, "NO_COLOR=1")
				out, err := cmd.CombinedOutput()
				cancel()
				if err != nil {
					t.Errorf("%s:%d: the block failed (%v):\n%s\noutput:\n%s", name, b.line, err, b.text, out)
				}
			}
		})
	}
	if total < 4 {
		t.Fatalf("%d runnable blocks in the README and docs/, want at least 4", total)
	}
}

// TestDocsAgentLines: every "claude mcp add" or "codex mcp add" line of a
// command block in the README and docs/ (joined where it is broken with
// a backslash) is, character for character, the line roundtable prints
// for that seat (seatcmd, which the new-room form and roundtable council
// print and make e2e-llm runs with the real CLIs): a copy in the docs
// cannot drift from what works.
func TestDocsAgentLines(t *testing.T) {
	pages := []string{"../../README.md"}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	clients := map[string]seatcmd.Client{"claude": seatcmd.ClaudeCode, "codex": seatcmd.Codex, "opencode": seatcmd.OpenCode}
	flagRE := regexp.MustCompile(`--(\w+)=('[^']*'|\S+)`)
	checked := 0
	for _, page := range append(pages, docs...) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		in := false
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if strings.HasPrefix(l, "```") {
				in = !in && strings.HasPrefix(l, "```sh")
				continue
			}
			cli, _, _ := strings.Cut(l, " ")
			c, ok := clients[cli]
			if !in || !ok || !strings.HasPrefix(l, cli+" mcp add roundtable-") {
				continue
			}
			at := i + 1
			for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(l, `\`) + strings.TrimSpace(lines[i])
			}
			l = strings.Join(strings.Fields(l), " ")
			_, args, ok := strings.Cut(l, " -- ")
			if !ok {
				t.Errorf("%s:%d: %q has no -- before the seat server's command", page, at, l)
				continue
			}
			s := seatcmd.Seat{}
			for _, m := range flagRE.FindAllStringSubmatch(args, -1) {
				v := strings.Trim(m[2], "'")
				switch m[1] {
				case seatcmd.FlagRoom:
					s.Room = v
				case seatcmd.FlagSeat:
					s.Seat = v
				case seatcmd.FlagAgent:
					s.Agent = v
				case seatcmd.FlagTopic:
					s.Topic = v
				case seatcmd.FlagBudget:
					s.Budget, _ = strconv.Atoi(v)
				case seatcmd.FlagSpec:
					s.Spec = v
				case seatcmd.FlagCwd:
					s.Cwd = v
				}
			}
			if want := c.Text(s); l != want {
				t.Errorf("%s:%d: the docs say\n  %s\nroundtable prints\n  %s", page, at, l, want)
			}
			checked++
		}
	}
	if checked < 3 {
		t.Fatalf("%d agent lines checked in the README and docs/, want at least 3", checked)
	}
}
