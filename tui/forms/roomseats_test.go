//go:build unix

package forms

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
)

// fakeSeat writes a script standing in for `roundtable seat`: it logs its
// arguments to stderr, then runs body.
func fakeSeat(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake-roundtable")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho \"args: $*\" >&2\n"+body), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// driveSeats presses keys like drive, and also hands the form its
// started seats; it returns the commands that wait for the processes,
// without running them (they block until a process exits).
func driveSeats(t *testing.T, f RoomForm, keys ...string) (RoomForm, []tea.Msg, []tea.Cmd) {
	t.Helper()
	var msgs []tea.Msg
	var waits []tea.Cmd
	for _, k := range keys {
		var cmd tea.Cmd
		f, cmd = f.Update(press(k))
		for cmd != nil {
			msg := cmd()
			msgs = append(msgs, msg)
			cmd = nil
			switch m := msg.(type) {
			case seededMsg:
				f, cmd = f.Update(m)
			case seatsStartedMsg:
				var w tea.Cmd
				f, w = f.Update(m)
				waits = append(waits, w)
			}
		}
	}
	return f, msgs, waits
}

func newSeatsForm(t *testing.T, program string, env map[string]string) (RoomForm, *seatproc.Group, string) {
	t.Helper()
	g := &seatproc.Group{}
	t.Cleanup(func() { g.StopAll(time.Second) })
	cwd := fixedDir(t) // the page wraps around its path
	f := NewRoomForm(RoomOptions{
		Cwd: cwd, Dark: true, Program: "roundtable", Seats: g, SeatProgram: program,
		Getenv: func(k string) string { return env[k] },
	})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 120, Height: 60})
	return f, g, cwd
}

// waitLog waits for the seat's log to hold text.
func waitLog(t *testing.T, path, text string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if data, _ := os.ReadFile(path); strings.Contains(string(data), text) {
			return string(data)
		}
	}
	data, _ := os.ReadFile(path)
	t.Fatalf("%s never held %q: %s", path, text, data)
	return ""
}

// TestRoomFormPlayedSeats: the lead is an ACP agent and the peer a model;
// creating the room starts both `roundtable seat` processes with the
// contract's flags, the page says roundtable plays them, and stopping the
// group stops them.
func TestRoomFormPlayedSeats(t *testing.T) {
	f, g, cwd := newSeatsForm(t, fakeSeat(t, "exec sleep 600"), map[string]string{"ROUNDTABLE_PROVIDER": "mock"})
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Write-through?")...)
	// To the lead's seat: budget, seats, spec, then the lead's mind.
	keys = append(keys, "tab", "tab", "tab", "tab", "right", "right")
	f, _, _ = driveSeats(t, f, keys...)
	if f.focus != roomLeadMind || f.seatChoices[0].mind != mindAgent {
		t.Fatalf("focus %d, lead's mind %d", f.focus, f.seatChoices[0].mind)
	}
	view := plain(f.View())
	if !strings.Contains(view, "◂ an agent roundtable drives (ACP) ▸") || !strings.Contains(view, "◂ acp:claude ▸") {
		t.Fatalf("the lead's ACP choice is not shown:\n%s", view)
	}
	// The agent preset, its persona and tools (write), then the peer's
	// mind: a model, with a persona of its own.
	keys = append([]string{"tab", "right", "tab"}, typeText(nil, "Security Reviewer=assumes every surface is attacked")...)
	keys = append(keys, "tab", "right", "tab", "right", "tab", "tab", "tab")
	keys = append(keys, typeText(nil, "Cost Optimizer=watches the spend")...)
	f, _, _ = driveSeats(t, f, keys...)
	if f.focus != roomPeerPersona || f.seatChoices[1].mind != mindModel || f.seatChoices[0].preset != 1 || f.seatChoices[0].tools != debate.AllowWrite {
		t.Fatalf("focus %d, peer's mind %d, lead's %+v", f.focus, f.seatChoices[1].mind, f.seatChoices[0])
	}
	if view := plain(f.View()); !strings.Contains(view, "provider  ◂ mock ▸") || !strings.Contains(view, "◂ acp:codex ▸") {
		t.Fatalf("the peer's model is not shown:\n%s", view)
	}
	f, _, waits := driveSeats(t, f, "ctrl+s")
	if !f.Ready() || len(waits) != 1 || waits[0] == nil {
		t.Fatalf("ready %v, err %q, waits %d", f.Ready(), f.err, len(waits))
	}
	dir := filepath.Join(cwd, ".roundtable", "cache")
	lead := waitLog(t, filepath.Join(dir, "seat-lead.log"), "args: ")
	peer := waitLog(t, filepath.Join(dir, "seat-peer.log"), "args: ")
	if want := "args: seat --room=cache --seat=lead --cwd=" + cwd + " --persona=Security Reviewer=assumes every surface is attacked --agent=acp:codex --allow-agent-tools=write\n"; !strings.Contains(lead, want) {
		t.Errorf("lead's command: %s, want %s", lead, want)
	}
	if want := "args: seat --room=cache --seat=peer --cwd=" + cwd + " --persona=Cost Optimizer=watches the spend --provider=mock\n"; !strings.Contains(peer, want) {
		t.Errorf("peer's command: %s, want %s", peer, want)
	}
	page := strings.Join(strings.Fields(plain(f.View())), " ")
	for _, want := range []string{"Lead seat (roundtable · acp:codex)", "Peer seat (roundtable · model mock)", "roundtable plays it (pid ", "roundtable plays both seats"} {
		if !strings.Contains(page, want) {
			t.Errorf("%q missing from the page:\n%s", want, page)
		}
	}
	if strings.Contains(page, "mcp add") {
		t.Errorf("a seat roundtable plays got an MCP command:\n%s", page)
	}
	_, msgs, _ := driveSeats(t, f, "2")
	if text, ok := clipboard(msgs[0]); !ok || !strings.HasPrefix(text, "roundtable seat --room=cache --seat=peer --cwd=") {
		t.Errorf("2 copied %q", text)
	}
	stopped := g.StopAll(time.Second)
	if len(stopped) != 2 {
		t.Fatalf("stopped %+v", stopped)
	}
}

