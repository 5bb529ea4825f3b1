package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestExport(t *testing.T) {
	r := referenceRoom(t, "open-room")
	dir := t.TempDir()
	want := []string{
		"open-room-transcript.md", "open-room-transcript-2.md", "open-room-transcript-3.md",
	}
	for _, name := range want {
		path, err := Export(r, dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if path != filepath.Join(dir, name) {
			t.Fatalf("Export wrote %s, want %s", path, name)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, want[0]))
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != renderMD(t, r) {
		t.Errorf("the exported Markdown differs from Markdown's")
	}
	path, err := Export(r, dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "open-room-transcript.html" {
		t.Errorf("HTML export named %s", path)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(page) != renderPage(t, r) {
		t.Errorf("the exported page differs from HTML's")
	}
}

func TestExportNeverOverwrites(t *testing.T) {
	r := referenceRoom(t, "open-room")
	dir := t.TempDir()
	mine := filepath.Join(dir, "open-room-transcript.md")
	if err := os.WriteFile(mine, []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A dangling symbolic link in the way is not followed either.
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "open-room-transcript-2.md")); err != nil {
		t.Fatal(err)
	}
	path, err := Export(r, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "open-room-transcript-3.md" {
		t.Errorf("Export wrote %s", path)
	}
	if b, _ := os.ReadFile(mine); string(b) != "my notes" {
		t.Errorf("Export overwrote an existing file")
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Export wrote through a symbolic link")
	}
}

func TestExportConcurrent(t *testing.T) {
	r := referenceRoom(t, "cache-design")
	dir := t.TempDir()
	const n = 6
	paths := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p, err := Export(r, dir, i%2 == 0)
			if err != nil {
				t.Error(err)
			}
			paths[i] = p
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			t.Errorf("two exports wrote %s", p)
		}
		seen[p] = true
	}
}

func TestExportErrors(t *testing.T) {
	r := referenceRoom(t, "open-room")
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := Export(r, missing, false); err == nil || !strings.Contains(err.Error(), "not an existing folder") {
		t.Errorf("export into a missing folder: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("export created the missing folder")
	}
	broken := openMCPRoom(t)
	if err := os.RemoveAll(broken.MessagesDir()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Export(broken, dir, true); !errors.Is(err, room.ErrNoRoom) {
		t.Errorf("export of an unreadable room: %v, want ErrNoRoom", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed export left %d files", len(entries))
	}
}

func TestExportNameFromFolder(t *testing.T) {
	// room.json's "room" field is untrusted; the file is named after the
	// folder, which the store validated.
	r := hostileRoom(t, goldenBeacon)
	dir := t.TempDir()
	path, err := Export(r, dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "hostile-transcript.html") {
		t.Errorf("Export wrote %s", path)
	}
}
