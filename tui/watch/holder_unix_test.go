//go:build unix

package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
)

// TestKilledSeatHolderShownGone: a roundtable seat parked in the room is
// killed (SIGKILL: no disconnect line, server.log unchanged); the screen
// shows the seat disconnected, from its lock, not parked for ever.
func TestKilledSeatHolderShownGone(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "killed", room.CreateOptions{Topic: "Killed topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The holder: a real process, whose pid its seat lock and its
	// connect line name, as roundtable seat writes them.
	holder := exec.Command("sleep", "60")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill() }()
	pid := holder.Process.Pid
	if err := os.MkdirAll(room.SeatsDir(r.Dir()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(room.SeatsDir(r.Dir()), "peer.lock"), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.Log(room.EventConnect, room.F("seat", "peer"), room.F("agent", "roundtable:mock"), room.F("pid", pid), room.F("waits", room.WaitsLogged)); err != nil {
		t.Fatal(err)
	}
	if err := r.Log(room.EventCall, room.F("seat", "peer"), room.F("tool", room.WaitTool)); err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "killed", ExportDir: t.TempDir(), Dark: true, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(110, 30))
	rec.waitText(t, "parked")
	_ = holder.Process.Kill()
	_ = holder.Wait()
	rec.waitFrame(t, "the killed seat disconnected", func(f string) bool {
		return strings.Contains(f, "disconnected") && !strings.Contains(f, "parked")
	})
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestSeatFailureClearsWhenTaken: the seat process the app started fails
// (its last line shown, in the seat's row and the status line); once a
// person takes the seat, neither line says so any more.
func TestSeatFailureClearsWhenTaken(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "taken", room.CreateOptions{Topic: "Taken topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(t.TempDir(), "fake-seat")
	script := "#!/bin/sh\necho 'codex-acp is not on PATH; install it' >&2\nexit 1\n"
	if err := os.WriteFile(prog, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	g := &seatproc.Group{}
	defer g.StopAll(time.Second)
	p, err := g.Start(seatproc.Spec{Program: prog, Cwd: cwd, Room: "taken", Seat: "peer", Provider: "openai"}, r.Dir(), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "taken", ExportDir: t.TempDir(), Dark: true, Location: time.UTC, Seats: g})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(130, 30))
	tm.Send(seatproc.ExitedMsg{Status: p.Wait()})
	rec.waitText(t, "its roundtable seat exited: codex-acp is not on PATH")
	rec.waitText(t, "the peer seat roundtable played exited")

	person, err := r.TakeSeatAsPerson("peer")
	if err != nil {
		t.Fatal(err)
	}
	defer person.Release()
	rec.waitFrame(t, "the failure gone once a person holds the seat", func(f string) bool {
		return strings.Contains(f, "at the keyboard") && !strings.Contains(f, "exited")
	})
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
