//go:build unix

package mcpserver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

var (
	crashOnce sync.Once
	crashBin  string
)

// crashBinary builds roundtable with the crashtest tag: ROUNDTABLE_CRASH_AT
// then kills the process with SIGKILL at a named point of a post.
func crashBinary(t *testing.T) string {
	t.Helper()
	crashOnce.Do(func() {
		crashBin = filepath.Join(filepath.Dir(hosttest.Binary()), "roundtable-crash")
		out, err := exec.Command("go", "build", "-tags", "crashtest", "-o", crashBin, "github.com/roundtable-dev/roundtable/cmd/roundtable").CombinedOutput()
		if err != nil {
			t.Fatalf("build crashtest binary: %v\n%s", err, out)
		}
	})
	return crashBin
}

// TestKill9WhilePosting kills seat processes with SIGKILL at random points
// (inside the lock, between the temp write and the rename, after the rename
// before the reply, and while parked in wait_for_message) while two seats
// post 200 times, and checks: every acknowledged post is on disk, no file is
// torn, the lock dies with its holder, and temp files left behind are
// ignored by readers and cleaned by the next writer.
func TestKill9WhilePosting(t *testing.T) {
	bin := crashBinary(t)
	cwd := t.TempDir()
	const name = "kill"
	r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "kill -9", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 9))
	points := []string{"in-lock", "after-temp", "after-rename"}
	live := map[string]*hosttest.Seat{}
	get := func(who string, crashAt string) *hosttest.Seat {
		if crashAt != "" {
			if s := live[who]; s != nil {
				s.Client.Close()
				delete(live, who)
			}
			return hosttest.StartSeatWith(t, bin, []string{"ROUNDTABLE_CRASH_AT=" + crashAt + ":1"}, cwd, name, who)
		}
		if live[who] == nil {
			live[who] = hosttest.StartSeatWith(t, bin, nil, cwd, name, who)
		}
		return live[who]
	}
	type ack struct {
		seq  int
		text string
	}
	var acks []ack
	tried, died, parkedKills := 0, map[string]int{}, 0
	for tried < 200 {
		st, err := r.Refresh()
		if err != nil {
			t.Fatal(err)
		}
		who := st.Turn
		// Now and then, kill the other seat while it is parked.
		if rng.IntN(8) == 0 {
			other := "peer"
			if who == "peer" {
				other = "lead"
			}
			s := get(other, "")
			go func() {
				req := mcp.CallToolRequest{}
				req.Params.Name = "wait_for_message"
				_, _ = s.Client.CallTool(context.Background(), req) // ends when the process is killed
			}()
			time.Sleep(30 * time.Millisecond)
			if pid := seatPID(t, r.Dir(), other); pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				parkedKills++
			}
			s.Client.Close()
			delete(live, other)
		}
		crashAt := ""
		if rng.IntN(4) == 0 {
			crashAt = points[rng.IntN(len(points))]
		}
		s := get(who, crashAt)
		tried++
		text := fmt.Sprintf("post %d by %s", tried, who)
		out, refusal, refused, err := s.Try("post", map[string]any{"text": text})
		switch {
		case err != nil:
			if crashAt == "" {
				t.Fatalf("post %d failed without a planned crash: %v", tried, err)
			}
			died[crashAt]++
			s.Client.Close()
		case refused:
			t.Fatalf("post %d refused: %s", tried, refusal)
		default:
			if crashAt != "" {
				t.Fatalf("post %d acknowledged although the process was to die at %s", tried, crashAt)
			}
			acks = append(acks, ack{int(out["posted"].(float64)), text})
		}
	}

	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) != 0 {
		t.Fatalf("torn or unreadable message files: %+v", st.Skipped)
	}
	bySeq := map[int]room.Message{}
	for i, m := range st.Messages {
		if _, dup := bySeq[m.Seq]; dup {
			t.Fatalf("duplicate seq %d", m.Seq)
		}
		bySeq[m.Seq] = m
		if i > 0 && st.Messages[i-1].Seat == m.Seat {
			t.Fatalf("two consecutive messages from %s at seq %d", m.Seat, m.Seq)
		}
	}
	for _, a := range acks {
		if bySeq[a.seq].Text != a.text {
			t.Fatalf("acknowledged post %d (%q) not on disk: %q", a.seq, a.text, bySeq[a.seq].Text)
		}
	}
	// Temp files left by deaths between write and rename are not messages;
	// once stale, the next writer removes them.
	temps, _ := filepath.Glob(filepath.Join(r.MessagesDir(), ".tmp-*"))
	if died["after-temp"] > 0 && len(temps) == 0 {
		t.Fatal("no temp file left by a death between write and rename")
	}
	old := time.Now().Add(-time.Hour)
	for _, p := range temps {
		_ = os.Chtimes(p, old, old)
	}
	final, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: final.Turn, Agent: "test", Text: "after the storm"}); err != nil {
		t.Fatalf("post after the kills: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(r.MessagesDir(), ".tmp-*")); len(left) != 0 {
		t.Fatalf("stale temp files not cleaned: %v", left)
	}
	t.Logf("posts tried %d, acknowledged %d, on disk %d (acknowledged all on disk); killed: in-lock %d, after-temp %d, after-rename %d, parked %d; temp files left %d, cleaned",
		tried, len(acks), len(st.Messages), died["in-lock"], died["after-temp"], died["after-rename"], parkedKills, len(temps))
}

// seatPID reads the pid of a seat's newest connection from server.log.
func seatPID(t *testing.T, dir, who string) int {
	t.Helper()
	seats, err := room.ReadSeats(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Seat == who && !strings.Contains(s.State, "disconnected") {
			return s.PID
		}
	}
	return 0
}