// TestRoomFormSeatFails: the peer's process exits with an error; the
// page and the status say so with its last stderr line.
func TestRoomFormSeatFails(t *testing.T) {
	f, _, _ := newSeatsForm(t, fakeSeat(t, "echo 'the peer seat of room cache is already played by pid 4242 (roundtable seat); stop it first' >&2; exit 2"), nil)
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Write-through?")...)
	keys = append(keys, "shift+tab", "shift+tab", "shift+tab", "shift+tab") // topic, name, create, peer's label, peer's mind
	f, _, _ = driveSeats(t, f, keys...)
	if f.focus != roomPeerMind {
		t.Fatalf("focus %d", f.focus)
	}
	f, _, waits := driveSeats(t, f, "right", "ctrl+s")
	if !f.Ready() || len(waits) != 1 {
		t.Fatalf("ready %v err %q", f.Ready(), f.err)
	}
	msg := waits[0]()
	exit, ok := msg.(seatproc.ExitedMsg)
	if !ok || !exit.Status.Failed() {
		t.Fatalf("wait returned %#v", msg)
	}
	f, _ = f.Update(exit)
	want := "the peer seat of room cache is already played by pid 4242 (roundtable seat); stop it first"
	if !strings.Contains(f.status, want) {
		t.Errorf("status %q", f.status)
	}
	if page := strings.Join(strings.Fields(plain(f.View())), " "); !strings.Contains(page, "It exited: "+want) || !strings.Contains(page, "claude mcp add roundtable-cache-lead") {
		t.Errorf("the page does not say it exited:\n%s", page)
	}
}

// TestRoomFormSeatChecks: a model without its key and an ACP command left
// empty are one sentence each in the form, and no room is created.
func TestRoomFormSeatChecks(t *testing.T) {
	f, g, cwd := newSeatsForm(t, fakeSeat(t, "exit 0"), map[string]string{"ROUNDTABLE_PROVIDER": "openai"})
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Write-through?")...)
	keys = append(keys, "shift+tab", "shift+tab", "shift+tab", "shift+tab", "right", "ctrl+s")
	f, _, _ = driveSeats(t, f, keys...)
	if f.Ready() || !strings.Contains(f.err, "The peer seat's model:") || !strings.Contains(f.err, "OPENAI_API_KEY") || f.focus != roomPeerProvider {
		t.Fatalf("no key: ready %v err %q focus %d", f.Ready(), f.err, f.focus)
	}
	// The lead: an ACP agent of one's own, with no command.
	f.focusField(roomLeadMind)
	f, _, _ = driveSeats(t, f, "left", "left", "tab", "left", "ctrl+s")
	if f.seatChoices[0].mind != mindAgent || f.seatChoices[0].preset != len(seatproc.Presets) {
		t.Fatalf("lead %+v", f.seatChoices[0])
	}
	if f.Ready() || !strings.Contains(f.err, "The lead seat's agent: write the agent's command") || f.focus != roomLeadCommand {
		t.Fatalf("no command: err %q focus %d", f.err, f.focus)
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable", "cache")); err == nil {
		t.Error("a form that refused still created the room")
	}
	if _, ok := g.Lookup("cache", "peer"); ok {
		t.Error("a seat was started")
	}
}

