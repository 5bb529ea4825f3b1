package mcpserver_test

import (
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

func TestParkedWaitSendsProgressWhenAsked(t *testing.T) {
	cwd := t.TempDir()
	c := startRaw(t, hosttest.Binary(), "--room", "prog", "--seat", "peer", "--cwd", cwd)
	c.initialize(t)
	reply := c.send("tools/call", map[string]any{
		"name":      "wait_for_message",
		"arguments": map[string]any{"timeout_seconds": 1},
		"_meta":     map[string]any{"progressToken": "tok-1"},
	})
	select {
	case n := <-c.notes:
		params, _ := n["params"].(map[string]any)
		if n["method"] != "notifications/progress" || params["progressToken"] != "tok-1" {
			t.Fatalf("notification %v", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress notification from a parked wait with a progress token")
	}
	res := <-reply
	if res["error"] != nil {
		t.Fatalf("wait: %v", res["error"])
	}
	// Without a token, no notification.
	<-c.tool("wait_for_message", map[string]any{"timeout_seconds": 0.3})
	select {
	case n := <-c.notes:
		t.Fatalf("unexpected notification %v", n)
	default:
	}
}
