package debate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// procEntry is one process as /proc shows it.
type procEntry struct {
	pid, ppid int
	start     uint64 // start time since boot, in clock ticks: with pid, who it is
}

// readProc reads pid's parent and start time from /proc/<pid>/stat; ok is
// false when it is gone or a zombie.
func readProc(pid int) (procEntry, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procEntry{}, false
	}
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice threads
	// itrealvalue starttime ...; comm may hold spaces and parentheses.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procEntry{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return procEntry{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil {
		return procEntry{}, false
	}
	return procEntry{pid: pid, ppid: ppid, start: start}, true
}

// agentProcs lists the live processes that carry the agent's mark in
// their environment, and their descendants (which may have cleared it),
// whatever process group or session they moved to.
func agentProcs(mark string) []procEntry {
	return markedProcs(func(v string) bool { return v == mark })
}

// markedProcs lists the live processes whose agentMarkVar value is
// matched by match, and their descendants.
func markedProcs(match func(mark string) bool) []procEntry {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	key := []byte(agentMarkVar + "=")
	all := map[int]procEntry{}
	kids := map[int][]int{}
	var marked []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readProc(pid)
		if !ok {
			continue
		}
		all[pid] = p
		kids[p.ppid] = append(kids[p.ppid], pid)
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if v, ok := bytes.CutPrefix(kv, key); ok && match(string(v)) {
				marked = append(marked, pid)
				break
			}
		}
	}
	seen := map[int]bool{}
	var out []procEntry
	for len(marked) > 0 {
		pid := marked[len(marked)-1]
		marked = marked[:len(marked)-1]
		if seen[pid] || pid == os.Getpid() {
			continue
		}
		seen[pid] = true
		out = append(out, all[pid])
		marked = append(marked, kids[pid]...)
	}
	return out
}

// selfStart is this process's start time, part of every mark it gives,
// so a later roundtable can tell the owner of a mark is gone.
func selfStart() uint64 {
	p, _ := readProc(os.Getpid())
	return p.start
}

// sweepOrphanAgents kills what agents of a roundtable that was killed
// (SIGKILL leaves it no chance to stop them) left running: processes in
// this pid namespace whose mark names an owner that is no longer alive.
// Pdeathsig took the agents themselves; this takes what left their group.
func sweepOrphanAgents() {
	self, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return
	}
	dead := func(mark string) bool {
		var pid int
		var start uint64
		if _, err := fmt.Sscanf(mark, "%d-%d-", &pid, &start); err != nil || start == 0 {
			return false
		}
		p, alive := readProc(pid)
		if !alive {
			// A zombie owner is dead too; a missing one, gone.
			return true
		}
		return p.start != start
	}
	for _, p := range markedProcs(dead) {
		// Another namespace's pids are not ours to judge.
		if ns, err := os.Readlink("/proc/" + strconv.Itoa(p.pid) + "/ns/pid"); err == nil && ns == self {
			killExact(p)
		}
	}
}

// killMarked kills every process that carries the agent's mark, or
// descends from one, and waits (up to reapWait) until none is left: the
// agent's own group kill does not reach what moved to a group or session
// of its own (codex's shell snapshot does).
func killMarked(mark string) {
	if mark == "" {
		return
	}
	for deadline := time.Now().Add(reapWait); ; {
		ps := agentProcs(mark)
		if len(ps) == 0 || time.Now().After(deadline) {
			return
		}
		for _, p := range ps {
			killExact(p)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// reapWait bounds killMarked: with the grace period (a second by
// default) a stop leaves nothing running within two seconds.
const reapWait = 900 * time.Millisecond

// killExact sends SIGKILL to p, and only to p: through a pidfd, taken
// and then checked against p's start time, so a pid reused since the scan
// is never hit.
func killExact(p procEntry) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if err != nil {
		if !errors.Is(err, syscall.ENOSYS) {
			return // gone already
		}
		// A kernel before 5.3: check, then kill by pid.
		if q, ok := readProc(p.pid); ok && q.start == p.start {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		return
	}
	defer unix.Close(fd)
	if q, ok := readProc(p.pid); ok && q.start == p.start {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	}
}
