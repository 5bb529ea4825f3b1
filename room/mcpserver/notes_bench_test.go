package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// parkedWait sends wait_for_message with a progress token and returns once
// the seat says it is parked (its first progress notification comes just
// before it blocks), with the channel its reply arrives on.
func parkedWait(b *testing.B, c *rawClient) <-chan map[string]any {
	b.Helper()
	reply := c.send("tools/call", map[string]any{
		"name": "wait_for_message", "arguments": map[string]any{"timeout_seconds": 30},
		"_meta": map[string]any{"progressToken": "bench"},
	})
	select {
	case <-c.notes:
	case res := <-reply:
		b.Fatalf("the wait returned before it parked: %v", res)
	case <-time.After(10 * time.Second):
		b.Fatal("the wait did not report that it parked")
	}
	return reply
}

// replyText is the text of a tool result.
func replyText(b *testing.B, res map[string]any) string {
	b.Helper()
	result, _ := res["result"].(map[string]any)
	content, _ := result["content"].([]any)
	if res["error"] != nil || len(content) != 1 {
		b.Fatalf("bad reply: %v", res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// BenchmarkNoteWake: a peer seat process (the real binary, over stdio) is
// parked in wait_for_message; the benchmark writes a host note through the
// store (AddNote, as watch's i and roundtable note do) and measures from
// the call to the note arriving at the client. Each iteration then
// measures the floor the same way: a lead message renamed into place, the
// wake BenchmarkWakeLatency measures. Reported: p50 and p95 of each, the
// ratio of the p95s, and the p50 of writing the note alone (AddNote's
// return), the part of the note's figure the message's has not.
func BenchmarkNoteWake(b *testing.B) {
	cwd := b.TempDir()
	r := prefill(b, cwd, "notewake", 0, 1<<30)
	peer := startRaw(b, hosttest.PlainBinary(b), "--room", "notewake", "--seat", "peer", "--cwd", cwd)
	peer.initialize(b)
	var noteLat, addLat, msgLat []time.Duration
	seq := 0
	for b.Loop() {
		reply := parkedWait(b, peer)
		t0 := time.Now()
		if _, err := r.AddNote(room.NoteFromHost, "Prefer the simple design.", 0); err != nil {
			b.Fatal(err)
		}
		addLat = append(addLat, time.Since(t0))
		text := replyText(b, <-reply)
		noteLat = append(noteLat, time.Since(t0))
		if !strings.Contains(text, `"from": "host"`) || !strings.Contains(text, "Prefer the simple design.") {
			b.Fatalf("the wait did not return the note: %s", text)
		}

		seq++
		at := time.Now().UTC()
		body := fmt.Sprintf("{\n  \"seq\": %d,\n  \"at\": %q,\n  \"seat\": \"lead\",\n  \"agent\": \"bench\",\n  \"kind\": \"brief\",\n  \"text\": \"ping\"\n}\n", seq, at.Format(room.TimeLayout))
		tmp := filepath.Join(r.MessagesDir(), ".tmp-bench")
		if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		reply = parkedWait(b, peer)
		t0 = time.Now()
		if err := os.Rename(tmp, filepath.Join(r.MessagesDir(), fmt.Sprintf("%04d-%d-abcdef.json", seq, at.UnixMilli()))); err != nil {
			b.Fatal(err)
		}
		text = replyText(b, <-reply)
		msgLat = append(msgLat, time.Since(t0))
		if !strings.Contains(text, `"text": "ping"`) {
			b.Fatalf("the wait did not return the message: %s", text)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(hosttest.Percentile(noteLat, 0.5)), "note-p50-ms")
	b.ReportMetric(ms(hosttest.Percentile(noteLat, 0.95)), "note-p95-ms")
	b.ReportMetric(ms(hosttest.Percentile(addLat, 0.5)), "write-p50-ms")
	b.ReportMetric(ms(hosttest.Percentile(msgLat, 0.5)), "msg-p50-ms")
	b.ReportMetric(ms(hosttest.Percentile(msgLat, 0.95)), "msg-p95-ms")
	b.ReportMetric(float64(hosttest.Percentile(noteLat, 0.95))/float64(hosttest.Percentile(msgLat, 0.95)), "note/msg-p95")
}
