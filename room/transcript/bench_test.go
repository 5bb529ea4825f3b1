package transcript

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// benchText is a typical message: headings, a list, code, a table, links.
const benchText = "## Proposal: bound the runner\n\nThe runner at `internal/jobs/runner.go:88` starts every due job " +
	"in its own goroutine with **no bound**, and `reprice` fans out to 32 more. See <https://example.com/issue/42>.\n\n" +
	"1. a semaphore, `MaxConcurrentJobs` = 2;\n2. cap the fan-out at `GOMAXPROCS/4`;\n3. cancel jobs on shutdown.\n\n" +
	"```go\nsem := make(chan struct{}, cfg.MaxConcurrentJobs)\nfor _, j := range due {\n\tsem <- struct{}{}\n\tgo run(j, sem)\n}\n```\n\n" +
	"| option | cost | risk |\n| --- | --- | --- |\n| semaphore | 20 lines | low |\n| worker service | new deployable | medium |\n\n" +
	"I'd rather not pay for a *second service* for a bug that is twenty lines."

// benchRoom writes an MCP room of n messages (about 1 KB each) straight in
// the format and returns its cwd.
func benchRoom(b testing.TB, n int) string {
	b.Helper()
	cwd := b.TempDir()
	dir := room.Dir(cwd, "big")
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"room": "big", "topic": "A long room", "budget": %d, "spec": "SPEC-big.md", "createdAt": %q}`+"\n", n, at(0))
	if err := os.WriteFile(filepath.Join(dir, "room.json"), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		seat, kind := "lead", "challenge"
		if i%2 == 0 {
			seat, kind = "peer", "proposal"
		}
		ts := t0.Add(time.Duration(i) * time.Second)
		m := fmt.Sprintf(`{"seq": %d, "at": %q, "seat": %q, "agent": "agent-%s", "kind": %q, "text": %q}`+"\n",
			i, ts.Format(room.TimeLayout), seat, seat, kind, benchText+strings.Repeat(" More.", i%7))
		name := fmt.Sprintf("%04d-%d-%06x.json", i, ts.UnixMilli(), i)
		if err := os.WriteFile(filepath.Join(dir, "messages", name), []byte(m), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return cwd
}

// openBenchRoom opens a 10,000-message room and reads it once, as a
// screen that has it open already has.
func openBenchRoom(b *testing.B) *room.Room {
	b.Helper()
	r, err := room.Open(benchRoom(b, 10_000), "big")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.State(); err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkHTML10k renders a 10,000-message room that the caller already
// has open (the TUI's export key): the store has parsed the files once.
func BenchmarkHTML10k(b *testing.B) {
	r := openBenchRoom(b)
	b.ResetTimer()
	for b.Loop() {
		if err := HTML(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportHTML10k is "roundtable transcript --out x.html" on a
// 10,000-message room from cold: open the room, parse every message file,
// render, write the file.
func BenchmarkExportHTML10k(b *testing.B) {
	cwd := benchRoom(b, 10_000)
	out := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		r, err := room.Open(cwd, "big")
		if err != nil {
			b.Fatal(err)
		}
		path, err := Export(r, out, true)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.Remove(path); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkMarkdown10k renders the same open room as Markdown.
func BenchmarkMarkdown10k(b *testing.B) {
	r := openBenchRoom(b)
	b.ResetTimer()
	for b.Loop() {
		if err := Markdown(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
