package debateview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// TestLiveDebate runs a whole debate on the mock provider and checks the
// screen and the room it saved.
func TestLiveDebate(t *testing.T) {
	h := newHarness(t)
	cwd := t.TempDir()
	h.start(New(h.options(), mockLaunch(cwd, 2)), 160, 48)
	h.until("the debate to end", 20*time.Second, settled)

	if h.m.phase != phaseDone {
		t.Fatalf("phase %d, status %q", h.m.phase, h.m.status)
	}
	v := plain(h.m.View())
	for _, want := range []string{"Moderator's verdict", "Decision:", "✓ verdict in", "Saved in room graphql-test"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	r, err := room.Open(cwd, "graphql-test")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 2*3+1 || st.Closed == nil || st.Closed.Reason != debate.ReasonComplete {
		t.Fatalf("room: %d messages, closed %+v", len(st.Messages), st.Closed)
	}
	// Every turn on screen is the one saved.
	for _, msg := range st.Messages[:6] {
		c := h.m.cols[h.m.byName[msg.Seat]]
		if got := c.turns[msg.Round-1].text; got != msg.Text {
			t.Errorf("%s round %d on screen differs from the room", msg.Seat, msg.Round)
		}
	}

	// e exports the transcript, and the status line says where.
	h.send(press("e"))
	h.until("the export", 5*time.Second, func(m Model) bool { return strings.Contains(m.status, "Exported") })
	path := filepath.Join(h.m.opts.ExportDir, "graphql-test-transcript.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("export: %v (status %q)", err, h.m.status)
	}
	if !strings.Contains(string(data), "## Verdict") || !strings.Contains(h.m.status, path) {
		t.Errorf("export lacks the verdict or the status lacks the path %q", h.m.status)
	}
	h.send(press("e"))
	h.until("the second export", 5*time.Second, func(m Model) bool { return strings.Contains(m.status, "-2.md") })

	// y puts the transcript on the clipboard.
	h.send(press("y"))
	h.until("the copy", 5*time.Second, func(m Model) bool { return strings.Contains(m.status, "Copied") })

	// r runs it again, in a new room.
	h.send(press("r"))
	if !h.m.Running() || h.m.run != 1 {
		t.Fatalf("r did not start again: phase %d run %d", h.m.phase, h.m.run)
	}
	h.until("the second debate to end", 20*time.Second, settled)
	if h.m.room == nil || h.m.room.Config().Room == "graphql-test" {
		t.Errorf("the second run did not get a room of its own")
	}
}

// TestStopAndQuit stops a paced debate with esc, then starts it again and
// quits with q (and y): both times what was said is saved and the room closed as
// cancelled.
func TestStopAndQuit(t *testing.T) {
	h := newHarness(t)
	cwd := t.TempDir()
	l := mockLaunch(cwd, 3)
	l.Provider.Pace = 2 * time.Millisecond
	h.start(New(h.options(), l), 120, 40)
	speaking := func(m Model) bool { return m.live > 5 }
	h.until("the first tokens", 10*time.Second, speaking)
	h.send(press("esc"))
	h.send(press("y"))
	h.until("the stop", 10*time.Second, func(m Model) bool { return !m.Running() && m.events == nil })
	if h.m.phase != phaseStopped {
		t.Fatalf("phase %d status %q", h.m.phase, h.m.status)
	}
	if !strings.Contains(plain(h.m.View()), "cut off") {
		t.Errorf("the interrupted turn is not marked:\n%s", plain(h.m.View()))
	}
	checkCancelled(t, cwd, "graphql-test")

	h.send(press("r"))
	h.until("the second run's tokens", 10*time.Second, speaking)
	second := h.m.room.Config().Room
	h.send(press("q"))
	h.send(press("y"))
	h.until("quit", 10*time.Second, func(Model) bool { return h.quit })
	checkCancelled(t, cwd, second)
}

func checkCancelled(t *testing.T, cwd, name string) {
	t.Helper()
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != debate.ReasonCancelled {
		t.Fatalf("room %s: closed %+v", name, st.Closed)
	}
	if len(st.Messages) == 0 || st.Messages[len(st.Messages)-1].Kind != debate.KindIncomplete {
		t.Errorf("room %s: the cut turn was not saved as incomplete", name)
	}
}

// TestTrackerSavesOnExit ends a running debate from outside the screen,
// as the program does on a signal.
func TestTrackerSavesOnExit(t *testing.T) {
	h := newHarness(t)
	cwd := t.TempDir()
	l := mockLaunch(cwd, 3)
	l.Provider.Pace = 2 * time.Millisecond
	h.start(New(h.options(), l), 120, 40)
	h.until("the first tokens", 10*time.Second, func(m Model) bool { return m.live > 3 })
	h.tr.Close()
	checkCancelled(t, cwd, "graphql-test")
}

// savedDebate runs a one-round mock debate to its end and returns its
// folder, its room and the room's state.
func savedDebate(t *testing.T) (string, *room.Room, room.State) {
	t.Helper()
	h := newHarness(t)
	cwd := t.TempDir()
	h.start(New(h.options(), mockLaunch(cwd, 1)), 120, 40)
	h.until("the debate to end", 20*time.Second, settled)
	r, err := room.Open(cwd, "graphql-test")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	return cwd, r, st
}

// TestReplay shows a saved debate read-only.
func TestReplay(t *testing.T) {
	_, r, st := savedDebate(t)
	h2 := newHarness(t)
	h2.start(NewReplay(h2.options(), r, st, nil), 120, 40)
	h2.until("the renders", 10*time.Second, settled)
	v := plain(h2.m.View())
	for _, want := range []string{"replay · complete", "Moderator's verdict", "Decision:", "Product Manager", "Round 1 of 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("replay lacks %q:\n%s", want, v)
		}
	}
	if h2.m.keys.Again.Enabled() || h2.m.keys.Stop.Enabled() {
		t.Error("a replay offers r or esc")
	}
	h2.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h2.until("the narrow renders", 10*time.Second, settled)
	if !strings.Contains(plain(h2.m.View()), "Verdict") {
		t.Errorf("narrow replay has no verdict tab:\n%s", plain(h2.m.View()))
	}
}

