package room

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileNames are room names a user or an agent configuration might pass;
// none may reach outside <cwd>/.roundtable.
var hostileNames = []string{
	"..", ".", "../x", "../../etc", "/etc", "/tmp/x", "a/b", `a\b`, `..\..\x`,
	"%2e%2e", "%2e%2e%2fetc", "..%2f", "a\x00b", "\x00", "", " ", "a b", "-rf",
	".hidden", ".roundtable", "~", "~root", "$HOME", "`id`", "$(id)", "a;b", "a|b",
	"a\nb", "a\rb", "a\tb", strings.Repeat("a", 65), strings.Repeat("a", 4096),
	"C:", "C:\\x", "con", "é", "名前", "a\u202eb", "a/../b", "./a",
}

// hostileSpecs are spec paths; unsafe ones fall back to SPEC-<room>.md.
var hostileSpecs = []string{
	"../x.md", "../../etc/passwd", "/etc/passwd", "/tmp/x.md", "a/../../x.md", `..\x.md`,
	`C:\x.md`, "C:x.md", "a\x00b.md", "%2e%2e/x.md", ".roundtable/r/room.json",
	".roundtable", ".", "", strings.Repeat("a/", 300) + "x.md", "a/./../../b.md",
	"docs/\x1b[2Jx.md", "a\nb.md", "out/x.md", // out is a symlink to outside (set below)
}

func TestHostileNamesAndSpecsStayInside(t *testing.T) {
	base := t.TempDir()
	cwd := filepath.Join(base, "cwd")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{cwd, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(cwd, "out")); err != nil {
		t.Fatal(err)
	}
	if len(hostileNames) < 30 || len(hostileSpecs) < 15 {
		t.Fatal("corpus too small")
	}
	for _, n := range hostileNames {
		if _, _, err := Create(cwd, n, CreateOptions{Budget: 1}); err == nil {
			// Only names matching the rule may pass, and they stay inside.
			if ValidateName(n) != nil {
				t.Errorf("Create accepted %q", n)
			}
		} else if !errors.Is(err, ErrBadName) {
			t.Errorf("Create(%q): %v, want ErrBadName", n, err)
		}
		if _, err := Open(cwd, n); err == nil && ValidateName(n) != nil {
			t.Errorf("Open accepted %q", n)
		}
	}
	for i, sp := range hostileSpecs {
		r, _, err := Create(cwd, "spec"+string(rune('a'+i)), CreateOptions{Budget: 1, Spec: sp})
		if err != nil {
			t.Fatal(err)
		}
		p, err := r.WriteSpec("plan")
		if err != nil {
			if !errors.Is(err, ErrUnsafePath) {
				t.Errorf("spec %q: %v", sp, err)
			}
			continue
		}
		if rel, err := filepath.Rel(cwd, p); err != nil || strings.HasPrefix(rel, "..") || strings.HasPrefix(rel, Folder) {
			t.Errorf("spec %q written at %s", sp, p)
		}
	}
	// A symlinked room folder pointing outside is refused, for reading too.
	if err := os.Symlink(outside, filepath.Join(cwd, Folder, "linked")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(cwd, "linked"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("Open of a symlinked room: %v", err)
	}
	if _, _, err := Create(cwd, "linked", CreateOptions{Budget: 1}); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("Create of a symlinked room: %v", err)
	}
	var created []string
	_ = filepath.WalkDir(outside, func(p string, d fs.DirEntry, err error) error {
		if p != outside {
			created = append(created, p)
		}
		return nil
	})
	if len(created) != 0 {
		t.Fatalf("files created outside cwd: %v", created)
	}
	var stray []string
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		if e.Name() != "cwd" && e.Name() != "outside" {
			stray = append(stray, e.Name())
		}
	}
	if len(stray) != 0 {
		t.Fatalf("files created beside cwd: %v", stray)
	}
}

func TestHostileMessageFiles(t *testing.T) {
	r := newRoom(t, 100)
	mustPost(t, r, SeatLead, "real one")
	big := make([]byte, 50<<20)
	for i := range big {
		big[i] = 'x'
	}
	cases := map[string][]byte{
		"0002-1-aaaaaa.json": []byte(`{"seq": 2, "seat": "peer", "text": "trunc`),
		"0003-1-bbbbbb.json": []byte(`{"seq": "three", "seat": 5}`),
		"0004-1-cccccc.json": big,
		"0005-1-dddddd.json": {0xff, 0xfe, 0x00, 0x01, 0x02},
		"0006-1-eeeeee.json": []byte(`null`),
	}
	for name, data := range cases {
		writeRaw(t, r, name, string(data))
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(r.MessagesDir(), "0007-1-ffffff.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(r.MessagesDir(), "0008-1-000000.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Seq that disagrees with the file name, and a duplicate seq written by
	// another tool: both kept, in order, and nothing crashes.
	writeRaw(t, r, "0009-1-111111.json", `{"seq": 42, "at": "x", "seat": "peer", "agent": "other", "kind": "answer", "text": "mismatch"}`)
	writeRaw(t, r, "0001-2-222222.json", `{"seq": 1, "at": "x", "seat": "peer", "agent": "other", "kind": "answer", "text": "duplicate"}`)
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) != 7 {
		t.Fatalf("skipped %d files, want 7: %+v", len(st.Skipped), st.Skipped)
	}
	if len(st.Messages) != 3 {
		t.Fatalf("%d messages, want 3", len(st.Messages))
	}
	for i := 1; i < len(st.Messages); i++ {
		if st.Messages[i-1].Seq > st.Messages[i].Seq {
			t.Fatal("messages out of order")
		}
	}
	// Posting still works and takes a number above everything on disk.
	m, _, err := r.PostMessage(Post{Seat: st.Turn, Text: "still works"})
	if err != nil || m.Seq != 43 {
		t.Fatalf("post after hostile files: seq %d, %v", m.Seq, err)
	}
}

func TestOversizedTopicIsRefusedBeforeCreating(t *testing.T) {
	cwd := t.TempDir()
	_, _, err := Create(cwd, "big", CreateOptions{Budget: 1, Topic: strings.Repeat("x", 10<<20)})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "KiB") {
		t.Fatalf("10 MB topic: %v", err)
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Fatalf("a refused room left %v", entries)
	}
	if _, _, err := Create(cwd, "ok", CreateOptions{Budget: 1, Topic: strings.Repeat("x", MaxTopicBytes)}); err != nil {
		t.Fatalf("topic at the limit: %v", err)
	}
}
