package room

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func FuzzParseMessageFileName(f *testing.F) {
	for _, s := range []string{"0001-1796050276320-b0579b.json", "10500-1-abcdef.json", ".tmp-1", "x.json", "-1-a.json", "+1-a.json", "0001.json", "99999999999-1-a.json"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		seq, ok := ParseMessageFileName(name)
		if !ok {
			return
		}
		if seq < 0 || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			t.Fatalf("accepted %q as seq %d", name, seq)
		}
	})
}

// FuzzReadMessage feeds arbitrary bytes to the message file reader: it must
// return a message or an error, never panic, and what it returns must have
// a seat.
func FuzzReadMessage(f *testing.F) {
	f.Add([]byte("{\n  \"seq\": 1,\n  \"at\": \"2026-11-30T14:20:10.123Z\",\n  \"seat\": \"lead\",\n  \"agent\": \"a\",\n  \"kind\": \"brief\",\n  \"text\": \"x\"\n}\n"))
	f.Add([]byte(`{"seq": "1", "seat": 5}`))
	f.Add([]byte(`{"seq": 1e99, "seat": "lead", "round": -1}`))
	f.Add([]byte{0xff, 0, 1})
	f.Add([]byte(`null`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "0001-1-abcdef.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := readMessage(p)
		if err == nil && m.Seat == "" {
			t.Fatalf("message without a seat from %q", data)
		}
		_ = m.Time()
	})
}

// FuzzRoomConfig opens a room whose room.json holds arbitrary bytes: an
// error or a room, never a panic, and never a spec path that leaves cwd.
func FuzzRoomConfig(f *testing.F) {
	f.Add([]byte(`{"room":"r","topic":"t","budget":4,"spec":"SPEC-r.md","createdAt":"2026-11-30T14:51:15.203Z"}`))
	f.Add([]byte(`{"spec":"../../etc/passwd","budget":-1}`))
	f.Add([]byte(`{"spec":"/abs","mode":"debate","agents":[1,2]}`))
	f.Add([]byte(`[]`))
	cwd := f.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, Folder, "r", "messages"), 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(cwd, Folder, "r", "room.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(cwd, "r")
		if err != nil {
			return
		}
		spec := r.Config().Spec
		if strings.HasPrefix(spec, "/") || spec == "" || slices.Contains(strings.Split(spec, "/"), "..") {
			t.Fatalf("unsafe spec %q survived from %q", spec, data)
		}
		if _, err := r.State(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzLogLine: any label written to server.log is one line and reads back
// unchanged.
func FuzzLogLine(f *testing.F) {
	f.Add("opus-5")
	f.Add("a\nb")
	f.Add("x\" seat=peer")
	f.Add("\x1b]52;c;aGk=\x07")
	dir := f.TempDir()
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, label string) {
		p := filepath.Join(dir, LogFile)
		_ = os.Remove(p)
		if err := AppendLog(dir, at, "connect", F("seat", "lead"), F("agent", label)); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		if strings.Count(string(data), "\n") != 1 {
			t.Fatalf("label %q wrote %q", label, data)
		}
		ll, ok := ParseLogLine(strings.TrimSuffix(string(data), "\n"))
		if !ok || ll.Fields["seat"] != "lead" {
			t.Fatalf("line %q did not parse", data)
		}
		if want := strings.ToValidUTF8(label, "\uFFFD"); ll.Fields["agent"] != want && ll.Fields["agent"] != label {
			t.Fatalf("label %q read back as %q", label, ll.Fields["agent"])
		}
	})
}
