package debate

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// memSessions keeps sessions in memory, as a seat's room does on disk.
type memSessions struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *memSessions) Session(speaker string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[speaker]
}

func (s *memSessions) SaveSession(speaker, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[speaker] = id
}

// TestAgentSessionResumed: an agent started again for a speaker whose
// session was kept resumes it (session/resume) when the agent offers
// that, with its read-only restraint applied again; an agent that does
// not offer it gets a new session, which is kept instead.
func TestAgentSessionResumed(t *testing.T) {
	bin := acpagent.Build(t)
	start := func(s acpagent.Script, sessions AgentSessions) (*agentProc, []map[string]any) {
		t.Helper()
		spec, err := ParseAgent("acp:opencode")
		if err != nil {
			t.Fatal(err)
		}
		spec.Command = append([]string{bin}, spec.Command[1:]...)
		a, err := startAgent(context.Background(), spec, AgentOptions{
			Cwd: t.TempDir(), Grace: 300 * time.Millisecond, Sessions: sessions,
			Env: []string{acpagent.EnvScript + "=" + acpagent.WriteScript(t, s)},
		}, "critic")
		if err != nil {
			t.Fatal(err)
		}
		a.stop(false)
		return a, acpagent.Records(t, s.Record)
	}
	kept := &memSessions{m: map[string]string{}}
	s := acpagent.Script{Resume: true, ConfigModes: []string{"build", "plan"}, Record: filepath.Join(t.TempDir(), "first.jsonl")}
	first, _ := start(s, kept)
	if first.resumed || kept.Session("critic") != string(first.session) || first.session == "" {
		t.Fatalf("first start: resumed %v, session %q, kept %q; want a new session, kept", first.resumed, first.session, kept.Session("critic"))
	}

	s.Record = filepath.Join(t.TempDir(), "second.jsonl")
	second, recs := start(s, kept)
	if !second.resumed || second.session != first.session {
		t.Fatalf("second start: resumed %v, session %q; want session %q resumed", second.resumed, second.session, first.session)
	}
	var resumed, restrained bool
	for _, r := range recs {
		if r["resume"] == string(first.session) {
			resumed = true
		}
		if r["config"] == "mode" && r["value"] == "plan" {
			restrained = true
		}
		if _, ok := r["cwd"]; ok && r["resume"] == nil {
			t.Errorf("the second start opened a new session too: %v", r)
		}
	}
	if !resumed || !restrained {
		t.Errorf("the agent recorded %v: want session/resume of %s and the read-only mode (plan) set again", recs, first.session)
	}

	// An agent that does not offer session/resume: a new session, kept.
	s.Resume = false
	s.Record = filepath.Join(t.TempDir(), "third.jsonl")
	third, recs := start(s, kept)
	if third.resumed || third.session == first.session || kept.Session("critic") != string(third.session) {
		t.Fatalf("without resume: resumed %v, session %q (first %q), kept %q", third.resumed, third.session, first.session, kept.Session("critic"))
	}
	for _, r := range recs {
		if r["resume"] != nil {
			t.Errorf("session/resume sent to an agent that does not offer it: %v", r)
		}
	}
}
