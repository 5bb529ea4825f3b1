//go:build unix

package seatproc

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script writes an executable shell script standing in for roundtable.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake-roundtable")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// groupAlive reports whether any process is left in group pgid, allowing
// a killed child a moment to be reaped by init.
func groupAlive(pgid int) bool {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) || onlyZombies(pgid) {
			return false
		}
	}
	return true
}

// onlyZombies reports whether every process of group pgid has exited and
// waits to be reaped: a killed seat's orphaned child is reaped by PID 1,
// which on some machines takes a second or two.
func onlyZombies(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	seen := 0
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so split
		// after its closing parenthesis.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(data[i+1:]))
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		if fields[0] != "Z" {
			return false
		}
		seen++
	}
	return seen > 0 // no /proc (macOS): only ESRCH tells
}

func TestArgv(t *testing.T) {
	model := Spec{Program: "/bin/rt", Cwd: "/w", Room: "r1", Seat: "peer", Provider: "openai", Model: "gpt-4o-mini", BaseURL: "http://x/v1"}
	want := "/bin/rt seat --room=r1 --seat=peer --cwd=/w --provider=openai --model=gpt-4o-mini --base-url=http://x/v1"
	if got := strings.Join(model.Argv(), " "); got != want {
		t.Errorf("model seat:\n got %s\nwant %s", got, want)
	}
	agent := Spec{Program: "rt", Room: "r1", Seat: "lead", Agent: "acp:codex", Provider: "mock", Persona: "Rev=reviews"}
	want = "rt seat --room=r1 --seat=lead --persona=Rev=reviews --agent=acp:codex"
	if got := strings.Join(agent.Argv(), " "); got != want {
		t.Errorf("agent seat:\n got %s\nwant %s", got, want)
	}
	if model.Mind() != "model openai/gpt-4o-mini" || agent.Mind() != "acp:codex" {
		t.Errorf("minds: %q %q", model.Mind(), agent.Mind())
	}
}

func TestAgentValue(t *testing.T) {
	if v, err := AgentValue("qwen", ""); err != nil || v != "acp:qwen" {
		t.Errorf("preset: %q %v", v, err)
	}
	if v, err := AgentValue("", " acp:my-agent --acp "); err != nil || v != "acp:my-agent --acp" {
		t.Errorf("command: %q %v", v, err)
	}
	if _, err := AgentValue("", "acp:  "); err == nil {
		t.Error("an empty command was accepted")
	}
	if _, err := AgentValue("", `my-agent "unclosed`); err == nil {
		t.Error("a command with an unclosed quote was accepted")
	}
}

// TestExitWithError: a seat that fails keeps its last stderr line, read
// from its log in the room's folder, with its arguments as given.
func TestExitWithError(t *testing.T) {
	dir := t.TempDir()
	prog := script(t, `echo "args: $*" >&2; echo "roundtable: the peer seat of room r is already played by pid 42" >&2; echo "Try roundtable --help (or roundtable <command> --help)." >&2; echo >&2; exit 2`)
	var g Group
	p, err := g.Start(Spec{Program: prog, Cwd: dir, Room: "r", Seat: "peer", Provider: "mock"}, dir, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	st := p.Wait()
	if !st.Failed() || st.Running || st.LastLine != "the peer seat of room r is already played by pid 42" {
		t.Fatalf("status %+v", st)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "seat-peer.log"))
	if !strings.Contains(string(log), "args: seat --room=r --seat=peer --cwd="+dir+" --provider=mock") {
		t.Errorf("log: %s", log)
	}
	if got, ok := g.Lookup("r", "peer"); !ok || got.PID != p.PID() || !got.Failed() {
		t.Errorf("lookup: %+v %v", got, ok)
	}
	if _, ok := g.Lookup("r", "lead"); ok {
		t.Error("a seat never started was found")
	}
	if stopped := g.StopAll(time.Second); len(stopped) != 0 {
		t.Errorf("stopped an exited seat: %+v", stopped)
	}
}

// TestStopAllKillsTheGroup: a seat that ignores SIGTERM, with a child of
// its own, is killed with its whole group after the grace period, and
// StopAll says it stopped it.
func TestStopAllKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	prog := script(t, `trap '' TERM; sleep 600 & echo ready >&2; wait`)
	var g Group
	p, err := g.Start(Spec{Program: prog, Cwd: dir, Room: "r", Seat: "lead", Agent: "acp:codex"}, dir, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	pgid := p.PID()
	for deadline := time.Now().Add(10 * time.Second); lastLine(filepath.Join(dir, "seat-lead.log")) != "ready"; {
		if time.Now().After(deadline) {
			t.Fatal("the script never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	stopped := g.StopAll(300 * time.Millisecond)
	if len(stopped) != 1 || !stopped[0].Stopped || stopped[0].Failed() || stopped[0].Running {
		t.Fatalf("stopped: %+v", stopped)
	}
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("the group was killed before the grace period: %v", took)
	}
	if groupAlive(pgid) {
		t.Errorf("process group %d still has processes", pgid)
	}
	if _, err := g.Start(Spec{Program: prog, Cwd: dir, Room: "r", Seat: "peer"}, dir, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("start after StopAll: %v", err)
	}
}

// TestStopAllPolite: a seat that exits on SIGTERM is not made to wait.
func TestStopAllPolite(t *testing.T) {
	dir := t.TempDir()
	prog := script(t, `exec sleep 600`)
	var g Group
	p, err := g.Start(Spec{Program: prog, Cwd: dir, Room: "r", Seat: "lead", Provider: "mock"}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if stopped := g.StopAll(10 * time.Second); len(stopped) != 1 || stopped[0].PID != p.PID() {
		t.Fatalf("stopped: %+v", stopped)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("waited %v for a seat that exits on SIGTERM", took)
	}
	if groupAlive(p.PID()) {
		t.Error("the group is still there")
	}
}

// TestLookupPrefersTheRunning: a second process for a seat that failed
// (the seat refused it) does not hide the one still playing.
func TestLookupPrefersTheRunning(t *testing.T) {
	dir := t.TempDir()
	var g Group
	defer g.StopAll(time.Second)
	first, err := g.Start(Spec{Program: script(t, "exec sleep 600"), Cwd: dir, Room: "r", Seat: "peer", Provider: "mock"}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := g.Start(Spec{Program: script(t, "echo 'roundtable: taken' >&2; exit 2"), Cwd: dir, Room: "r", Seat: "peer", Provider: "mock"}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := second.Wait(); !st.Failed() || st.LastLine != "taken" {
		t.Fatalf("second: %+v", st)
	}
	if st, ok := g.Lookup("r", "peer"); !ok || st.PID != first.PID() || !st.Running {
		t.Errorf("lookup: %+v", st)
	}
}

// TestStartMissingProgram names what could not start.
func TestStartMissingProgram(t *testing.T) {
	dir := t.TempDir()
	var g Group
	_, err := g.Start(Spec{Program: filepath.Join(dir, "nope"), Cwd: dir, Room: "r", Seat: "lead", Provider: "mock"}, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "start nope") {
		t.Errorf("err %v", err)
	}
}
