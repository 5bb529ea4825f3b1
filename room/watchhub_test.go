package room

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// hubRooms is how many rooms the hub tests watch at once: more than the
// 128 inotify instances Linux allows a user by default.
const hubRooms = 200

// inotifyFDs lists this process's inotify instances: the descriptors of
// /proc/self/fd that link to "anon_inode:inotify".
func inotifyFDs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == "anon_inode:inotify" {
			out = append(out, e.Name())
		}
	}
	return out
}

// inotifyWatches counts the kernel watches of this process's inotify
// instances: the "inotify wd:" lines of their /proc/self/fdinfo.
func inotifyWatches(t *testing.T) int {
	t.Helper()
	n := 0
	for _, fd := range inotifyFDs(t) {
		b, err := os.ReadFile(filepath.Join("/proc/self/fdinfo", fd))
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.Lines(string(b)) {
			if strings.HasPrefix(l, "inotify wd:") {
				n++
			}
		}
	}
	return n
}

// watchedRooms creates n rooms in one folder, as a host serves them, and
// watches each.
func watchedRooms(t *testing.T, ctx context.Context, n int) ([]*Room, []*Notifier) {
	t.Helper()
	cwd := t.TempDir()
	rooms := make([]*Room, n)
	notifiers := make([]*Notifier, n)
	for i := range n {
		r, _, err := Create(cwd, "r"+strconv.Itoa(i), CreateOptions{Topic: "t", Budget: 10})
		if err != nil {
			t.Fatal(err)
		}
		rooms[i] = r
		notifiers[i] = Watch(ctx, r)
		t.Cleanup(notifiers[i].Close)
		if !notifiers[i].Inotify() {
			t.Fatalf("room %d: inotify unavailable, only rescans", i)
		}
	}
	return rooms, notifiers
}

// sentinel watches a folder of its own and returns a function that writes
// a file there and waits for its event: once it has come, every event the
// kernel queued before it has been handed out (the hub reads one queue, in
// order).
func sentinel(t *testing.T, ctx context.Context) (*DirWatch, func()) {
	t.Helper()
	dir := t.TempDir()
	mark := filepath.Join(dir, "mark")
	d := WatchDirs(ctx, fixed(dir), func(p string) bool { return p == mark }, func() string { return StatSig(mark) })
	t.Cleanup(d.Close)
	n := 0
	return d, func() {
		t.Helper()
		ch := d.Changed()
		n++
		if err := os.WriteFile(mark, []byte(strconv.Itoa(n)), 0o644); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("the sentinel's own write never woke it")
		}
	}
}

