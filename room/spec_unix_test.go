//go:build unix

package room

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadSpec: the spec is read as a regular file inside the cwd, never
// through a link, never blocking on a FIFO, never over the limit.
func TestReadSpec(t *testing.T) {
	r := newRoom(t, 3)
	if _, err := r.WriteSpec("# Decision\n"); err != nil {
		t.Fatal(err)
	}
	if data, err := r.ReadSpec(""); err != nil || string(data) != "# Decision\n" {
		t.Fatalf("ReadSpec: %q %v", data, err)
	}
	cwd := r.Cwd()
	if _, err := r.ReadSpec("missing.md"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing spec: %v", err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(cwd, "link.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadSpec("link.md"); err == nil {
		t.Error("a symbolic link was followed")
	}
	if err := os.Symlink("/etc", filepath.Join(cwd, "etc")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadSpec("etc/hostname"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("a spec through a linked folder outside the cwd: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(cwd, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := r.ReadSpec("fifo.md"); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was read as a spec")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadSpec blocked on a FIFO")
	}
	if err := os.WriteFile(filepath.Join(cwd, "big.md"), make([]byte, MaxSpecBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	var large *TooLargeError
	if _, err := r.ReadSpec("big.md"); !errors.As(err, &large) || large.What != "spec" || large.Size != MaxSpecBytes+1 {
		t.Errorf("a spec over the limit: %v", err)
	}
	// A path leaving the cwd falls back to the room's default spec.
	if data, err := r.ReadSpec("../outside.md"); err != nil || string(data) != "# Decision\n" {
		t.Errorf("an escaping spec path: %q %v", data, err)
	}
}

// TestWriteSpecKeepsWhatItReplaces: write_spec destroys nothing (it is
// annotated so): a file the user had at the spec path, and each earlier
// version of the room's spec, is kept in the room's spec-history/; the
// same text written twice keeps nothing more.
func TestWriteSpecKeepsWhatItReplaces(t *testing.T) {
	r := newRoom(t, 3)
	spec := filepath.Join(r.Cwd(), filepath.FromSlash(r.Config().Spec))
	if err := os.WriteFile(spec, []byte("the user's own notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"# Draft 1\n", "# Draft 2\n", "# Draft 2\n"} {
		if _, err := r.WriteSpec(text); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(spec); string(got) != "# Draft 2\n" {
		t.Fatalf("the spec holds %q", got)
	}
	hist := filepath.Join(r.Dir(), SpecHistoryDir)
	ents, err := os.ReadDir(hist)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(hist, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, e.Name()+"="+string(b))
	}
	want := []string{"0001.md=the user's own notes\n", "0002.md=# Draft 1\n"}
	if len(kept) != len(want) || kept[0] != want[0] || kept[1] != want[1] {
		t.Fatalf("spec-history holds %q, want %q", kept, want)
	}
}
