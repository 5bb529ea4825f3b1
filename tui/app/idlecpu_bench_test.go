//go:build linux

package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

// idleWindow is how long each screen is left alone while its CPU is read.
const idleWindow = 60 * time.Second

// BenchmarkIdleCPU runs the real binary in tmux (120×40) on screens where
// nothing changes and reports the CPU the process uses while left alone
// for 30 s, in percent of one core: user + system time from
// /proc/PID/stat (clock ticks, 10 ms), and the same from the threads'
// schedstat (nanoseconds), read before and after the window.
//
//   - home: the room list, one closed room in it;
//   - debate: a finished debate (verdict shown);
//   - watch-closed: `roundtable watch` on a closed room;
//   - watch-open: `roundtable watch` on an open room left alone for 10
//     minutes (its times show minutes: the clock moves once a minute).
//
// Beside each screen, at the same time and over the same window, the
// floor runs the same way: a bare Bubble Tea v2 program (testdata/bareidle,
// built here) drawing one still line at the screen's frame rate (FPS,
// watch.FPS). Since Bubble Tea v2.2.0 its renderer parks while nothing
// changes, so the floor is near zero, and the targets are absolute (issue
// 33): a still screen ≤ 0.05 % of a core over the 60 s window
// (sched-cpu-%), an open room's watch ≤ 0.3 %. bare-cpu-% is the floor
// and x-bare the screen's ratio to it (from schedstat, the finer of the
// two clocks); -clock gives the floor a clock moving each second, a
// screen that repaints once a second, for comparison by hand.
//
// With ROUNDTABLE_IDLE_BASELINE set to another roundtable binary (an
// earlier build), each screen runs on it too, at the same time, and its
// figure is reported as baseline-cpu-%.
func BenchmarkIdleCPU(b *testing.B) {
	bin := tmuxtest.Build(b, "./cmd/roundtable")
	bare := tmuxtest.Build(b, "./tui/app/testdata/bareidle")
	baseline := os.Getenv("ROUNDTABLE_IDLE_BASELINE")
	cwd := b.TempDir()
	quietRooms(b, cwd)
	env := []string{"XDG_CONFIG_HOME=" + b.TempDir(), "ROUNDTABLE_PROVIDER=mock", "ROUNDTABLE_CWD="}
	screens := []struct {
		name, want string
		fps        int
		argv       []string
		clock      bool // its clock moves each second: the floor's does too
	}{
		{"home", "done", FPS, []string{bin, "tui", "--cwd", cwd}, false},
		{"debate", "verdict in", FPS, []string{bin, "tui", "--topic", "Adopt GraphQL for the public API", "--rounds", "1", "--fast"}, false},
		{"watch-closed", "lasted", watch.FPS, []string{bin, "watch", "--room", "done", "--cwd", cwd}, false},
		{"watch-open", "since the first message", watch.FPS, []string{bin, "watch", "--room", "live", "--cwd", cwd}, false},
	}
	for _, sc := range screens {
		b.Run(sc.name, func(b *testing.B) {
			var cpu []idleCPU
			for b.Loop() {
				runs := []*idleRun{
					startIdle(b, sc.argv, sc.want, sc.name, env),
					startIdle(b, []string{bare, "-fps", strconv.Itoa(sc.fps), "-clock=" + strconv.FormatBool(sc.clock)}, "bare", "bare", env),
				}
				if baseline != "" {
					argv := append([]string{baseline}, sc.argv[1:]...)
					runs = append(runs, startIdle(b, argv, sc.want, sc.name, env))
				}
				cpu = measureIdle(b, runs)
			}
			b.ReportMetric(cpu[0].stat, "cpu-%")
			b.ReportMetric(cpu[0].sched, "sched-cpu-%")
			b.ReportMetric(cpu[1].sched, "bare-cpu-%")
			b.ReportMetric(cpu[0].sched/max(cpu[1].sched, 1e-9), "x-bare")
			b.ReportMetric(float64(sc.fps), "fps")
			if baseline != "" {
				b.ReportMetric(cpu[2].sched, "baseline-cpu-%")
			}
		})
	}
}

// idleRun is one program started in tmux for the idle benchmark.
type idleRun struct {
	s    *tmuxtest.Session
	name string
}

