package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// bigText is the body of the generated messages: a few paragraphs of
// Markdown, about 600 bytes.
const bigText = "## Point %d\n\nThe cache flush in `internal/cache/flush.go` runs every **five seconds**; " +
	"a crash between two flushes loses what is in the dirty set.\n\n" +
	"- write-through: Postgres first, then the cache\n- write-back, hardened: a local WAL\n- write-around\n\n" +
	"I would rather pay the latency than lose an acknowledged write. What does the p99 look like if we " +
	"batch the upserts per stripe?"

// bigRoom writes an open MCP room of n messages (written as files, the way
// a long-lived room would have them) and returns its cwd.
func bigRoom(tb testing.TB, n int) string {
	tb.Helper()
	cwd := tb.TempDir()
	dir := room.Dir(cwd, "big")
	writeFile(tb, filepath.Join(dir, "room.json"), encode(tb, room.Config{Room: "big", Topic: "Ten thousand messages", Budget: n, Spec: "SPEC-big.md", CreatedAt: at(0)}))
	msgDir := filepath.Join(dir, "messages")
	if err := os.MkdirAll(msgDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		seat, kind := "lead", "challenge"
		if i%2 == 0 {
			seat, kind = "peer", "answer"
		}
		m := fileMsg{i, at(float64(i)), seat, "agent-" + seat, kind, fmt.Sprintf(bigText, i), 0}
		if err := os.WriteFile(filepath.Join(msgDir, messageName(i, m.At, i)), encode(tb, m), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return cwd
}

// BenchmarkOpen10k is the time from a new screen to its first frame on a
// room of 10,000 messages (reading the room, rendering what is in view,
// the view itself), and the Go heap in use with that screen open.
func BenchmarkOpen10k(b *testing.B) {
	cwd := bigRoom(b, 10000)
	open := func() Model {
		m, err := New(Options{Cwd: cwd, Room: "big", ExportDir: cwd, Dark: true, Location: time.UTC})
		if err != nil {
			b.Fatal(err)
		}
		m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, "big", phaseOpening)())
		if !strings.Contains(m.View(), "#10000 ·") {
			b.Fatalf("the first frame does not show the newest message:\n%s", plain(m))
		}
		return m
	}
	for b.Loop() {
		open().Close()
	}
	b.StopTimer()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := open()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heap-inuse-MiB")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "screen-heap-MiB")
	runtime.KeepAlive(m)
	m.Close()
}

// BenchmarkWatchProcess10k runs the real binary in tmux on a room of 10,000
// messages: the time from starting it until the newest message is on the
// terminal (start-up and tmux polling included, every 2 ms), its resident
// memory (VmRSS and peak VmHWM from /proc), and its CPU use while idle.
func BenchmarkWatchProcess10k(b *testing.B) {
	bin := tmuxtest.Build(b, "./cmd/roundtable")
	cwd := bigRoom(b, 10000)
	var firsts []time.Duration
	var rss, hwm, idleCPU float64
	for b.Loop() {
		start := time.Now()
		s := tmuxtest.Start(b, tmuxtest.Options{Width: 120, Height: 40, Poll: 2 * time.Millisecond}, bin, "watch", "--room", "big", "--cwd", cwd)
		s.WaitFor("#10000 ·", 30*time.Second)
		firsts = append(firsts, time.Since(start))
		pid := s.PID()
		rss, hwm = procMemMiB(b, pid)
		cpu0 := procCPU(b, pid)
		const idle = 3 * time.Second
		time.Sleep(idle)
		idleCPU = (procCPU(b, pid) - cpu0).Seconds() / idle.Seconds() * 100
		s.SendKeys("q")
		if code := s.ExitStatus(10 * time.Second); code != 0 {
			b.Fatalf("exit status %d", code)
		}
	}
	slices.Sort(firsts)
	b.ReportMetric(float64(firsts[len(firsts)/2].Microseconds())/1000, "first-frame-ms")
	b.ReportMetric(rss, "rss-MiB")
	b.ReportMetric(hwm, "peak-rss-MiB")
	b.ReportMetric(idleCPU, "idle-cpu-%")
}

