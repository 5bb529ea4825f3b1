//go:build llm

package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// TestLLMCouncil plays a council of three to closure against llama-server:
// the lead is this test, a scripted MCP client of the real seat server;
// the critic is a real coding agent (opencode) and the analyst a model
// (the tiny model over the OpenAI API), both played by `roundtable
// council`. Each seat speaks in turn, once a round; the lead closes when
// the budget of one round is spent, and the council leaves.
func TestLLMCouncil(t *testing.T) {
	a := agentByPreset(t, "opencode")
	env := append(agentEnv(t, a), "ROUNDTABLE_BASE_URL="+llmURLForModels(t))
	cwd := t.TempDir()
	writeFile(t, filepath.Join(cwd, "NOTES.md"), "# Notes\nUploads go through the API servers today.\n")
	const roomName = "uploads-council"

	var out, errOut lockedBuffer
	council := exec.Command(roundtableBin(t), "council", "--room", roomName, "--cwd", cwd, "--budget", "1",
		"--topic", "Should uploads go straight to S3?", "--seat", "critic=acp:opencode", "--seat", "analyst=model:openai/tiny")
	council.Dir = cwd
	council.Env = withRace(env)
	council.Stdout, council.Stderr = &out, &errOut
	if err := council.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- council.Wait() }()
	defer func() {
		select {
		case <-exited:
		default:
			_ = council.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				_ = council.Process.Kill()
			}
		}
		if t.Failed() {
			t.Logf("council stdout:\n%s\nstderr:\n%s", tail(out.String(), 3000), tail(errOut.String(), 3000))
		}
	}()
	// The council made its room, with its seats, before it printed them.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "analyst: played here"); {
		if time.Now().After(deadline) {
			t.Fatal("the council printed no setup in 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}

	stderr := &lockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(roundtableBin(t), withRace(env),
		[]string{"--room", roomName, "--seat", "lead", "--agent", "scripted-lead", "--cwd", cwd}, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: "roundtable-e2e-lead", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		cancel()
		t.Fatalf("initialize the lead: %v (stderr: %s)", err, stderr.String())
	}
	cancel()
	lead := &leadClient{t: t, c: c, stderr: stderr}
	defer lead.close()

	st := lead.ok("room_status", nil)
	if st["turn"] != "lead" || strings.Join(strs(st["seats"]), ",") != "lead,critic,analyst" {
		t.Fatalf("the lead's status: %v", st)
	}
	if p := lead.ok("post", map[string]any{"kind": "brief", "text": "## Brief\nShould uploads go straight to S3 with presigned URLs? Answer in two sentences."}); p["turn"] != "critic" {
		t.Fatalf("after the brief the turn is %v, want the critic's", p["turn"])
	}
	var got []map[string]any
	for deadline := time.Now().Add(6 * time.Minute); len(got) < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("the critic and the analyst did not both speak in 6 minutes: %v", got)
		}
		select {
		case err := <-exited:
			t.Fatalf("the council ended before its seats spoke: %v", err)
		default:
		}
		w := lead.ok("wait_for_message", map[string]any{"timeout_seconds": 20})
		if w["closed"] == true {
			t.Fatalf("the room closed while the lead waited: %v", w)
		}
		if msgs, ok := w["messages"].([]any); ok {
			for _, m := range msgs {
				mm, _ := m.(map[string]any)
				got = append(got, mm)
			}
		}
	}
	if len(got) != 2 || got[0]["seat"] != "critic" || got[1]["seat"] != "analyst" {
		t.Fatalf("the round after the brief: %v, want the critic's post, then the analyst's", got)
	}
	if !strings.Contains(str(got[0]["agent"]), "acp:opencode") || !strings.Contains(str(got[1]["agent"]), "tiny") {
		t.Errorf("the posts are signed %q and %q, want the agent's and the model's", got[0]["agent"], got[1]["agent"])
	}

	// One round was the budget: the lead writes the spec and closes; the
	// council's seats leave and the command ends.
	lead.refused("post", map[string]any{"text": "one more"}, "budget")
	lead.ok("write_spec", map[string]any{"text": "# Decision\nPresigned uploads, behind a switch.\n"})
	lead.ok("close_room", map[string]any{"reason": "budget spent"})
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the council ended with %v after the room closed", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the council still runs 60 s after the room closed")
	}
	r, err := room.Open(cwd, roomName)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Messages) != 3 || rs.Closed == nil {
		t.Fatalf("on disk: %d messages, closed %v", len(rs.Messages), rs.Closed)
	}
	t.Logf("critic said %q; analyst said %q", tail(str(got[0]["text"]), 120), tail(str(got[1]["text"]), 120))
}

// strs is a JSON array of strings.
func strs(v any) []string {
	a, _ := v.([]any)
	out := make([]string, 0, len(a))
	for _, x := range a {
		out = append(out, str(x))
	}
	return out
}
