package seatcmd

import (
	"slices"
	"testing"
	"time"
)

func TestPlayedArgs(t *testing.T) {
	p := Played{
		Program: "/opt/roundtable", Room: "r", Seat: "peer", Cwd: "/w", Persona: "A=b",
		Provider: "openai", Model: "m", Agent: "acp:codex", AllowAgentTools: "write",
		TurnTimeout: time.Minute, Topic: "T", Budget: 3, Spec: "SPEC-r.md", Fast: true,
	}
	want := []string{
		"/opt/roundtable", "seat", "--room=r", "--seat=peer", "--cwd=/w", "--persona=A=b",
		"--agent=acp:codex", "--allow-agent-tools=write", "--turn-timeout=1m0s", "--topic=T", "--budget=3", "--fast",
	}
	if got := p.Command(); !slices.Equal(got, want) {
		t.Fatalf("command\n %q\nwant\n %q", got, want)
	}
	// A model seat: the provider flags, no agent ones; the default spec and
	// empty values are left out.
	p = Played{Room: "r", Seat: "lead", Provider: "mock", AllowAgentTools: "exec", Spec: "docs/x.md"}
	want = []string{"roundtable", "seat", "--room=r", "--seat=lead", "--provider=mock", "--spec=docs/x.md"}
	if got := p.Command(); !slices.Equal(got, want) {
		t.Fatalf("command\n %q\nwant\n %q", got, want)
	}
}
