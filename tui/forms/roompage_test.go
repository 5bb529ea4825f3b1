package forms

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// readyForm is a room form showing its commands page at w×h, its room
// named "cache" in a fresh folder, its commands starting program.
func readyForm(t *testing.T, w, h int, program string) RoomForm {
	t.Helper()
	f := NewRoomForm(RoomOptions{Cwd: t.TempDir(), Dark: true, Program: program})
	f, _ = f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Should the cache be write-through, or is it 'too slow'?")...)
	f, _ = drive(f, append(keys, "ctrl+s")...)
	if !f.Ready() {
		t.Fatalf("not ready: %q", f.err)
	}
	return f
}

// shellArgs runs script in a POSIX shell in which every agent CLI is a
// function printing its arguments, and returns the arguments of each call.
func shellArgs(t *testing.T, script string) [][]string {
	t.Helper()
	shell, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	var defs strings.Builder
	// env VAR=VALUE CMD (Gemini's lines) runs CMD's stub with VAR set.
	defs.WriteString(`env() { while [ "${1#*=}" != "$1" ]; do export "$1"; shift; done; "$@"; }` + "\n")
	for _, fn := range []string{"claude", "codex", "gemini", "qwen", "opencode"} {
		defs.WriteString(fn + `() { for a in "$@"; do printf '%s\0' "$a"; done; printf '\n'; }` + "\n")
	}
	out, err := exec.Command(shell, "-c", defs.String()+script).Output()
	if err != nil {
		t.Fatalf("sh: %v\n%s", err, script)
	}
	var calls [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		calls = append(calls, strings.Split(strings.TrimSuffix(line, "\x00"), "\x00"))
	}
	return calls
}

// commandLines are the lines of the command shown under seat i's heading,
// as a person would select them on screen.
func commandLines(t *testing.T, f RoomForm, i int) []string {
	t.Helper()
	view := strings.Split(plain(f.View()), "\n")
	head := slices.IndexFunc(view, func(l string) bool {
		return strings.Contains(l, []string{"1  Lead seat", "2  Peer seat"}[i])
	})
	if head < 0 {
		t.Fatalf("no heading for seat %d:\n%s", i+1, strings.Join(view, "\n"))
	}
	var lines []string
	for _, l := range view[head+1:] {
		lines = append(lines, l)
		if !strings.HasSuffix(l, seatcmd.Continuation) {
			break
		}
	}
	return lines
}

// TestRoomPageCommandsRun selects each client for each seat at several
// widths and checks the command on screen: no line wider than the screen,
// none broken inside an argument, nothing after the continuation, and the
// lines, pasted into a shell, run exactly the command the copy key copies.
func TestRoomPageCommandsRun(t *testing.T) {
	for _, w := range []int{50, 80, 120} {
		f := readyForm(t, w, 80, "/opt/round table/roundtable")
		for i := range f.seats {
			if i == 1 {
				f, _ = drive(f, "tab")
			}
			for _, c := range seatcmd.Clients() {
				for f.clients[i] != c {
					f, _ = drive(f, "right")
				}
				if c == seatcmd.JSONFile {
					continue
				}
				st := f.res.seat(i)
				lines := commandLines(t, f, i)
				for _, l := range lines {
					if ansi.StringWidth(l) > w {
						t.Errorf("width %d, %s: line wider than the screen: %q", w, c.Name(), l)
					}
					if strings.HasSuffix(l, " ") {
						t.Errorf("width %d, %s: line ends in a space after its text: %q", w, c.Name(), l)
					}
				}
				if cut := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, "…") }); cut >= 0 {
					// An argument wider than the screen is cut, visibly,
					// and the page says the copy key has it whole.
					if w >= 80 || !strings.Contains(plain(f.View()), "cut to fit the screen") {
						t.Errorf("width %d, %s: line %q is cut", w, c.Name(), lines[cut])
					}
					continue
				}
				got := shellArgs(t, strings.Join(lines, "\n"))
				argv := c.Argv(st)
				if argv[0] == "env" {
					argv = argv[len(seatcmd.GeminiTrusted()):] // the stub's env runs the command
				}
				if want := argv[1:]; len(got) != 1 || !slices.Equal(got[0], want) {
					t.Errorf("width %d, %s: the lines on screen run %q, want %q:\n%s", w, c.Name(), got, want, strings.Join(lines, "\n"))
				}
				_, msgs := drive(f, []string{"1", "2"}[i])
				if text, _ := clipboard(msgs[0]); text != c.Text(st) {
					t.Errorf("width %d, %s: %d copied %q", w, c.Name(), i+1, text)
				}
			}
		}
	}
}