// TestReplayRunsAgain: a saved debate records its panel, so its replay
// offers r, which runs the same debate again in a new room.
func TestReplayRunsAgain(t *testing.T) {
	cwd, r, st := savedDebate(t)
	cfg, ok := debate.ConfigFromRoom(r.Config())
	if !ok || cfg.Topic != "Should we adopt GraphQL for the public API" || len(cfg.Personas) != 3 || cfg.Personas[2].Persona == "" {
		t.Fatalf("ConfigFromRoom = %+v, %v", cfg, ok)
	}
	rerun := &Launch{Config: cfg, Provider: debate.ProviderConfig{Name: debate.ProviderMock, Model: debate.ProviderMock}, Cwd: cwd}
	h2 := newHarness(t)
	h2.start(NewReplay(h2.options(), r, st, rerun), 120, 40)
	h2.until("the renders", 10*time.Second, settled)
	if !h2.m.keys.Again.Enabled() {
		t.Fatal("a replay of a recorded panel does not offer r")
	}
	h2.send(tea.KeyPressMsg{Code: 'r', Text: "r"})
	h2.until("the second run to end", 20*time.Second, func(m Model) bool { return settled(m) && m.room != nil && m.room.Config().Room != "graphql-test" })
	if v := plain(h2.m.View()); !strings.Contains(v, "Decision:") {
		t.Errorf("the second run has no verdict:\n%s", v)
	}
	rooms, _ := filepath.Glob(filepath.Join(cwd, ".roundtable", "*", "room.json"))
	if len(rooms) != 2 {
		t.Fatalf("%d rooms after running again, want 2: %v", len(rooms), rooms)
	}
}
