package watch

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// remoteModel is the note room's screen as a remote watch shows it.
func remoteModel(t *testing.T) (Model, *RemoteLink) {
	t.Helper()
	cwd, name := noteRoom(t)
	link := NewRemoteLink("far.example:8765")
	m, err := New(Options{Cwd: cwd, Room: name, ExportDir: t.TempDir(), Dark: true, Now: func() time.Time { return fixedAt }, Location: time.UTC, Remote: link})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, name, phaseOpening)())
	return m, link
}

// TestRemoteScreenReadOnly checks the remote screen: its header names the
// host, the keys that write are off and out of the help, and pressing one
// says why and writes nothing.
func TestRemoteScreenReadOnly(t *testing.T) {
	m, _ := remoteModel(t)
	if got := flat(m); !strings.Contains(got, "remote: far.example:8765") {
		t.Errorf("the header does not name the host:\n%s", got)
	}
	for name, b := range map[string]bool{
		"i": m.keys.Note.Enabled(), "t": m.keys.Take.Enabled(),
		"S": m.keys.WriteSpec.Enabled(), "C": m.keys.CloseRoom.Enabled(),
	} {
		if b {
			t.Errorf("%s is enabled on a remote screen", name)
		}
	}
	m, _ = press(m, "?")
	help := flat(m)
	for _, word := range []string{"note to seats", "take a seat", "write the spec", "close the room"} {
		if strings.Contains(help, word) {
			t.Errorf("the help offers %q on a remote screen", word)
		}
	}
	m, _ = press(m, "?")
	for _, k := range []string{"i", "t", "S", "C"} {
		var cmd tea.Cmd
		m, cmd = press(m, k)
		if cmd != nil {
			t.Errorf("%s gave a command on a remote screen", k)
		}
		if !strings.Contains(flat(m), "read-only: an observer cannot") {
			t.Errorf("%s did not say the room is read-only:\n%s", k, flat(m))
		}
	}
	if _, err := os.Stat(room.NotesDir(m.room.Dir())); err == nil {
		t.Error("a note folder appeared")
	}
	if _, err := os.Stat(filepath.Join(m.room.Dir(), room.LogFile)); err == nil {
		t.Error("server.log was written: a seat was taken")
	}
}

// TestLocalScreenNotReadOnly checks that a local screen keeps i and t.
func TestLocalScreenNotReadOnly(t *testing.T) {
	cwd, name := noteRoom(t)
	m := openModel(t, cwd, name, 120, 30)
	if !m.keys.Note.Enabled() || !m.keys.Take.Enabled() {
		t.Errorf("a local screen lost its keys: note %v, take %v", m.keys.Note.Enabled(), m.keys.Take.Enabled())
	}
	if strings.Contains(flat(m), "remote:") {
		t.Error("a local screen says remote")
	}
}

// TestRemoteStatus checks that the link's state reaches the status line,
// the latest winning.
func TestRemoteStatus(t *testing.T) {
	m, link := remoteModel(t)
	link.Set("connection to far.example:8765 lost (refused); retrying in 2s", false)
	link.Set("connection to far.example:8765 lost (refused); retrying in 4s", false)
	msg := remoteStatusCmd(m.id, m.sess, link)()
	m, cmd := m.Update(msg)
	if got := flat(m); !strings.Contains(got, "retrying in 4s") {
		t.Errorf("the status does not show the latest state:\n%s", got)
	}
	if cmd == nil {
		t.Fatal("the screen stopped listening to the link")
	}
	// The next status is waited for; the screen's end stops the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan tea.Msg, 1)
	go func() { got <- remoteStatusCmd(m.id, m.sess, link)() }()
	select {
	case <-got:
		t.Fatal("a status arrived with none set")
	case <-time.After(50 * time.Millisecond):
	}
	link.Set("reconnected to far.example:8765", true)
	select {
	case msg := <-got:
		m, _ = m.Update(msg)
		if !strings.Contains(flat(m), "reconnected to far.example:8765") {
			t.Errorf("reconnected not shown:\n%s", flat(m))
		}
	case <-ctx.Done():
		t.Fatal("the status never arrived")
	}
}

