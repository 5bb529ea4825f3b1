//go:build linux

package debate

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
	"github.com/roundtable-dev/roundtable/room"
)

// TestPlayedSeatThroughScriptedAgent plays a room's peer with the real
// scripted ACP agent (not a seam): the agent is sent the whole seat prompt
// and room once, then only the posts since and the instruction, never a
// persona debate's follow-up; what it did goes with its post as activity,
// not into the text; and nothing of it is left running.
func TestPlayedSeatThroughScriptedAgent(t *testing.T) {
	bin := acpagent.Build(t)
	pidDir, record := t.TempDir(), t.TempDir()+"/record.jsonl"
	script := acpagent.WriteScript(t, acpagent.Script{PidDir: pidDir, Record: record, Turns: []acpagent.Turn{
		{Steps: []acpagent.Step{
			{Tool: &acpagent.Tool{Kind: "read", Title: "store.go", Path: "room/store.go"}},
			{Say: "kind: objection\n\nReads dominate, but the store's tail says otherwise.", ChunkSize: 7},
		}},
		{Steps: []acpagent.Step{{Say: "kind: concession\n\nFair: write-through it is."}}},
	}})
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "cache", room.CreateOptions{Topic: "Should the cache be write-through", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	lead := &scriptedSeat{replies: []string{
		"kind: brief\n\nLEAD-ONE: write-through, because reads dominate.",
		"kind: decision\n\nLEAD-TWO: we keep write-through.",
		"# Spec\n\n## Decision\nWrite-through.",
	}}
	g, err := TakeSeat(SeatSettings{Room: "cache", Seat: room.SeatLead, Cwd: cwd, Provider: ProviderConfig{Name: ProviderMock}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	g.p = seatProvider{Provider: lead}
	peer := SeatSettings{
		Room: "cache", Seat: room.SeatPeer, Cwd: cwd, Agent: "acp:" + bin,
		AgentEnv: []string{acpagent.EnvScript + "=" + script}, Getenv: func(string) string { return "" },
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var peerErr error
	var wg sync.WaitGroup
	wg.Go(func() { peerErr = PlaySeat(ctx, peer) })
	leadErr := g.Play(ctx)
	g.Close()
	wg.Wait()
	if leadErr != nil || peerErr != nil {
		t.Fatalf("lead: %v; peer: %v", leadErr, peerErr)
	}
	r, err := room.Open(cwd, "cache")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range st.Messages {
		got = append(got, m.Seat+"/"+m.Kind+"/"+m.Text)
	}
	want := []string{
		"lead/brief/LEAD-ONE: write-through, because reads dominate.",
		"peer/objection/Reads dominate, but the store's tail says otherwise.",
		"lead/decision/LEAD-TWO: we keep write-through.",
		"peer/concession/Fair: write-through it is.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || st.Closed == nil {
		t.Fatalf("room (closed %+v):\n%s\nwant:\n%s", st.Closed, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A command agent that may only read works on a copy, and says so first.
	if a := st.Messages[1].Activity; len(a) != 2 || a[0].Text != copyNote || a[1].Kind != "tool" || !strings.Contains(a[1].Text, "store.go") {
		t.Fatalf("the objection's activity = %+v, want the copy's note and the agent's read of store.go", a)
	}
	if len(st.Messages[3].Activity) != 0 {
		t.Fatalf("the concession carries activity %+v it did not have", st.Messages[3].Activity)
	}
	var prompts []string
	for _, rec := range acpagent.Records(t, record) {
		if p, ok := rec["prompt"].(string); ok {
			prompts = append(prompts, p)
		}
	}
	if len(prompts) != 2 {
		t.Fatalf("the agent was prompted %d times, want 2: %q", len(prompts), prompts)
	}
	first, second := prompts[0], prompts[1]
	for _, want := range []string{"peer seat", "Should the cache be write-through", "LEAD-ONE", "Write your answer to the lead now."} {
		if !strings.Contains(first, want) {
			t.Errorf("the first prompt lacks %q:\n%s", want, first)
		}
	}
	if !strings.Contains(second, "LEAD-TWO") || !strings.HasSuffix(strings.TrimSpace(second), "Write your answer to the lead now.") {
		t.Errorf("the second prompt lacks the new post or the instruction:\n%s", second)
	}
	for _, never := range []string{"LEAD-ONE", "CONSENSUS", "peer seat of"} {
		if strings.Contains(second, never) {
			t.Errorf("the second prompt repeats or misreads %q:\n%s", never, second)
		}
	}
	agents, _ := acpagent.Pids(pidDir)
	if len(agents) != 1 {
		t.Fatalf("agents started: %v, want one for the seat's whole game", agents)
	}
	if m := acpagent.GroupMembers(agents[0]); len(m) > 0 {
		t.Fatalf("the seat's agent group is still alive: %v", m)
	}
}
