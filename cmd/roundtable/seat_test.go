package main

import (
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// TestPlayedSeatCommandFlags parses the `roundtable seat` command lines
// that the new-MCP-room form starts with the real command: the first
// argument is the subcommand, every flag is known and each value lands in
// its flag. Renaming a flag of `seat` fails here, not in the form.
func TestPlayedSeatCommandFlags(t *testing.T) {
	cwd := t.TempDir()
	seats := []seatcmd.Played{
		{Room: "cache-design", Seat: room.SeatPeer, Cwd: cwd, Persona: "Security Reviewer=assumes every surface is attacked; --budget=1", Provider: "openai", Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:8080/v1", TurnTimeout: 90 * time.Second, Fast: true},
		{Room: "v1.2", Seat: room.SeatLead, Agent: "acp:codex-acp --model 'o 3'", AllowAgentTools: "write,exec", Topic: "Any topic", Budget: 7, Spec: "docs/SPEC.md"},
		{Room: "007", Seat: room.SeatPeer, Provider: "mock", Agent: ""},
	}
	for _, p := range seats {
		t.Run(p.Room, func(t *testing.T) {
			args := p.Args()
			if args[0] != seatcmd.SeatSubcommand {
				t.Fatalf("args start %q", args[0])
			}
			root := newRoot()
			c, rest, err := root.Find(args)
			if err != nil || c.Name() != "seat" || len(rest) != len(args)-1 {
				t.Fatalf("root finds %v (%q, %v)", c.Name(), rest, err)
			}
			for _, a := range rest {
				name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
				if c.Flags().Lookup(name) == nil {
					t.Errorf("seat has no flag --%s (the form writes %q)", name, a)
				}
			}
			if err := c.ParseFlags(rest); err != nil {
				t.Fatalf("seat refuses %q: %v", rest, err)
			}
			if left := c.Flags().Args(); len(left) != 0 {
				t.Errorf("left %q as arguments", left)
			}
			get := func(name string) string { return c.Flags().Lookup(name).Value.String() }
			want := map[string]string{
				seatcmd.FlagRoom: p.Room, seatcmd.FlagSeat: p.Seat, seatcmd.FlagCwd: p.Cwd, seatcmd.FlagPersona: p.Persona,
				seatcmd.FlagProvider: p.Provider, seatcmd.FlagModel: p.Model, seatcmd.FlagBaseURL: p.BaseURL,
				seatcmd.FlagAgent: p.Agent, seatcmd.FlagAllowAgentTools: p.AllowAgentTools, seatcmd.FlagTopic: p.Topic, seatcmd.FlagSpec: p.Spec,
			}
			if p.Agent != "" {
				want[seatcmd.FlagProvider], want[seatcmd.FlagModel], want[seatcmd.FlagBaseURL] = "", "", ""
			}
			for name, v := range want {
				if got := get(name); got != v {
					t.Errorf("--%s = %q, want %q", name, got, v)
				}
			}
			budget, timeout, fast := "12", "2m0s", "false"
			if p.Budget > 0 {
				budget = "7"
			}
			if p.TurnTimeout > 0 {
				timeout = p.TurnTimeout.String()
			}
			if p.Fast {
				fast = "true"
			}
			if get(seatcmd.FlagBudget) != budget || get(seatcmd.FlagTurnTimeout) != timeout || get(seatcmd.FlagFast) != fast {
				t.Errorf("budget %s, turn timeout %s, fast %s", get(seatcmd.FlagBudget), get(seatcmd.FlagTurnTimeout), get(seatcmd.FlagFast))
			}
		})
	}
}
