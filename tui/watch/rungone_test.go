package watch

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestWatchSeesTheDebatesProcessGo: a watch on a debate room reads the
// room's run lock; once the process holding it has gone with the room
// still open, the header and the status say so, and what to run; when a
// process runs the debate again, the warning goes.
func TestWatchSeesTheDebatesProcessGo(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "deb", room.Config{Room: "deb", Topic: "T", Mode: room.ModeDebate, Rounds: 2, Agents: []string{"a", "b"}, CreatedAt: at(0)}, []fileMsg{
		{1, at(0), "a", "mock", "turn", "first words", 0},
	}, nil)
	r, err := room.Open(cwd, "deb")
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	m := openModel(t, cwd, "deb", 120, 30)
	// While the run lock is held, the watch reads nothing amiss.
	if strings.Contains(flat(m), "process ended") {
		t.Fatalf("a running debate is shown as gone:\n%s", plain(m))
	}
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	msg := nextRun(t, m)
	if !msg.run.gone {
		t.Fatalf("after the run lock was freed: %#v, want the run gone", msg.run)
	}
	m, _ = m.Update(msg)
	if f := flat(m); !strings.Contains(f, "its process ended: not running") || !strings.Contains(f, "roundtable debate --resume deb") {
		t.Fatalf("the watch does not say the debate's process ended:\n%s", plain(m))
	}
	lock, err = r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lock.Unlock() }()
	msg = nextRun(t, m)
	if msg.run.gone {
		t.Fatalf("after a process took the run lock again: %#v, want the run back", msg.run)
	}
	m, _ = m.Update(msg)
	if strings.Contains(flat(m), "process ended: not running") {
		t.Fatalf("the warning stays while a process runs the debate:\n%s", plain(m))
	}
}

// nextRun reads the room's feed until it says who runs the debate.
func nextRun(t *testing.T, m Model) feedMsg {
	t.Helper()
	for range 10 {
		msg, ok := feedCmd(m.id, m.sess, m.room)().(feedMsg)
		if !ok {
			t.Fatal("the feed ended")
		}
		if msg.run != nil {
			return msg
		}
	}
	t.Fatal("ten changes of the room and none says who runs its debate")
	return feedMsg{}
}
