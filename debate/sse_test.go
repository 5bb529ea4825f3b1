package debate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestOpenAIWireVariants: what servers really send around the chunks —
// keep-alive comments, CRLF line ends, an event type line, a chunk longer
// than the reader's buffer, a data field without its space — reads as the
// same reply.
func TestOpenAIWireVariants(t *testing.T) {
	long := strings.Repeat("long ", 8000) // 40 kB in one chunk
	fs := newFakeServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		startSSE(w)
		fmt.Fprint(w, ": OPENROUTER PROCESSING\r\n\r\n")
		fmt.Fprint(w, "event: message\r\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"One\"}}]}\r\n\r\n")
		fmt.Fprint(w, "data:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" two \"}}]}\n\n")
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":\"length\"}]}\n\n", long)
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	p, _ := newTestProvider(t, fs, "")
	text, _, err := streamAll(context.Background(), p)
	if err != nil || text != "One two "+long {
		t.Fatalf("got %d bytes %q…, %v", len(text), text[:min(len(text), 20)], err)
	}
	if fs.auth[0] != "" {
		t.Fatalf("no key given, yet Authorization %q was sent", fs.auth[0])
	}
}

// TestOpenAIErrorEvent: an `event: error` in the stream ends the turn with
// the server's words.
func TestOpenAIErrorEvent(t *testing.T) {
	fs := newFakeServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		s := startSSE(w)
		s.chunk("Part", "")
		fmt.Fprint(w, "event: error\ndata: {\"message\":\"upstream timed out\"}\n\n")
	})
	p, _ := newTestProvider(t, fs, "k")
	text, _, err := streamAll(context.Background(), p)
	if !errors.Is(err, ErrBadStream) || !strings.Contains(err.Error(), "upstream timed out") || text != "Part" {
		t.Fatalf("got %q, %v", text, err)
	}
}

// TestOpenAIOversizedEvent: a stream that never ends an event is refused
// at the bound, not read into memory without end.
func TestOpenAIOversizedEvent(t *testing.T) {
	fs := newFakeServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		startSSE(w)
		fmt.Fprint(w, "data: \"")
		chunk := strings.Repeat("x", 64<<10)
		for range (maxEventBytes / len(chunk)) + 2 {
			fmt.Fprint(w, chunk)
		}
	})
	p, _ := newTestProvider(t, fs, "k")
	_, _, err := streamAll(context.Background(), p)
	if !errors.Is(err, ErrBadStream) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err %v, want the event refused as too long", err)
	}
}

// TestOpenAIDeltaRefusal: the engine's own reason to stop a stream (its
// onDelta error) comes back unchanged, not dressed as a stream failure.
func TestOpenAIDeltaRefusal(t *testing.T) {
	fs := newFakeServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		s := startSSE(w)
		s.chunk("a", "")
		s.chunk("b", "stop")
		s.done()
	})
	p, _ := newTestProvider(t, fs, "k")
	stop := errors.New("enough")
	_, err := p.Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}, func(string) error { return stop })
	if err != stop { //nolint:errorlint // the very value must come back
		t.Fatalf("err %v, want the delta's own error", err)
	}
}
