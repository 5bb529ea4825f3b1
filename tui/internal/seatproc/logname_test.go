package seatproc

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLogName: the lead's and the peer's logs keep their names; any other
// seat's name, whatever it holds, gives one file inside the room's folder.
func TestLogName(t *testing.T) {
	for seat, want := range map[string]string{"lead": "seat-lead.log", "peer": "seat-peer.log"} {
		if got := LogName(seat); got != want {
			t.Errorf("LogName(%q) = %q, want %q", seat, got, want)
		}
	}
	for _, seat := range []string{"critic", "../../etc/passwd", "a/b", `c:\x`, "Dr. Ada Lovelace", ".."} {
		got := LogName(seat)
		if filepath.Base(got) != got || strings.ContainsAny(got, `/\`) || !strings.HasPrefix(got, "seat-") || !strings.HasSuffix(got, ".log") {
			t.Errorf("LogName(%q) = %q: not one file name", seat, got)
		}
	}
	if LogName("a/b") == LogName("a-b") {
		t.Error("two seats share a log")
	}
}
