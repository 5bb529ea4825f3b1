//go:build llm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// printedCLI is one agent CLI as the printed lines reach it: its label in
// roundtable host's output, the client of the stdio lines, how it lists
// its servers, and what that list says of one connected.
type printedCLI struct {
	label     string
	client    seatcmd.Client
	list      []string
	connected *regexp.Regexp // nil: the list checks no connection (Codex)
	env       []string
}

var printedCLIs = []printedCLI{
	{"Claude Code", seatcmd.ClaudeCode, []string{"claude", "mcp", "list"}, regexp.MustCompile(`(?m)^%s: .*Connected`), nil},
	{"Codex", seatcmd.Codex, []string{"codex", "mcp", "list"}, nil, nil},
	// Gemini starts a server only in a trusted folder (the printed note
	// says so); its list follows the workspace trust of the environment.
	{"Gemini CLI", seatcmd.GeminiCLI, []string{"gemini", "mcp", "list"}, regexp.MustCompile(`(?m)%s: .*Connected`), []string{"GEMINI_CLI_TRUST_WORKSPACE=true"}},
	{"Qwen Code", seatcmd.QwenCode, []string{"qwen", "mcp", "list"}, regexp.MustCompile(`(?m)%s: .*Connected`), nil},
	{"opencode", seatcmd.OpenCode, []string{"opencode", "mcp", "list"}, regexp.MustCompile(`(?m)%s\S*\s+\S*connected`), nil},
}

// printedBlock is the text of the lines labeled label in the seat's block
// of roundtable host's output: the labeled line and the unlabeled lines
// under it, without their notes in parentheses.
func printedBlock(t *testing.T, out, seat, label string) string {
	t.Helper()
	_, block, ok := strings.Cut(out, "  "+seat+" seat\n")
	if !ok {
		t.Fatalf("no %s seat block in:\n%s", seat, out)
	}
	block, _, _ = strings.Cut(block, "\n\n")
	var lines []string
	in := false
	for line := range strings.SplitSeq(block, "\n") {
		text := strings.TrimSpace(line)
		labeled := len(line) > 17 && line[4] != ' '
		switch {
		case labeled && strings.HasPrefix(text, label+" "):
			in = true
			text = strings.TrimSpace(strings.TrimPrefix(text, label))
		case labeled:
			in = false
		}
		if in && !strings.HasPrefix(text, "(") {
			text, _, _ = strings.Cut(text, "   (") // a note after the command
			lines = append(lines, text)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no %q lines in the %s block:\n%s", label, seat, block)
	}
	return strings.Join(lines, "\n")
}

// runPrintedLines runs text in sh, in folder dir with HOME home, as a user
// pastes it.
func runPrintedLines(t *testing.T, env []string, dir, text string) string {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", "set -e\n"+text)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the printed lines\n%s\nfailed: %v\n%s", text, err, out)
	}
	return string(out)
}

// TestLLMPrintedLinesConnect runs the lines roundtable prints for each
// agent CLI exactly as printed, each CLI in a HOME and folder of its own:
// the HTTP lines of roundtable host's own output, and the stdio lines of
// the new-room form (seatcmd, with this build as the program). Each CLI's
// list then shows the seat's server connected (Codex's list checks no
// connection: its line is checked to parse and register), and listing
// took no seat: an agent's seat is taken by its first tool call.
func TestLLMPrintedLinesConnect(t *testing.T) {
	bin := roundtableBin(t)
	path := agentsPath(t)
	base := []string{"PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "CI=true"}
	proj := t.TempDir()
	h := hosttest.StartBin(t, bin, "--room", "lines", "--topic", "Cache?", "--cwd", proj)
	out := h.Output()
	dir := filepath.Join(proj, room.Folder, "lines")
	for _, c := range printedCLIs {
		for _, transport := range []string{"http", "stdio"} {
			t.Run(c.label+"/"+transport, func(t *testing.T) {
				home, folder := t.TempDir(), t.TempDir()
				env := append(append(slices.Clone(base), "HOME="+home), c.env...)
				var text, name string
				if transport == "http" {
					text = printedBlock(t, out, room.SeatLead, c.label)
					name = seatcmd.Seat{Room: "lines", Seat: room.SeatLead}.ServerName()
				} else {
					s := seatcmd.Seat{Program: bin, Room: "stdio-" + strings.ToLower(strings.Fields(c.label)[0]), Seat: room.SeatLead, Topic: "Cache?", Cwd: folder}
					text, name = c.client.Text(s), s.ServerName()
				}
				runPrintedLines(t, env, folder, text)
				// Through sh: exec.Command would look the CLI up on this
				// process's PATH, not env's.
				list := exec.Command("/bin/sh", "-c", strings.Join(c.list, " "))
				list.Dir, list.Env = folder, env
				got, err := list.CombinedOutput()
				if err != nil {
					got = append(got, []byte("\n("+err.Error()+")")...)
				}
				plain := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(string(got), "")
				if !strings.Contains(plain, name) {
					t.Fatalf("%s does not list %s:\n%s", strings.Join(c.list, " "), name, plain)
				}
				if c.connected != nil && !regexp.MustCompile(strings.ReplaceAll(c.connected.String(), "%s", regexp.QuoteMeta(name))).MatchString(plain) {
					t.Fatalf("%s does not show %s connected:\n%s", strings.Join(c.list, " "), name, plain)
				}
			})
		}
	}
	// Listing took no seat of the host's room (a CLI's probe that names
	// itself otherwise holds it for its probe only).
	deadline := time.Now().Add(10 * time.Second)
	for room.SeatHolder(dir, room.SeatLead).Live {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, room.LogFile))
			t.Fatalf("the lead seat is held after the CLIs only listed their servers:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
