//go:build unix

package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestOneAgentOneSeat: an agent CLI started where both seats of a room
// are registered starts both seat servers (as claude does with the
// printed "claude mcp add" lines run in one folder). Here the test
// process is that agent: its two children, lead and peer, initialize as
// Claude Code; neither takes its seat until a tool is called, the first
// tool called (the lead's) claims the agent for the lead, and the peer's
// tools refuse, naming the seat the agent plays. The peer seat stays
// free, and an agent in another terminal (a seat server under another
// parent: sh) takes it. Other clients (the original's scripts, every
// other test here) still hold each seat at initialize, both from one
// process if they like.
func TestOneAgentOneSeat(t *testing.T) {
	cwd := t.TempDir()
	bin := hosttest.Binary()
	argv := func(seat string) []string {
		return []string{bin, "--room", "one", "--seat", seat, "--cwd", cwd}
	}
	dir := filepath.Join(cwd, room.Folder, "one")
	held := func(seat string) bool { return room.SeatHolder(dir, seat).Live }

	lead := hosttest.StartSeatAs(t, "claude-code", argv("lead"), "lead")
	peer := hosttest.StartSeatAs(t, "claude-code", argv("peer"), "peer")
	if held("lead") || held("peer") {
		t.Fatalf("a seat was taken at initialize by an agent running both seat servers: lead %v, peer %v", held("lead"), held("peer"))
	}
	if _, text, refused := lead.Call("room_status", nil); refused {
		t.Fatalf("the lead's first tool was refused: %s", text)
	}
	if !held("lead") {
		t.Fatal("the lead is not held after its first tool call")
	}
	_, text, _, err := peer.Try("room_status", nil)
	if err == nil && text == "" {
		t.Fatal("the peer's tool answered an agent that plays the lead")
	}
	msg := text
	if err != nil {
		msg = err.Error()
	}
	for _, want := range []string{"already plays the lead seat", "roundtable-one-lead", "another terminal"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the peer's refusal %q does not say %q", msg, want)
		}
	}
	if held("peer") {
		t.Fatal("the peer seat was taken by the agent that plays the lead")
	}

	// Another terminal: the peer's agent, the seat server's parent a
	// shell of its own (sh stays, since a command follows).
	other := hosttest.StartSeatAs(t, "claude-code", append([]string{"/bin/sh", "-c", `"$@"; exit $?`, "sh"}, argv("peer")...), "peer")
	if _, text, refused := other.Call("room_status", nil); refused {
		t.Fatalf("the peer's own agent was refused: %s", text)
	}
	if !held("peer") {
		t.Fatal("the peer's own agent, alone in its terminal, did not take the peer seat at its first tool call")
	}

	// The lead's agent ends: its claim goes with it.
	lead.Client.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ents, _ := os.ReadDir(room.ClaimsDir(dir))
		if len(ents) == 0 && !held("lead") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lead's claim or seat outlived its server: %d claims, lead held %v", len(ents), held("lead"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
