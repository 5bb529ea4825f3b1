package room

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNotifierWakesOnPostsAndCloseOnly(t *testing.T) {
	r := newRoom(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	if !n.Inotify() {
		t.Fatal("inotify unavailable: the notifier only rescans")
	}

	// Noise that must not wake readers: server.log lines and temp files.
	ch := n.Changed()
	if err := r.Log("call", F("seat", "lead"), F("tool", "room_status")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.MessagesDir(), ".tmp-x"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
		t.Fatal("woken by server.log or a temp file")
	case <-time.After(150 * time.Millisecond):
	}

	// A post from another Room value (as another process would) wakes it.
	other, err := Open(r.Cwd(), r.Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	ch = n.Changed()
	mustPost(t, other, SeatLead, "hello")
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("post did not wake the notifier")
	}
	st, err := r.State()
	if err != nil || len(st.Messages) != 1 {
		t.Fatalf("after wake: %d messages, %v", len(st.Messages), err)
	}

	ch = n.Changed()
	if _, err := other.Close(CloseOptions{Reason: "done"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("close did not wake the notifier")
	}
	if st, _ := r.State(); st.Closed == nil {
		t.Fatal("closed.json not seen")
	}
}

func TestStateWithNotifierSeesEveryPost(t *testing.T) {
	r := newRoom(t, 1000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	other, err := Open(r.Cwd(), r.Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	seats := []string{SeatLead, SeatPeer}
	for i := range 50 {
		ch := n.Changed()
		mustPost(t, other, seats[i%2], "m")
		<-ch
		st, err := r.State()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Messages) != i+1 {
			t.Fatalf("after post %d State shows %d messages", i+1, len(st.Messages))
		}
	}
}

func TestNotifierFollowsARecreatedMessagesFolder(t *testing.T) {
	r := newRoom(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	ch := n.Changed()
	if err := os.RemoveAll(r.MessagesDir()); err != nil {
		t.Fatal(err)
	}
	<-ch
	ch = n.Changed()
	if err := os.Mkdir(r.MessagesDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	<-ch
	time.Sleep(50 * time.Millisecond) // let the notifier add its watch
	other, err := Open(r.Cwd(), r.Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	ch = n.Changed()
	mustPost(t, other, SeatLead, "after")
	select {
	case <-ch:
	case <-time.After(RescanInterval / 2):
		t.Fatal("a post in the recreated folder was not seen through inotify")
	}
}

func TestWatchAppearAndRooms(t *testing.T) {
	cwd := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	appear := WatchAppear(ctx, cwd, "later")
	defer appear.Close()
	rooms := WatchRooms(ctx, cwd)
	defer rooms.Close()
	a, l := appear.Changed(), rooms.Changed()
	r, _, err := Create(cwd, "later", CreateOptions{Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]<-chan struct{}{"WatchAppear": a, "WatchRooms": l} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s did not fire when the room appeared", name)
		}
	}
	// A post in a room that appeared after the watch started still counts,
	// and server.log lines do not.
	time.Sleep(50 * time.Millisecond)
	l = rooms.Changed()
	_ = r.Log("call", F("seat", "lead"))
	select {
	case <-l:
		t.Fatal("WatchRooms fired on server.log")
	case <-time.After(100 * time.Millisecond):
	}
	mustPost(t, r, SeatLead, "x")
	select {
	case <-l:
	case <-time.After(RescanInterval / 2):
		t.Fatal("WatchRooms missed a post in a new room")
	}
}
