package watch

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// lastWords ends the short message posted after the large ones: the
// screen has opened when it shows them.
const lastWords = "the last line is visible"

// markdownRoom writes an MCP room holding texts and then a short ordinary
// message, and returns its cwd.
func markdownRoom(tb testing.TB, name string, texts []string) string {
	tb.Helper()
	cwd := tb.TempDir()
	var msgs []fileMsg
	for i, text := range append(slices.Clone(texts), "## The end\n\nA *short* message after the others: **"+lastWords+"**.") {
		seat := "lead"
		if i%2 == 1 {
			seat = "peer"
		}
		msgs = append(msgs, fileMsg{Seq: i + 1, At: at(float64(i + 1)), Seat: seat, Agent: "codex", Kind: "brief", Text: text})
	}
	writeRoom(tb, cwd, name, room.Config{Room: name, Topic: "Hostile Markdown", Budget: 12, Spec: "SPEC-" + name + ".md", CreatedAt: at(0)}, msgs, nil)
	return cwd
}

// issueRoom is the room of issue 31: one 64 KiB message of "[a](" and one
// of "> ", which kept "roundtable watch" busy for more than 30 s of CPU
// without showing a message; ordinaryPeer is a room of the same size of
// ordinary Markdown.
func issueRoom(tb testing.TB, size int) string {
	return markdownRoom(tb, "hostile", []string{strings.Repeat("[a](", size/4), strings.Repeat("> ", size/2)})
}

func ordinaryPeer(tb testing.TB, size int) string {
	return markdownRoom(tb, "hostile", []string{roomtest.OrdinaryMarkdown(size), roomtest.OrdinaryMarkdown(size) + "\n\nThe second."})
}

// TestE2EWatchOpensHostileRoom runs the real binary in tmux on the issue's
// room and waits for the last message and the plain-text note of the
// hostile ones (how fast it opens is BenchmarkWatchHostileProcess's).
func TestE2EWatchOpensHostileRoom(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := issueRoom(t, 64<<10)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 40, Dir: t.TempDir()}, bin, "watch", "--room", "hostile", "--cwd", cwd)
	s.WaitFor(lastWords, 30*time.Second)
	s.SendKeys("g") // the top: the first hostile message and its note
	s.WaitUntil("the note over the first message", func(screen string) bool {
		return strings.Contains(screen, transcript.PlainNote[:40]) && strings.Contains(screen, "[a]([a]([a](")
	}, 30*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// BenchmarkWatchHostileOpen is the time from a new screen to its first
// frame showing the last message, in process, on the issue's room at 64
// KiB and 256 KiB a message, next to a room of ordinary Markdown of the
// same size.
func BenchmarkWatchHostileOpen(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		for _, kind := range []string{"hostile", "ordinary"} {
			b.Run(kind+"/"+strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
				cwd := issueRoom(b, size)
				if kind == "ordinary" {
					cwd = ordinaryPeer(b, size)
				}
				for b.Loop() {
					m, err := New(Options{Cwd: cwd, Room: "hostile", ExportDir: cwd, Dark: true, Location: time.UTC})
					if err != nil {
						b.Fatal(err)
					}
					m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
					m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, "hostile", phaseOpening)())
					if !strings.Contains(m.View(), lastWords) {
						b.Fatalf("the first frame does not show the last message:\n%s", plain(m))
					}
					m.Close()
				}
			})
		}
	}
}

// BenchmarkWatchHostileProcess runs the real binary in tmux on the issue's
// room (64 KiB a message) and on its ordinary peer: the time from starting
// it until the last message is on the terminal (start-up and tmux polling
// every 2 ms included), and the CPU it used until then.
func BenchmarkWatchHostileProcess(b *testing.B) {
	bin := tmuxtest.Build(b, "./cmd/roundtable")
	for _, kind := range []string{"hostile", "ordinary"} {
		b.Run(kind, func(b *testing.B) {
			cwd := issueRoom(b, 64<<10)
			if kind == "ordinary" {
				cwd = ordinaryPeer(b, 64<<10)
			}
			var firsts, cpus []time.Duration
			for b.Loop() {
				start := time.Now()
				s := tmuxtest.Start(b, tmuxtest.Options{Width: 120, Height: 40, Poll: 2 * time.Millisecond}, bin, "watch", "--room", "hostile", "--cwd", cwd)
				s.WaitFor(lastWords, 60*time.Second)
				firsts = append(firsts, time.Since(start))
				cpus = append(cpus, procCPU(b, s.PID()))
				s.SendKeys("q")
				if code := s.ExitStatus(10 * time.Second); code != 0 {
					b.Fatalf("exit status %d", code)
				}
			}
			slices.Sort(firsts)
			slices.Sort(cpus)
			b.ReportMetric(float64(firsts[len(firsts)/2].Microseconds())/1000, "first-frame-ms")
			b.ReportMetric(float64(cpus[len(cpus)/2].Microseconds())/1000, "cpu-ms")
		})
	}
}
