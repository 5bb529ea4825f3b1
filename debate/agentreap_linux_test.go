package debate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// liveMarked lists the live processes carrying ROUNDTABLE_AGENT=mark,
// read from /proc.
func liveMarked(mark string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, live := readProc(pid); !live {
			continue
		}
		env, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
		for _, kv := range bytes.Split(env, []byte{0}) {
			if string(kv) == agentMarkVar+"="+mark {
				out = append(out, pid)
			}
		}
	}
	return out
}

// TestAgentStopKillsWhatLeftItsGroup: an agent starts a child that moves
// to a session of its own (as codex's shell snapshot does), and that child
// starts one with an empty environment. A kill of the agent's group
// reaches neither; stopping the agent must leave none of them, nor
// anything carrying the agent's mark, alive.
func TestAgentStopKillsWhatLeftItsGroup(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(sc *scripted)
	}{
		{"close", func(sc *scripted) { _ = sc.p.Close() }},
		// The agent exits by itself (its stdin closed): what it left
		// behind goes with it.
		{"exit", func(sc *scripted) {
			for _, pid := range sc.p.Pids() {
				_ = syscall.Kill(pid, syscall.SIGTERM)
			}
			_ = sc.p.Close()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScripted(t, acpagent.Script{SessionChildren: 1, Children: 1}, AllowWrite)
			if _, _, err := sc.speak(context.Background(), "A", nil); err != nil {
				t.Fatal(err)
			}
			var session, bare []procEntry
			for deadline := time.Now().Add(10 * time.Second); len(bare) == 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the agent's session child did not start its own child")
				}
				session, bare = kinds(sc.pidDir, "session"), kinds(sc.pidDir, "bare")
			}
			t.Cleanup(func() { // leave nothing behind when the test fails
				for _, p := range append(session, bare...) {
					killExact(p)
				}
			})
			agents, _ := acpagent.Pids(sc.pidDir)
			env, err := os.ReadFile("/proc/" + strconv.Itoa(agents[0]) + "/environ")
			if err != nil {
				t.Fatal(err)
			}
			var mark string
			for _, kv := range strings.Split(string(env), "\x00") {
				if v, ok := strings.CutPrefix(kv, agentMarkVar+"="); ok {
					mark = v
				}
			}
			if mark == "" {
				t.Fatalf("the agent's environment lacks %s", agentMarkVar)
			}
			if m := liveMarked(mark); len(m) != 3 {
				t.Fatalf("marked processes %v, want the agent, its child and its session child", m)
			}
			if len(session) != 1 || session[0].pid == agents[0] || sessionOf(session[0].pid) != session[0].pid {
				t.Fatalf("session child %v is not in a session of its own", session)
			}
			tc.stop(sc)
			for _, p := range append(session, bare...) {
				if q, live := readProc(p.pid); live && q.start == p.start {
					t.Errorf("pid %d is still alive after the stop", p.pid)
				}
			}
			if m := liveMarked(mark); len(m) != 0 {
				t.Errorf("still alive with the agent's mark: %v", m)
			}
		})
	}
}

// kinds reads the processes of one kind the scripted agents wrote to
// dir ("session-<pid>", "bare-<pid>"), with their start times.
func kinds(dir, kind string) []procEntry {
	ents, _ := os.ReadDir(dir)
	var out []procEntry
	for _, e := range ents {
		if num, ok := strings.CutPrefix(e.Name(), kind+"-"); ok {
			pid, _ := strconv.Atoi(num)
			if p, live := readProc(pid); live {
				out = append(out, p)
			}
		}
	}
	return out
}

// sessionOf is pid's session id, from /proc.
func sessionOf(pid int) int {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 4 {
		return 0
	}
	n, _ := strconv.Atoi(f[3])
	return n
}

// TestSweepOrphanAgents: what agents of a roundtable killed by SIGKILL
// left running (in a session of its own, out of reach of Pdeathsig) is
// killed by the next roundtable's first agent start; a process marked by
// a live owner is not touched.
func TestSweepOrphanAgents(t *testing.T) {
	// A dead owner: a process that has exited, with its real start time.
	owner := exec.Command("sleep", "600")
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	ownerPid := owner.Process.Pid
	op, ok := readProc(ownerPid)
	_ = owner.Process.Kill()
	_ = owner.Wait()
	if !ok {
		t.Fatal("the owner's start time cannot be read")
	}
	start := func(mark string) procEntry {
		cmd := exec.Command("sleep", "600")
		cmd.Env = []string{agentMarkVar + "=" + mark}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { _ = cmd.Wait() }()
		p, _ := readProc(cmd.Process.Pid)
		t.Cleanup(func() { killExact(p) })
		return p
	}
	orphan := start(fmt.Sprintf("%d-%d-1-dead", ownerPid, op.start))
	ours := start(fmt.Sprintf("%d-%d-1-live", os.Getpid(), selfStart()))
	sweepOrphanAgents()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if q, live := readProc(orphan.pid); !live || q.start != orphan.start {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the orphan of a dead roundtable is still alive after the sweep")
		}
	}
	if q, live := readProc(ours.pid); !live || q.start != ours.start {
		t.Fatal("the sweep killed a process of a live roundtable")
	}
}