func TestHubOneInotifyInstanceForManyRooms(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := len(inotifyFDs(t))
	rooms, notifiers := watchedRooms(t, ctx, hubRooms)
	if n := len(inotifyFDs(t)); n > 2 || n-before > 1 {
		t.Fatalf("%d rooms watched: %d inotify instances (%d before), want at most 2", hubRooms, n, before)
	}

	// A post in room 150 wakes room 150 and no other.
	_, barrier := sentinel(t, ctx)
	chans := make([]<-chan struct{}, hubRooms)
	for i, n := range notifiers {
		chans[i] = n.Changed()
	}
	other, err := Open(rooms[150].Cwd(), rooms[150].Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	mustPost(t, other, SeatLead, "to 150 only")
	select {
	case <-chans[150]:
	case <-time.After(10 * time.Second):
		t.Fatal("the post in room 150 did not wake it")
	}
	barrier()
	for i, ch := range chans {
		select {
		case <-ch:
			if i != 150 {
				t.Fatalf("the post in room 150 woke room %d", i)
			}
		default:
		}
	}
	st, err := rooms[150].State()
	if err != nil || len(st.Messages) != 1 || st.Messages[0].Text != "to 150 only" {
		t.Fatalf("room 150 after the wake: %+v, %v", st.Messages, err)
	}
}

func TestHubClosingARoomRemovesItsWatches(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sentinel(t, ctx) // keeps the instance open throughout
	base := inotifyWatches(t)
	_, notifiers := watchedRooms(t, ctx, hubRooms)
	opened := inotifyWatches(t)
	if opened-base < hubRooms {
		t.Fatalf("%d rooms watched add %d kernel watches, want at least one each", hubRooms, opened-base)
	}
	for _, n := range notifiers {
		n.Close()
	}
	if left := inotifyWatches(t); left != base {
		t.Fatalf("after closing every room %d kernel watches remain, want %d (%d with the rooms open)", left, base, opened)
	}
}

// Two watchers of one room share its kernel watches: closing one leaves
// the other awake to posts.
func TestHubSharedFolderOutlivesOneWatcher(t *testing.T) {
	r := newRoom(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := Watch(ctx, r)
	defer a.Close()
	other, err := Open(r.Cwd(), r.Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	b := Watch(ctx, other)
	b.Close()
	ch := a.Changed()
	mustPost(t, other, SeatLead, "still seen")
	select {
	case <-ch:
	case <-time.After(RescanInterval / 2):
		t.Fatal("closing one watcher of the room left the other deaf to posts")
	}
}

// An overflow of the kernel's queue makes every room look again: each
// wakes, and its journal is lost, so its next read lists the folders.
func TestHubOverflowRescansEveryRoom(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const rooms = 20
	_, notifiers := watchedRooms(t, ctx, rooms)
	noise := t.TempDir()
	d := WatchDirs(ctx, fixed(noise), func(string) bool { return false }, func() string { return "" })
	defer d.Close()
	chans := make([]<-chan struct{}, rooms)
	for i, n := range notifiers {
		n.takeJournal() // found, so a later loss shows
		chans[i] = n.Changed()
	}

	// Stall the hub's goroutine and queue more events than the kernel
	// keeps: it then reports an overflow. Two files changed in turn give
	// an event each time (the kernel merges only an event equal to the
	// last one queued).
	limit := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		if v, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			limit = v
		}
	}
	files := [2]string{filepath.Join(noise, "a"), filepath.Join(noise, "b")}
	for _, f := range files {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The hub's reader may hold a buffer of events it read before
	// stalling (64 KiB: 2,048 of these), so that many more are queued.
	hubMu.Lock()
	for i := range limit + 4096 {
		if err := os.Chmod(files[i%2], fs.FileMode(0o600|i%2*0o44)); err != nil {
			hubMu.Unlock()
			t.Fatal(err)
		}
	}
	hubMu.Unlock()

	for i, ch := range chans {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("room %d did not wake after an overflow", i)
		}
		if _, _, complete := notifiers[i].takeJournal(); complete {
			t.Fatalf("room %d kept its journal through an overflow", i)
		}
	}
}

// Without inotify a room is still followed, by rescanning.
func TestHubFallbackWithoutInotify(t *testing.T) {
	saved := newWatcher
	newWatcher = func() (*fsnotify.Watcher, error) { return nil, errors.New("too many open files") }
	defer func() { newWatcher = saved }()
	// The hub lives while a watch does: the watches of the tests before
	// end with their goroutines, perhaps just after them.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		hubMu.Lock()
		running := theHub != nil
		hubMu.Unlock()
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a watch of the tests before is still open after 10 s")
		}
	}
	r := newRoom(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	if n.Inotify() {
		t.Fatal("the notifier claims inotify its hub could not start")
	}
	other, err := Open(r.Cwd(), r.Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	ch := n.Changed()
	mustPost(t, other, SeatLead, "by rescan")
	select {
	case <-ch:
	case <-time.After(10 * rescanNoInotify):
		t.Fatal("a post was not seen by rescanning")
	}
	if st, err := r.State(); err != nil || len(st.Messages) != 1 {
		t.Fatalf("after the rescan: %+v, %v", st, err)
	}
}

// A room renamed while the home screen's list watches it, then opened
// under its new name in the same process, is followed through inotify:
// the list's watches on the old names, whose folders moved, do not stand
// in for the new ones.
func TestHubRenamedRoomFollowedAnew(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := Create(cwd, "before", CreateOptions{Topic: "t", Budget: 10}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	list := WatchRooms(ctx, cwd)
	defer list.Close()
	_, barrier := sentinel(t, ctx)
	ch := list.Changed()
	if err := Rename(cwd, "before", "after"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("the rename did not wake the list")
	}
	barrier() // every event of the rename handed out

	r, err := Open(cwd, "after")
	if err != nil {
		t.Fatal(err)
	}
	n := Watch(ctx, r)
	defer n.Close()
	other, err := Open(cwd, "after")
	if err != nil {
		t.Fatal(err)
	}
	for i, seat := range []string{SeatLead, SeatPeer} {
		ch := n.Changed()
		mustPost(t, other, seat, "after the rename")
		select {
		case <-ch:
		case <-time.After(RescanInterval / 2):
			t.Fatalf("post %d in the renamed room was not seen through inotify", i+1)
		}
	}
	ch = n.Changed()
	if _, err := other.Close(CloseOptions{Reason: "done"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(RescanInterval / 2):
		t.Fatal("the renamed room's close was not seen through inotify")
	}
}
