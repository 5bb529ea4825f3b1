package mcpserver

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestRedactLog: the hidden fields go, every other field and line stays
// byte for byte, and a quoted value that holds "remote=" is a value, not
// a field.
func TestRedactLog(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(room.AppendLog(dir, at, room.EventConnect, room.F("seat", "lead"), room.F("agent", `claude "code" remote=1.2.3.4:5 pid=9`),
		room.F("pid", 4242), room.F("transport", "http"), room.F("remote", "10.1.2.3:51234"), room.F("session", "0123456789ab")))
	must(room.AppendLog(dir, at, "call", room.F("seat", "lead"), room.F("tool", "post")))
	logText := readFile(t, dir+"/"+room.LogFile) + "not a log line remote=x\npartial pid=1"
	got := redactLog(logText)
	lines := strings.Split(got, "\n")
	want0 := `2026-12-01T10:00:00.000Z connect seat=lead agent="claude \"code\" remote=1.2.3.4:5 pid=9" transport=http`
	if lines[0] != want0 {
		t.Fatalf("connect line:\n got %s\nwant %s", lines[0], want0)
	}
	if lines[1] != "2026-12-01T10:00:00.000Z call seat=lead tool=post" {
		t.Fatalf("call line changed: %s", lines[1])
	}
	if lines[2] != "not a log line" || lines[3] != "partial" || len(lines) != 4 {
		t.Fatalf("other lines: %q", lines[2:])
	}
	ll, ok := room.ParseLogLine(lines[0])
	if !ok || ll.Fields["agent"] != `claude "code" remote=1.2.3.4:5 pid=9` || ll.Fields["remote"] != "" || ll.Fields["pid"] != "" {
		t.Fatalf("the redacted line parses as %+v", ll)
	}
	if redactLog("") != "" {
		t.Fatal("empty log changed")
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
