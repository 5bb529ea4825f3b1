//go:build linux

package host_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// procInotify counts a process's inotify instances (the descriptors in
// /proc/<pid>/fd linking to "anon_inode:inotify") and their kernel watches
// (the "inotify wd:" lines of /proc/<pid>/fdinfo).
func procInotify(t testing.TB, pid int) (instances, watches int) {
	t.Helper()
	fdDir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, err := os.ReadDir(fdDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if l, err := os.Readlink(filepath.Join(fdDir, e.Name())); err != nil || l != "anon_inode:inotify" {
			continue
		}
		instances++
		info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", pid, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.Lines(string(info)) {
			if strings.HasPrefix(l, "inotify wd:") {
				watches++
			}
		}
	}
	return instances, watches
}

// A host serving 200 rooms (more than the 128 inotify instances Linux
// gives a user by default) uses one inotify instance for all of them,
// still watches every room through it, and a seat parked in the 150th
// room wakes on a post there.
func TestHostOf200RoomsUsesOneInotifyInstance(t *testing.T) {
	const rooms = 200
	cwd := t.TempDir()
	toks := make([]map[string]string, rooms)
	for i := range rooms {
		toks[i] = issueTokens(t, cwd, fmt.Sprintf("room-%03d", i), 12)
	}
	h := hosttest.Start(t, "--all", "--cwd", cwd)
	instances, watches := procInotify(t, h.Cmd.Process.Pid)
	if instances > 2 {
		t.Fatalf("a host serving %d rooms holds %d inotify instances, want at most 2", rooms, instances)
	}
	if watches < rooms {
		t.Fatalf("a host serving %d rooms holds %d kernel watches: some rooms are not watched", rooms, watches)
	}

	peer := hosttest.ConnectHTTP(t, h.URL, toks[150][room.GrantPeer], hosttest.ProtoLegacy)
	parked := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	r, err := room.Open(cwd, "room-150")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "test", Text: "Only room 150 hears this."}); err != nil {
		t.Fatal(err)
	}
	if woke := <-parked; !strings.HasPrefix(hosttest.FirstMessageText(woke), "Only room 150") {
		t.Fatalf("the peer of room 150 did not get the post: %s", woke.Text)
	}
	t.Logf("a host serving %d rooms: %d inotify instance(s), %d kernel watches", rooms, instances, watches)
}
