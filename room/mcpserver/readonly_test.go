package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// makeReadOnly makes a folder refuse new files, also for root: chattr +i
// as root (permission bits do not stop root), chmod 0555 otherwise. The
// returned function undoes it.
func makeReadOnly(t *testing.T, dir string) func() {
	t.Helper()
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Fatalf("chattr +i %s: %v %s (e2fsprogs provides chattr; the folder must be on ext4/xfs)", dir, err, out)
		}
		undo := func() { _ = exec.Command("chattr", "-i", dir).Run() }
		t.Cleanup(undo)
		return undo
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	undo := func() { _ = os.Chmod(dir, 0o755) }
	t.Cleanup(undo)
	return undo
}

// TestReadOnlyRoomWhileSeatRuns: the room's messages folder stops taking
// files while two seats talk. The post is refused with a sentence the
// agent can pass on, nothing crashes, reading still works, and posting
// resumes once the folder is writable again.
func TestReadOnlyRoomWhileSeatRuns(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "ro", "lead", "--budget", "5")
	peer := hosttest.StartSeat(t, cwd, "ro", "peer")
	lead.OK("post", map[string]any{"text": "brief"})
	undo := makeReadOnly(t, filepath.Join(cwd, ".roundtable", "ro", "messages"))
	peer.Refused("post", map[string]any{"text": "answer"}, "could not be read or written")
	if st := peer.OK("room_status", nil); st["message_count"] != float64(1) || st["your_turn"] != true {
		t.Fatalf("status on a read-only room: %v", st)
	}
	if msgs := hosttest.MessagesOf(t, peer.OK("read_room", nil)); len(msgs) != 1 {
		t.Fatalf("read_room on a read-only room: %v", msgs)
	}
	undo()
	if out := peer.OK("post", map[string]any{"text": "answer"}); out["posted"] != float64(2) {
		t.Fatalf("post after the folder is writable again: %v", out)
	}
}

// TestCorruptFilesAreLoggedOnce: unreadable message files are skipped by
// the seat server, which keeps answering and names each file once in
// server.log.
func TestCorruptFilesAreLoggedOnce(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "junk", "lead")
	lead.OK("post", map[string]any{"text": "brief"})
	msgs := filepath.Join(cwd, ".roundtable", "junk", "messages")
	if err := os.WriteFile(filepath.Join(msgs, "0002-1-badbad.json"), []byte(`{"seq": 2, "seat":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(msgs, "0003-1-linked.json")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if st := lead.OK("room_status", nil); st["message_count"] != float64(1) {
			t.Fatalf("status with corrupt files: %v", st)
		}
	}
	data, err := os.ReadFile(filepath.Join(cwd, ".roundtable", "junk", "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"0002-1-badbad.json", "0003-1-linked.json"} {
		if n := strings.Count(string(data), "skip seat=lead file="+f); n != 1 {
			t.Errorf("%s logged %d times in server.log:\n%s", f, n, data)
		}
	}
}