// procMemMiB reads VmRSS and VmHWM of a process.
func procMemMiB(tb testing.TB, pid int) (rss, hwm float64) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// procCPU is the user and system CPU time a process has used.
func procCPU(tb testing.TB, pid int) time.Duration {
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

// BenchmarkLiveLatency is the time from a message's rename into the room
// (PostMessage returning) to a frame that shows it, with the screen running
// as a program. Bubble Tea writes a frame to the terminal at most 1/FPS
// later (20 ms at 50 frames a second).
func BenchmarkLiveLatency(b *testing.B) {
	cwd := b.TempDir()
	r, _, err := room.Create(cwd, "lat", room.CreateOptions{Topic: "Latency", Budget: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "lat", ExportDir: cwd, Dark: true, Location: time.UTC})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(b, rec, teatest.WithInitialTermSize(120, 40), teatest.WithProgramOptions(tea.WithFPS(FPS)))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(rec.frame(), "Latency") {
		if time.Now().After(deadline) {
			b.Fatal("the screen never opened the room")
		}
		time.Sleep(time.Millisecond)
	}
	var lats []time.Duration
	seats := []string{"lead", "peer"}
	for i := 0; b.Loop(); i++ {
		token := fmt.Sprintf("zq%dx", i)
		if _, _, err := r.PostMessage(room.Post{Seat: seats[i%2], Agent: "bench", Text: "message " + token}); err != nil {
			b.Fatal(err)
		}
		lats = append(lats, rec.waitShown(b, token, "message", i))
	}
	b.StopTimer()
	reportLatencies(b, lats)
	tm.Type("q")
	tm.WaitFinished(b, teatest.WithFinalTimeout(5*time.Second))
}

// BenchmarkDraftLatency is the time from a seat's draft being rewritten
// (WriteDraft returning) to a frame that shows its newest words, with the
// screen running as a program: the draft grows by a word each time, to
// about 2 KB, as a seat roundtable plays rewrites it while it composes.
// Compare with BenchmarkLiveLatency, a message landing, in the same run.
func BenchmarkDraftLatency(b *testing.B) {
	cwd := b.TempDir()
	r, _, err := room.Create(cwd, "dlat", room.CreateOptions{Topic: "Draft latency", Budget: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "lead", Agent: "bench", Text: fmt.Sprintf(bigText, 1)}); err != nil {
		b.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "dlat", ExportDir: cwd, Dark: true, Location: time.UTC})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(b, rec, teatest.WithInitialTermSize(120, 40), teatest.WithProgramOptions(tea.WithFPS(FPS)))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(rec.frame(), "Draft latency") {
		if time.Now().After(deadline) {
			b.Fatal("the screen never opened the room")
		}
		time.Sleep(time.Millisecond)
	}
	var lats []time.Duration
	var text strings.Builder
	started := time.Now()
	for i := 0; b.Loop(); i++ {
		if text.Len() > 2048 {
			text.Reset()
			started = time.Now()
		}
		token := fmt.Sprintf("zq%dx", i)
		text.WriteString(token + " ")
		if err := r.WriteDraft(room.Draft{Seat: "peer", Agent: "roundtable:bench", StartedAt: started, Text: text.String()}); err != nil {
			b.Fatal(err)
		}
		lats = append(lats, rec.waitShown(b, token, "draft", i))
	}
	b.StopTimer()
	reportLatencies(b, lats)
	tm.Type("q")
	tm.WaitFinished(b, teatest.WithFinalTimeout(5*time.Second))
}

// waitShown waits for a frame holding token and returns how long that
// took; what and i name the item in the failure.
func (r *recorder) waitShown(b *testing.B, token, what string, i int) time.Duration {
	start := time.Now()
	for {
		r.mu.Lock()
		ok := strings.Contains(*r.last, token)
		r.mu.Unlock()
		if ok {
			return time.Since(start)
		}
		if time.Since(start) > 5*time.Second {
			b.Fatalf("%s %d never shown", what, i)
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// reportLatencies reports the p50, p99 and max of lats in milliseconds.
func reportLatencies(b *testing.B, lats []time.Duration) {
	slices.Sort(lats)
	b.ReportMetric(float64(lats[len(lats)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lats[len(lats)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lats[len(lats)-1].Microseconds())/1000, "max-ms")
}
