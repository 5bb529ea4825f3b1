package room

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzApplySnapshot feeds the mirror snapshots as a hostile host could
// send them: it must never panic, never write outside its folder, never
// leave a symbolic link, and what it writes must read back as a room.
func FuzzApplySnapshot(f *testing.F) {
	f.Add([]byte(`{"room":"r","config":{"room":"r","topic":"t","budget":3,"spec":"SPEC-r.md"},"messages":[{"seq":1,"at":"2026-11-30T14:20:10.123Z","seat":"lead","agent":"a","kind":"brief","text":"x"}],"next":{}}`))
	f.Add([]byte(`{"room":"r","notes":[{"seq":1,"from":"host","text":"n","afterSeq":0}],"closed":{"reason":"done","specPath":"../../x"},"spec":{"path":"a/../../b.md","text":"s"}}`))
	f.Add([]byte(`{"room":"r","log":"2026-11-30T14:20:10.123Z connect seat=lead pid=12\n","logReset":true,"drafts":[{"seat":"peer","text":"d"},{"seat":"../x","text":"e"}],"draftsChanged":true}`))
	f.Add([]byte(`{"room":"../../etc","config":{"spec":"/etc/passwd"}}`))
	f.Add([]byte(`{"room":"r","spec":{"path":"docs/deep/SPEC.md","text":"s"},"messages":[{"seq":-1,"seat":""},{"seq":1000000000,"seat":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Snapshot
		if json.Unmarshal(data, &s) != nil {
			return
		}
		base := t.TempDir()
		cwd := filepath.Join(base, "mirror")
		if err := os.Mkdir(cwd, 0o755); err != nil {
			t.Fatal(err)
		}
		err := ApplySnapshot(cwd, s)
		err2 := ApplySnapshot(cwd, s) // twice: the same
		if (err == nil) != (err2 == nil) {
			t.Fatalf("applied twice: %v, then %v", err, err2)
		}
		entries, _ := os.ReadDir(base)
		if len(entries) != 1 {
			t.Fatalf("%d entries beside the mirror", len(entries)-1)
		}
		_ = filepath.WalkDir(cwd, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type()&fs.ModeSymlink != 0 {
				t.Fatalf("a link at %s", p)
			}
			return nil
		})
		if ValidateName(s.Room) != nil {
			if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
				t.Fatalf("a bad room name %q wrote %d entries", s.Room, len(entries))
			}
			return
		}
		if s.Config != nil {
			r, err := Open(cwd, s.Room)
			if err != nil {
				if strings.Contains(err.Error(), "too large") || len(s.Config.Topic) > MaxTopicBytes {
					return
				}
				t.Fatalf("the mirror is no room: %v", err)
			}
			if _, err := r.State(); err != nil {
				t.Fatalf("the mirror's state: %v", err)
			}
		}
	})
}
