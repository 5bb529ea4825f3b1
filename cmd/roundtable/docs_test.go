package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runnableMark is the line that marks the command block right after it
// as one TestDocsCommands runs as written.
const runnableMark = "<!-- runnable -->"

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
		blocks       []docBlock
		marked, in   bool
		cur          strings.Builder
		start, lineN int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineN++
		l := sc.Text()
		switch {
		case in && strings.HasPrefix(l, "```"):
			blocks = append(blocks, docBlock{start, cur.String()})
			in = false
		case in:
			cur.WriteString(l + "\n")
		case marked && strings.HasPrefix(l, "```sh"):
			in, marked, start = true, false, lineN
			cur.Reset()
		case marked && strings.TrimSpace(l) != "":
			t.Fatalf("%s:%d: %s is not followed by a ```sh block", path, lineN, runnableMark)
		case strings.TrimSpace(l) == runnableMark:
			marked = true
		}
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
// marked runnable, as written, with bash in a new folder (one per page,
// the blocks in order, so a page's later block sees the rooms its earlier
// ones made) and the freshly built roundtable on PATH. A block passes when
// every command in it, those sent to the background included, exits 0.
func TestDocsCommands(t *testing.T) {
	pages := []string{"../../README.md"}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, docs...)
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