// TestRoomFormSeatsView pins the form with the lead played by a model and
// the peer by an ACP agent of one's own, at 80×24 (the fields scroll to
// the focused one) and 120×40, and the page once both seats started.
func TestRoomFormSeatsView(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			f, g, cwd := newSeatsForm(t, fakeSeat(t, "exec sleep 600"), map[string]string{"ROUNDTABLE_PROVIDER": "openai", "OPENAI_API_KEY": "k", "ROUNDTABLE_MODEL": "gpt-4o-mini"})
			f, _ = f.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			keys := append(typeText(nil, "cache"), "tab")
			keys = append(keys, typeText(nil, "Should the cache be write-through?")...)
			// The lead: a model; the peer: an agent, a command of one's own.
			// Each with a persona; the peer may write and run commands.
			keys = append(keys, "tab", "tab", "tab", "tab", "right", "tab", "tab", "tab")
			keys = append(keys, typeText(nil, "Cost Optimizer=watches the spend")...)
			keys = append(keys, "tab", "right", "right", "tab", "left", "left", "tab")
			keys = append(keys, typeText(nil, "my-agent --acp")...)
			keys = append(keys, "tab")
			keys = append(keys, typeText(nil, "Security Reviewer=assumes every surface is attacked")...)
			keys = append(keys, "tab", "left")
			f, _, _ = driveSeats(t, f, keys...)
			golden(t, fmt.Sprintf("form-%dx%d", sz.w, sz.h), plain(f.View()))
			f, _, _ = driveSeats(t, f, "ctrl+s")
			if !f.Ready() {
				t.Fatalf("not ready: %q", f.err)
			}
			// Pids change from run to run, and their width moves where
			// lines wrap: draw the page with fixed ones.
			f.starts[0].status.PID, f.starts[1].status.PID = 4242, 4243
			f.status = regexp.MustCompile(`pid \d+`).ReplaceAllString(f.status, "pid 4242")
			f.layoutPage()
			view := plain(f.View())
			golden(t, fmt.Sprintf("page-%dx%d", sz.w, sz.h), normalize(view, cwd))
			g.StopAll(time.Second)
		})
	}
}

// TestRoomFormPersonSeat: the peer is "you, at the keyboard": nothing is
// started for it and it gets no MCP command; its section gives the
// command that takes it from another terminal (2 copies it), and enter
// asks the app to open the room with the seat taken.
func TestRoomFormPersonSeat(t *testing.T) {
	f, _, _ := newSeatsForm(t, fakeSeat(t, "exec sleep 600"), map[string]string{"ROUNDTABLE_PROVIDER": "mock"})
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Write-through?")...)
	// Budget, seats, spec, the lead's mind and label, then the peer's mind.
	keys = append(keys, "tab", "tab", "tab", "tab", "tab", "tab", "left")
	f, _, _ = driveSeats(t, f, keys...)
	if f.seatChoices[1].mind != mindPerson || !strings.Contains(plain(f.View()), "◂ you, at the keyboard ▸") {
		t.Fatalf("the peer's mind is %d:\n%s", f.seatChoices[1].mind, plain(f.View()))
	}
	f, _, waits := driveSeats(t, f, "ctrl+s")
	if !f.Ready() || len(waits) != 0 {
		t.Fatalf("ready %v, err %q, %d seat processes started", f.Ready(), f.err, len(waits))
	}
	page := strings.Join(strings.Fields(plain(f.View())), " ")
	for _, want := range []string{"Peer seat (you, at the keyboard)", "enter opens the room with it taken", "--take=peer", "claude mcp add roundtable-cache-lead"} {
		if !strings.Contains(page, want) {
			t.Errorf("%q missing from the page:\n%s", want, page)
		}
	}
	if strings.Contains(page, "mcp add roundtable-cache-peer") {
		t.Errorf("the seat you play got an MCP command:\n%s", page)
	}
	_, msgs, _ := driveSeats(t, f, "2")
	if text, ok := clipboard(msgs[0]); !ok || !strings.HasPrefix(text, "roundtable watch --room=cache --cwd=") || !strings.HasSuffix(text, "--take=peer") {
		t.Errorf("2 copied %q", text)
	}
	_, msgs, _ = driveSeats(t, f, "enter")
	if len(msgs) != 1 || msgs[0] != (WatchMsg{Room: "cache", Take: "peer"}) {
		t.Errorf("enter sent %#v, want the room to watch with the peer seat taken", msgs)
	}
}