// TestRoomPageClients checks that every agent CLI and the JSON can be
// shown for each seat, and that the lead and the peer register different
// server names.
func TestRoomPageClients(t *testing.T) {
	f := readyForm(t, 120, 100, "roundtable")
	if [2]seatcmd.Client(f.clients[:2]) != [2]seatcmd.Client{seatcmd.ClaudeCode, seatcmd.Codex} {
		t.Errorf("the seats start with %s and %s", f.clients[0].Name(), f.clients[1].Name())
	}
	seen := map[string]bool{}
	for range seatcmd.Clients() {
		v := plain(f.View())
		for _, want := range []string{"claude mcp add", "codex mcp add", "gemini mcp add", "qwen mcp add", "opencode mcp add", `"mcpServers"`} {
			if strings.Contains(v, want) {
				seen[want] = true
			}
		}
		f, _ = drive(f, "right")
	}
	if len(seen) != 6 {
		t.Errorf("the page never showed some clients: saw %v", seen)
	}
	if f.clients[0] != seatcmd.ClaudeCode {
		t.Errorf("←/→ does not cycle back: %s", f.clients[0].Name())
	}
	// The lead's default label follows the client chosen: the Codex line
	// says codex, not claude.
	f, _ = drive(f, "right")
	_, copied := drive(f, "1")
	if line, _ := clipboard(copied[0]); !strings.Contains(line, "codex mcp add") || !strings.Contains(line, "--agent=codex") || strings.Contains(line, "--agent=claude") {
		t.Errorf("the lead's Codex line: %s", line)
	}
	f, _ = drive(f, "left")
	f, _ = drive(f, "tab", "left")
	if [2]seatcmd.Client(f.clients[:2]) != [2]seatcmd.Client{seatcmd.ClaudeCode, seatcmd.ClaudeCode} {
		t.Errorf("tab, ← did not change the peer's client: %s, %s", f.clients[0].Name(), f.clients[1].Name())
	}
	_, m1 := drive(f, "1")
	_, m2 := drive(f, "2")
	lead, _ := clipboard(m1[0])
	peer, _ := clipboard(m2[0])
	if !strings.Contains(lead, " roundtable-cache-lead ") || !strings.Contains(peer, " roundtable-cache-peer ") {
		t.Errorf("the seats do not register different servers:\n%s\n%s", lead, peer)
	}
	_, m3 := drive(f, "3")
	if text, _ := clipboard(m3[0]); !strings.Contains(text, `"roundtable-cache-lead"`) || !strings.Contains(text, `"roundtable-cache-peer"`) {
		t.Errorf("3 copied %q", text)
	}
}

// TestRoomPageProgram creates a room with no roundtable on PATH: the
// commands start this binary by its absolute path, and the page says why.
func TestRoomPageProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	f := readyForm(t, 200, 80, "")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ = filepath.EvalSymlinks(exe)
	if f.res.Program != exe {
		t.Fatalf("program %q, want %q", f.res.Program, exe)
	}
	v := plain(f.View())
	if !strings.Contains(v, "not on your PATH") || !strings.Contains(v, "-- "+exe+" --room=cache") {
		t.Errorf("the page does not use the absolute path:\n%s", v)
	}
}

// TestRoomFormQ: q types in a text field; on the commands page, which has
// none, q goes back like esc.
func TestRoomFormQ(t *testing.T) {
	f, _ := newTestRoomForm(t, 100, 30)
	f, msgs := drive(f, "q")
	if len(msgs) != 0 || f.inputs[roomName].Value() != "q" {
		t.Errorf("q in the name field: msgs %v, value %q", msgs, f.inputs[roomName].Value())
	}
	f = readyForm(t, 100, 30, "roundtable")
	for _, k := range []string{"q", "esc"} {
		_, msgs := drive(f, k)
		if len(msgs) != 1 {
			t.Fatalf("%s sent %v", k, msgs)
		}
		if _, ok := msgs[0].(BackMsg); !ok {
			t.Errorf("%s on the commands page sent %T, want BackMsg", k, msgs[0])
		}
	}
	if v := plain(f.View()); !strings.Contains(v, "q/esc home") {
		t.Errorf("the help does not say q goes home:\n%s", v)
	}
	if _, err := room.Open(f.opts.Cwd, "cache"); err != nil {
		t.Errorf("the room was not created: %v", err)
	}
}

// TestRoomPageShowsLongWordsWhole: at 60 columns the Codex seat's note
// holds a word wider than the screen (the headless setting, 70-odd
// characters): it goes on over the next line, every character shown,
// where it was cut with "…"; no line is wider than the screen.
func TestRoomPageShowsLongWordsWhole(t *testing.T) {
	f := readyForm(t, 60, 200, "roundtable")
	if f.clients[1] != seatcmd.Codex {
		t.Fatalf("the peer starts with %s, want Codex", f.clients[1].Name())
	}
	view := strings.Split(plain(f.View()), "\n")
	var note strings.Builder
	for _, l := range view {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("a line is wider than 60 columns: %q", l)
		}
		note.WriteString(strings.TrimSpace(l))
	}
	word := seatcmd.Quote("mcp_servers.roundtable-cache-peer.default_tools_approval_mode=\"approve\"")
	if len(word) <= 55 {
		t.Fatalf("the setting %s fits a line: this test shows nothing", word)
	}
	if !strings.Contains(note.String(), word) {
		t.Errorf("the Codex note's setting %s is not shown whole at 60 columns:\n%s", word, strings.Join(view, "\n"))
	}
}
