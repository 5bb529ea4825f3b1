package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestVerdictKeyAsksTheModerator: V's background command asks the
// moderator (the mock, with no provider in the environment) for a verdict
// on the room and saves it beside the spec; a room with no message has
// none, and says so.
func TestVerdictKeyAsksTheModerator(t *testing.T) {
	t.Setenv("ROUNDTABLE_PROVIDER", "")
	t.Setenv("ROUNDTABLE_BASE_URL", "")
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "cache", room.CreateOptions{Topic: "Write-through?", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	msg := askVerdict(7, r)().(verdictMsg)
	if msg.Err == nil || !strings.Contains(msg.Err.Error(), "no message yet") {
		t.Fatalf("a room with no message: %+v", msg)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Text: "Write-through. My position: support."}); err != nil {
		t.Fatal(err)
	}
	msg = askVerdict(7, r)().(verdictMsg)
	if msg.Err != nil || msg.id != 7 || msg.Path != "SPEC-cache.verdict.md" {
		t.Fatalf("the verdict: %+v", msg)
	}
	data, err := os.ReadFile(filepath.Join(cwd, msg.Path))
	if err != nil || !strings.Contains(string(data), "**Decision:**") {
		t.Fatalf("the saved verdict: %v\n%s", err, data)
	}
}
