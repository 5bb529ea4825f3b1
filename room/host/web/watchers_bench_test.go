package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rssKiB is a process's resident set size.
func rssKiB(tb testing.TB, pid int) int {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Skipf("no /proc here: %v", err) // a benchmark, never on the test path
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	tb.Fatal("no VmRSS")
	return 0
}

// debateRate is a finished debate's own token rate: its completion
// tokens (debate.log's done event) over the time from its room's
// creation to its close.
func debateRate(tb testing.TB, cwd, id string) float64 {
	tb.Helper()
	dir := filepath.Join(cwd, ".roundtable", id)
	var tokens int
	// The debate prints its done line just after it closes its room.
	for try := 0; tokens == 0 && try < 100; try++ {
		if try > 0 {
			time.Sleep(50 * time.Millisecond)
		}
		log, err := os.ReadFile(filepath.Join(dir, "debate.log"))
		if err != nil {
			tb.Fatal(err)
		}
		for _, line := range strings.Split(string(log), "\n") {
			var e struct {
				Event string
				Data  struct {
					Usage struct {
						CompletionTokens int `json:"completion_tokens"`
					}
				}
			}
			if json.Unmarshal([]byte(line), &e) == nil && e.Event == "done" {
				tokens = e.Data.Usage.CompletionTokens
			}
		}
	}
	var cfg struct{ CreatedAt string }
	var closed struct{ At string }
	for f, v := range map[string]any{"room.json": &cfg, "closed.json": &closed} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || json.Unmarshal(b, v) != nil {
			tb.Fatalf("%s: %v", f, err)
		}
	}
	t0, err1 := time.Parse(time.RFC3339Nano, cfg.CreatedAt)
	t1, err2 := time.Parse(time.RFC3339Nano, closed.At)
	if err1 != nil || err2 != nil || tokens == 0 {
		tb.Fatalf("room %s: created %q closed %q tokens %d", id, cfg.CreatedAt, closed.At, tokens)
	}
	return float64(tokens) / t1.Sub(t0).Seconds()
}

// watch does what a browser on the room's live page does: it loads the
// page, reads the stream to its end as an EventSource does, and after each
// turn (and the verdict) fetches the parts it lacks, as the page's script
// does. It returns the bytes of the stream read.
func watch(h *host, id string) int {
	get := func(path string) []byte {
		req, _ := http.NewRequest(http.MethodGet, h.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+h.starter)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	get("/rooms/" + id)
	seq, note := 0, 0
	parts := func() {
		var got struct {
			Parts []struct {
				Seq  int
				Note bool
			}
		}
		if json.Unmarshal(get(fmt.Sprintf("/rooms/%s/parts?seq=%d&note=%d", id, seq, note)), &got) != nil {
			return
		}
		for _, p := range got.Parts {
			if p.Note {
				note = max(note, p.Seq)
			} else {
				seq = max(seq, p.Seq)
			}
		}
	}
	req, _ := http.NewRequest(http.MethodGet, h.base+"/api/sessions/"+id+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+h.starter)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	n := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		n += len(sc.Bytes()) + 1
		switch sc.Text() {
		case "event: turn_end", "event: summary":
			parts()
		case "event: done", "event: error":
			parts()
			return n
		}
	}
	return n
}

// BenchmarkWatchers100: one live mock debate (the mock's lively pace,
// two personas, one round and the verdict) watched by 100 clients that do
// what the live page does (watch),
// against the same debate watched by none, in the same run on the same
// host: the host's RSS growth while the 100 watch (its peak over the
// debate, against the host before it), and the debate's own token rate
// with 100 watchers ÷ with none.
//
//	go test -run '^$' -bench Watchers100 -benchtime 1x ./room/host/web/
func BenchmarkWatchers100(b *testing.B) {
	const watchers = 100
	body := `{"topic":"Should we adopt Rust?","rounds":1,"agents":[{"name":"Ann","persona":"a careful skeptic"},{"name":"Bob","persona":"an eager optimist"}]}`
	for b.Loop() {
		cwd := b.TempDir()
		h := startHost(b, cwd, "--rate-limit", "500")
		pid := h.cmd.Process.Pid

		alone := h.create(body)
		if n := watch(h, alone); n == 0 { // waits for its end; one client
			b.Fatal("the lone debate's stream was empty")
		}
		time.Sleep(time.Second) // the lone watcher's log and goroutines settle
		base := rssKiB(b, pid)

		id := h.create(body)
		var wg sync.WaitGroup
		var mu sync.Mutex
		short := 0
		for range watchers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if watch(h, id) < 1000 {
					mu.Lock()
					short++
					mu.Unlock()
				}
			}()
		}
		peak := base
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					peak = max(peak, rssKiB(b, pid))
				}
			}
		}()
		wg.Wait()
		close(stop)
		<-sampled
		if short > 0 {
			b.Fatalf("%d of %d watchers did not get the stream", short, watchers)
		}
		ratio := debateRate(b, cwd, id) / debateRate(b, cwd, alone)
		b.ReportMetric(float64(peak-base)/1024, "MiB-rss-growth")
		b.ReportMetric(ratio, "rate-ratio")
		b.ReportMetric(debateRate(b, cwd, alone), "tok/s-alone")
		h.stop()
	}
}
