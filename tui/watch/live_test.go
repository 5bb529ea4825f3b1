package watch

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// recorder runs the screen as a program and keeps the last frame, so a
// test can wait for what the screen shows.
type recorder struct {
	tea.Model
	mu   *sync.Mutex
	last *string
}

func newRecorder(m Model) recorder {
	return recorder{Model: Program(m), mu: &sync.Mutex{}, last: new(string)}
}

func (r recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := r.Model.Update(msg)
	r.Model = next
	return r, cmd
}

func (r recorder) View() tea.View {
	v := r.Model.View()
	r.mu.Lock()
	*r.last = v.Content
	r.mu.Unlock()
	return v
}

func (r recorder) frame() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return stripANSI(*r.last)
}

// waitFrame waits until the frame satisfies ok.
func (r recorder) waitFrame(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if ok(r.frame()) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %s; last frame:\n%s", what, r.frame())
}

func (r recorder) waitText(t *testing.T, text string) {
	t.Helper()
	r.waitFrame(t, fmt.Sprintf("%q", text), func(f string) bool { return strings.Contains(f, text) })
}

// TestLiveRoom runs the screen on an empty folder while another goroutine
// creates the room, posts through the store and closes it: the screen
// waits, attaches, shows each message as it lands (following the newest)
// and ends with the closed banner.
func TestLiveRoom(t *testing.T) {
	cwd := t.TempDir()
	m, err := New(Options{Cwd: cwd, Room: "live", ExportDir: t.TempDir(), Dark: true, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(100, 30))
	rec.waitText(t, "waiting for the first seat")

	r, _, err := room.Create(cwd, "live", room.CreateOptions{Topic: "Live topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "Live topic")
	if err := r.Log("connect", room.F("seat", "peer"), room.F("agent", "codex"), room.F("pid", 7)); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "connected but never started")

	posts := []room.Post{
		{Seat: "lead", Agent: "opus-5", Text: "alpha-message from the lead"},
		{Seat: "peer", Agent: "codex", Kind: "objection", Text: "bravo-message from the peer"},
		{Seat: "lead", Agent: "opus-5", Kind: "decision", Text: "charlie-message, the decision"},
	}
	done := make(chan error, 1)
	step := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range posts {
			if _, _, err := r.PostMessage(p); err != nil {
				done <- err
				return
			}
			<-step
		}
		if _, err := r.WriteSpec("# Spec\n\nthe-spec-body"); err != nil {
			done <- err
			return
		}
		if _, err := r.Close(room.CloseOptions{Reason: "agreement reached", RequireSpec: true}); err != nil {
			done <- err
		}
	}()
	for i, p := range posts {
		rec.waitText(t, p.Text)
		rec.waitFrame(t, "the newest message followed", func(f string) bool {
			return strings.Contains(f, "following · ") && strings.Contains(f, fmt.Sprintf(" of %d ", i+1))
		})
		step <- struct{}{}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "CLOSED · agreement reached · spec SPEC-live.md")
	rec.waitText(t, "the room closed at ")

	tm.Type("s")
	rec.waitText(t, "the-spec-body")
	tm.Type("q") // back to the messages
	rec.waitFrame(t, "the messages again", func(f string) bool { return strings.Contains(f, "f unfollow") || strings.Contains(f, "f follow") })
	tm.Type("q") // and out
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(recorder).Model.(program).m
	if n := len(final.st.Messages); n != 3 || final.st.Closed == nil {
		t.Errorf("final state: %d messages, closed %v", n, final.st.Closed)
	}
}
