package debateview

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// testLink is a RemoteLink a test sets the status of.
type testLink struct {
	label string
	mu    sync.Mutex
	text  string
	ok    bool
	wake  chan struct{}
}

func newTestLink(label string) *testLink {
	return &testLink{label: label, wake: make(chan struct{}, 1)}
}

func (l *testLink) Label() string         { return l.label }
func (l *testLink) Wake() <-chan struct{} { return l.wake }

func (l *testLink) Status() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text, l.ok
}

func (l *testLink) set(text string, ok bool) {
	l.mu.Lock()
	l.text, l.ok = text, ok
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// TestRemoteFeed: the screen on the mirror of a debate a host serves
// (OpenRemote) follows it as a local one, but reads no run lock (a mirror
// has none: it is not "its process ended"), says the debate runs on the
// host, offers nothing that writes (r, R, i), shows the link's trouble
// and recovery in its status line, streams a persona's draft and ends on
// the close as the local screen does.
func TestRemoteFeed(t *testing.T) {
	cwd := t.TempDir()
	l := mockLaunch(cwd, 1)
	r, err := debate.CreateRoom(cwd, "far", l.Config)
	if err != nil {
		t.Fatal(err)
	}
	link := newTestLink("host.example:8765")
	h := newHarness(t)
	f, err := OpenRemote(h.ctx, r, link)
	if err != nil {
		t.Fatal(err)
	}
	h.start(NewFromRoom(h.options(), f, nil), 160, 40)
	defer h.m.Close()
	v := plain(h.m.View())
	if !strings.Contains(v, "waiting · on host.example:8765") || strings.Contains(v, "its process ended") {
		t.Fatalf("the header does not say the debate runs on the host:\n%s", v)
	}
	if !strings.Contains(v, "Watching room far on host.example:8765, read-only") {
		t.Errorf("the status does not say the screen watches the host, read-only:\n%s", v)
	}
	k := h.m.keys
	if k.Again.Enabled() || k.Retry.Enabled() || k.Interject.Enabled() || k.GoOn.Enabled() {
		t.Errorf("a remote debate offers a key that writes: r %v, R %v, i %v, enter %v",
			k.Again.Enabled(), k.Retry.Enabled(), k.Interject.Enabled(), k.GoOn.Enabled())
	}
	h.m.showHelp = true
	help := plain(h.m.View())
	h.m.showHelp = false
	for _, unwanted := range []string{"run again", "retry", "resume", "interject"} {
		if strings.Contains(help, unwanted) {
			t.Errorf("the help of a remote debate offers %q:\n%s", unwanted, help)
		}
	}

	link.set("connection to host.example:8765 lost (connection refused); retrying in 2s", false)
	h.until("the link's trouble in the status line", 10*time.Second, func(m Model) bool {
		return m.statusErr && strings.Contains(plain(m.View()), "connection to host.example:8765 lost")
	})
	link.set("reconnected to host.example:8765", true)
	h.until("the link back in the status line", 10*time.Second, func(m Model) bool {
		return !m.statusErr && strings.Contains(plain(m.View()), "reconnected to host.example:8765")
	})

	seat := l.Config.Names()[0]
	if err := r.WriteDraft(room.Draft{Seat: seat, StartedAt: time.Now(), Text: "Schemas drift apart"}); err != nil {
		t.Fatal(err)
	}
	h.until("the draft streaming in its column", 10*time.Second, func(m Model) bool {
		v := plain(m.View())
		return strings.Contains(v, "Schemas drift apart") && strings.Contains(v, seat+" is speaking · on host.example:8765")
	})
	if _, err := r.Close(room.CloseOptions{Reason: debate.ReasonComplete}); err != nil {
		t.Fatal(err)
	}
	h.until("the close", 10*time.Second, func(m Model) bool {
		return strings.Contains(plain(m.View()), "replay · complete")
	})
}
