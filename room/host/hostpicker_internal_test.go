package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// pickerBuf is a strings.Builder safe to write from the picker's goroutine.
type pickerBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (p *pickerBuf) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.Write(b)
}

func (p *pickerBuf) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.String()
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestRoomPickerBrokenRoomReportedOnceThenServed: a room.json that stays
// broken is reported on stderr once (not at every look), the room is not
// served, and once it is fixed the room is served with its tokens printed.
// A folder that is not a room yet is neither reported nor served.
func TestRoomPickerBrokenRoomReportedOnceThenServed(t *testing.T) {
	cwd := t.TempDir()
	first, _, err := room.Create(cwd, "first", room.CreateOptions{Topic: "t", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := room.NewTokenSet([]*room.Room{first})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := NewHost(ctx, Options{Rooms: []*room.Room{first}, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut pickerBuf
	stop, err := PickUpRooms(ctx, cwd, "http://127.0.0.1:1/mcp", h, tokens, &out, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	broken := filepath.Join(cwd, room.Folder, "broken")
	if err := os.MkdirAll(filepath.Join(broken, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(cwd, room.Folder, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "room.json"), []byte(`{"room":`), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the broken room's report", func() bool { return strings.Contains(errOut.String(), "room broken is not served") })
	// More looks (a new folder makes one) report nothing new.
	if _, _, err := room.Create(cwd, "other", room.CreateOptions{Topic: "t"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the other room served", func() bool { return strings.Contains(out.String(), "now also serving other\n") })
	if n := strings.Count(errOut.String(), "room broken"); n != 1 {
		t.Fatalf("the broken room was reported %d times; want once:\n%s", n, errOut.String())
	}
	if h.Serves("broken") || h.Serves("empty") || strings.Contains(errOut.String(), "empty") {
		t.Fatalf("served or reported a folder that is not a room: serves broken %v, empty %v; stderr:\n%s", h.Serves("broken"), h.Serves("empty"), errOut.String())
	}
	if !strings.Contains(errOut.String(), "fix or remove") || !strings.Contains(errOut.String(), "tried again when its files change") {
		t.Fatalf("the report does not say what to do:\n%s", errOut.String())
	}

	if err := os.WriteFile(filepath.Join(broken, "room.json"), []byte(`{"room":"broken","topic":"t","budget":2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the fixed room served", func() bool { return strings.Contains(out.String(), "now also serving broken\n") })
	if !h.Serves("broken") || !strings.Contains(out.String(), "Room broken: new tokens") {
		t.Fatalf("the fixed room: serves %v; printed:\n%s", h.Serves("broken"), out.String())
	}
	stop()
	printed := out.String()
	time.Sleep(50 * time.Millisecond)
	if out.String() != printed {
		t.Fatal("the picker printed after stop returned")
	}
}

// TestRoomPickerRescanSignature: what the periodic rescan compares (the
// fallback when inotify is unavailable or loses events) changes when a
// room folder appears and when its room.json is written, so a rescan
// alone finds a new room.
func TestRoomPickerRescanSignature(t *testing.T) {
	cwd := t.TempDir()
	first, _, err := room.Create(cwd, "first", room.CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := room.NewTokenSet([]*room.Room{first})
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(context.Background(), Options{Rooms: []*room.Room{first}, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	p := &roomPicker{cwd: cwd, top: filepath.Join(cwd, room.Folder), host: h}
	before := p.sig()
	if strings.Contains(before, "first") {
		t.Fatalf("a served room is in the rescan signature: %q", before)
	}
	dir := filepath.Join(cwd, room.Folder, "new")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	folder := p.sig()
	if folder == before {
		t.Fatal("a new room folder does not change the rescan signature")
	}
	if err := os.WriteFile(filepath.Join(dir, "room.json"), []byte(`{"room":"new"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if p.sig() == folder {
		t.Fatal("a room.json written does not change the rescan signature")
	}
	if !p.match(filepath.Join(dir, "room.json")) || p.match(filepath.Join(dir, "server.log")) || !p.match(dir) {
		t.Fatal("match: room.json and a room folder wake the picker, server.log does not")
	}
}