func TestObserveURL(t *testing.T) {
	for _, tt := range []struct{ in, endpoint, label string }{
		{"https://far.example:8765", "https://far.example:8765/mcp", "far.example:8765"},
		{"http://127.0.0.1:9/", "http://127.0.0.1:9/mcp", "127.0.0.1:9"},
		{"https://far.example/rt/mcp", "https://far.example/rt/mcp", "far.example:443"},
		{" http://[::1]:8765 ", "http://[::1]:8765/mcp", "[::1]:8765"},
	} {
		endpoint, label, err := observeURL(tt.in)
		if err != nil || endpoint != tt.endpoint || label != tt.label {
			t.Errorf("observeURL(%q) = %q, %q, %v; want %q, %q", tt.in, endpoint, label, err, tt.endpoint, tt.label)
		}
	}
	for _, in := range []string{"", "far.example:8765", "ftp://x", "http://", "::"} {
		if _, _, err := observeURL(in); err == nil {
			t.Errorf("observeURL(%q) accepted", in)
		}
	}
}

// observedRoom is a room of one message served by a test host.
func observedRoom(t *testing.T) (*room.Room, *TestHost) {
	t.Helper()
	r, _, err := room.Create(t.TempDir(), "far", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "lead", Agent: "a", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	return r, StartTestHost(t, r, "rt_tok")
}

// TestObserverReplies checks how the observer reads what a host answers:
// a snapshot, a reply without a cursor (kept), a refusal (isError, said),
// a 401, and a reply over the size bound (refused).
func TestObserverReplies(t *testing.T) {
	_, host := observedRoom(t)
	endpoint, _, err := observeURL(host.URL())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	o := newObserver(endpoint, "rt_tok")
	defer o.close()
	s, hasNext, err := o.observe(ctx, room.Cursor{}, 0)
	if err != nil || !hasNext || s.Room != "far" || len(s.Messages) != 1 || s.Next.Seq != 1 {
		t.Fatalf("first call: %+v, %v, %v", s, hasNext, err)
	}

	host.SetReply(func() *mcp.CallToolResult { return mcp.NewToolResultText(`{"idle": true}`) })
	if s, hasNext, err := o.observe(ctx, room.Cursor{Seq: 1}, 0); err != nil || hasNext || !s.Empty() {
		t.Errorf("idle reply: %+v, %v, %v; want no cursor", s, hasNext, err)
	}
	host.SetReply(func() *mcp.CallToolResult {
		return mcp.NewToolResultError("this token is not an observer's: observe_room is for observer tokens.")
	})
	if _, _, err := o.observe(ctx, room.Cursor{}, 0); err == nil || describeLinkError(err) != "the host refused to show the room: this token is not an observer's: observe_room is for observer tokens" {
		t.Errorf("refusal: %v", err)
	}
	host.SetReply(func() *mcp.CallToolResult { return mcp.NewToolResultText("not json") })
	if _, _, err := o.observe(ctx, room.Cursor{}, 0); err == nil || !strings.Contains(err.Error(), "not a snapshot") {
		t.Errorf("not JSON: %v", err)
	}
	old := maxReplyBytes
	maxReplyBytes = 64 << 10
	t.Cleanup(func() { maxReplyBytes = old })
	host.SetReply(func() *mcp.CallToolResult { return mcp.NewToolResultText(strings.Repeat("x", 100<<10)) })
	if _, _, err := o.observe(ctx, room.Cursor{}, 0); err == nil {
		t.Error("a reply over the bound was read")
	}
	maxReplyBytes = old
	host.SetReply(nil)

	host.SetToken("rt_rotated")
	if _, _, err := o.observe(ctx, room.Cursor{}, 0); !unauthorized(err) || describeLinkError(err) != ErrUnauthorized.Error() {
		t.Errorf("rotated token: %v", err)
	}
}

// TestFollowRemote runs the observer's loop against a host: what the
// source room gets, the mirror gets; the host going away and coming back
// is said in the link's status.
func TestFollowRemote(t *testing.T) {
	oldMin := backoffMin
	backoffMin = 20 * time.Millisecond
	t.Cleanup(func() { backoffMin = oldMin })
	src, host := observedRoom(t)
	endpoint, label, err := observeURL(host.URL())
	if err != nil {
		t.Fatal(err)
	}
	o := newObserver(endpoint, "rt_tok")
	defer o.close()
	ctx, cancel := context.WithCancel(context.Background())
	first, _, err := o.observe(ctx, room.Cursor{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	mirror := t.TempDir()
	if err := room.ApplySnapshot(mirror, first); err != nil {
		t.Fatal(err)
	}
	link := NewRemoteLink(label)
	done := make(chan struct{})
	go func() { defer close(done); followRemote(ctx, o, mirror, first, link) }()
	defer func() { cancel(); <-done }()

	seqs := func() int {
		r, err := room.Open(mirror, "far")
		if err != nil {
			return 0
		}
		st, _ := r.Refresh()
		return st.LastSeq()
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if ok() {
				return
			}
		}
		t.Fatalf("%s never happened", what)
	}
	status := func(want string) func() bool {
		return func() bool {
			link.mu.Lock()
			defer link.mu.Unlock()
			return strings.Contains(link.status, want)
		}
	}
	if _, _, err := src.PostMessage(room.Post{Seat: "peer", Agent: "b", Text: "two"}); err != nil {
		t.Fatal(err)
	}
	waitFor("message 2 in the mirror", func() bool { return seqs() == 2 })
	addr := host.Addr()
	host.Stop()
	waitFor("the lost connection said", status("connection to "+addr+" lost"))
	host.Listen(addr)
	waitFor("the reconnection said", status("reconnected to "+addr))
	if _, _, err := src.PostMessage(room.Post{Seat: "lead", Agent: "a", Text: "three"}); err != nil {
		t.Fatal(err)
	}
	waitFor("message 3 in the mirror", func() bool { return seqs() == 3 })
}

// TestObserverUntrustedCert checks that a host whose certificate this
// machine does not trust is said so, with what to do.
func TestObserverUntrustedCert(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.StartTLS()
	defer srv.Close()
	o := newObserver(srv.URL+"/mcp", "rt_tok")
	defer o.close()
	_, _, err := o.observe(context.Background(), room.Cursor{}, 0)
	if !isCertError(err) || !strings.Contains(describeLinkError(err), "not trusted here") || !strings.Contains(describeLinkError(err), "SSL_CERT_FILE") {
		t.Errorf("untrusted certificate: %v → %q", err, describeLinkError(err))
	}
}

// TestRemoteWithASeatToken: a host that refuses observe_room because the
// token is a seat's makes RunRemote say so, naming the observer token,
// instead of blaming the URL.
func TestRemoteWithASeatToken(t *testing.T) {
	_, host := observedRoom(t)
	host.SetReply(func() *mcp.CallToolResult {
		return mcp.NewToolResultError(room.ObserveSeatRefusal + "; a seat reads the room with read_room and wait_for_message.")
	})
	err := RunRemote(context.Background(), RemoteOptions{URL: host.URL(), Token: "rt_tok"})
	if err == nil || !strings.Contains(err.Error(), "the token is a seat's (lead or peer), not the observer's") || strings.Contains(err.Error(), "check the URL") {
		t.Fatalf("a seat's token: %v", err)
	}
	host.SetReply(func() *mcp.CallToolResult { return mcp.NewToolResultError("the room was deleted.") })
	if err := RunRemote(context.Background(), RemoteOptions{URL: host.URL(), Token: "rt_tok"}); err == nil || strings.Contains(err.Error(), "check the URL") {
		t.Fatalf("a refusal blamed the URL: %v", err)
	}
}
