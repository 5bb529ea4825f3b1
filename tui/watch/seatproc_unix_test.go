//go:build unix

package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
)

// TestSeatProcessShown: the watch screen names a seat the app started
// before it connects, and, when its process exits with an error, shows the
// last line it wrote to stderr.
func TestSeatProcessShown(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "procs", room.CreateOptions{Topic: "Procs topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(t.TempDir(), "fake-seat")
	gate := filepath.Join(t.TempDir(), "gate")
	script := "#!/bin/sh\nwhile [ ! -e " + gate + " ]; do sleep 0.02; done\necho 'starting' >&2\necho 'OPENAI_API_KEY is not set; export it or choose another provider' >&2\nexit 2\n"
	if err := os.WriteFile(prog, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	g := &seatproc.Group{}
	defer g.StopAll(time.Second)
	p, err := g.Start(seatproc.Spec{Program: prog, Cwd: cwd, Room: "procs", Seat: "peer", Provider: "openai"}, r.Dir(), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "procs", ExportDir: t.TempDir(), Dark: true, Location: time.UTC, Seats: g})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(110, 30))
	rec.waitText(t, "peer  roundtable · model openai")
	rec.waitText(t, "starting (pid ")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tm.Send(seatproc.ExitedMsg{Status: p.Wait()})
	rec.waitFrame(t, "the seat's last stderr line", func(f string) bool {
		return strings.Contains(strings.Join(strings.Fields(f), " "),
			"its roundtable seat exited: OPENAI_API_KEY is not set; export it or choose another provider (log: .roundtable/procs/seat-peer.log)")
	})
	rec.waitText(t, "the peer seat roundtable played exited: OPENAI_API_KEY is not set")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