// idleCPU is what one program used over the window, in percent of one
// core: from /proc/PID/stat (clock ticks) and from schedstat.
type idleCPU struct{ stat, sched float64 }

// startIdle starts argv in tmux (120×40) and waits for want on screen.
func startIdle(b *testing.B, argv []string, want, name string, env []string) *idleRun {
	b.Helper()
	s := tmuxtest.Start(b, tmuxtest.Options{Width: 120, Height: 40, Dir: b.TempDir(), Env: env}, argv...)
	s.WaitFor(want, 60*time.Second)
	return &idleRun{s: s, name: name}
}

// measureIdle waits two seconds for start-up work and the first frames
// to settle, then reads the CPU of every run over the same idleWindow, so
// the screen and its floor share the machine's state (measured one after
// the other, the floor moved by up to 1.8× between runs on a busy VM), and
// quits them.
func measureIdle(b *testing.B, runs []*idleRun) []idleCPU {
	b.Helper()
	time.Sleep(2 * time.Second)
	t0, n0 := make([]time.Duration, len(runs)), make([]time.Duration, len(runs))
	for i, r := range runs {
		t0[i], n0[i] = statCPU(b, r.s.PID()), schedCPU(b, r.s.PID())
	}
	time.Sleep(idleWindow)
	out := make([]idleCPU, len(runs))
	for i, r := range runs {
		t1, n1 := statCPU(b, r.s.PID()), schedCPU(b, r.s.PID())
		out[i] = idleCPU{
			stat:  (t1 - t0[i]).Seconds() / idleWindow.Seconds() * 100,
			sched: (n1 - n0[i]).Seconds() / idleWindow.Seconds() * 100,
		}
	}
	for _, r := range runs {
		r.s.SendKeys("q")
		if r.name == "debate" {
			// The debate screen goes back home first; keys typed together
			// reach the screen they were typed on, so wait for home.
			r.s.WaitFor("room in", 10*time.Second)
			r.s.SendKeys("q")
		}
		if code := r.s.ExitStatus(10 * time.Second); code != 0 {
			b.Fatalf("%s: exit status %d", r.name, code)
		}
	}
	return out
}

// quietRooms writes two MCP rooms under cwd: "live", open, with a few
// messages, and "done", closed.
func quietRooms(tb testing.TB, cwd string) {
	tb.Helper()
	for _, name := range []string{"live", "done"} {
		r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Idle " + name, Budget: 12})
		if err != nil {
			tb.Fatal(err)
		}
		for i := 1; i <= 6; i++ {
			seat := room.SeatLead
			if i%2 == 0 {
				seat = room.SeatPeer
			}
			if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: seat + "-agent", Text: fmt.Sprintf("## Point %d\n\nA short message with `code`.", i)}); err != nil {
				tb.Fatal(err)
			}
		}
		if name == "done" {
			if _, err := r.Close(room.CloseOptions{Reason: "done"}); err != nil {
				tb.Fatal(err)
			}
		}
		backdate(tb, r.Dir(), 10*time.Minute)
	}
}

// backdate moves the messages of the room in dir ago into the past, as a
// room left alone that long: its times on screen show minutes, which move
// once a minute (seconds show only in a duration's first minute).
func backdate(tb testing.TB, dir string, ago time.Duration) {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "messages", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no messages to backdate in %s: %v", dir, err)
	}
	at := time.Now().Add(-ago).UTC().Format("2006-01-02T15:04:05.000Z")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var msg map[string]any
		if err := json.Unmarshal(data, &msg); err != nil {
			tb.Fatal(err)
		}
		msg["at"] = at
		if data, err = json.Marshal(msg); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// statCPU is the user + system time of a process from /proc/PID/stat.
func statCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		tb.Fatal(err)
	}
	// Fields after the command name (which may hold spaces) start at ")".
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	const clockTicks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// schedCPU is the time on CPU of all a process's threads, from schedstat.
func schedCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
	if err != nil || len(tasks) == 0 {
		tb.Fatalf("no threads for pid %d: %v", pid, err)
	}
	var total int64
	for _, p := range tasks {
		data, err := os.ReadFile(p)
		if err != nil {
			continue // a thread that ended
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			total += n
		}
	}
	return time.Duration(total)
}
