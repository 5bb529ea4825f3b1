package main

import (
	"fmt"
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

// TestPlayedSeatsSayWhatTheyPost: two `roundtable seat` processes play a
// room to its close, each saying on stderr what it posted as it goes (a
// line a post) and, for the lead, when it writes the spec; the lines match
// the room's messages.
func TestPlayedSeatsSayWhatTheyPost(t *testing.T) {
	cwd := t.TempDir()
	if _, _, code := runBin(t, "", "seed", "--room", "q", "--topic", "Queue in SQLite?", "--budget", "2", "--cwd", cwd); code != 0 {
		t.Fatalf("seed: exit %d", code)
	}
	type played struct {
		stderr string
		code   int
	}
	peer := make(chan played, 1)
	go func() {
		_, stderr, code := runBin(t, "", "seat", "--room", "q", "--seat", "peer", "--provider", "mock", "--fast", "--cwd", cwd)
		peer <- played{stderr, code}
	}()
	_, leadErr, code := runBin(t, "", "seat", "--room", "q", "--seat", "lead", "--provider", "mock", "--fast", "--cwd", cwd)
	p := <-peer
	if code != 0 || p.code != 0 {
		t.Fatalf("lead exit %d:\n%s\npeer exit %d:\n%s", code, leadErr, p.code, p.stderr)
	}
	r, err := room.Open(cwd, "q")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	said := map[string]string{room.SeatLead: leadErr, room.SeatPeer: p.stderr}
	round := 0
	for _, m := range st.Messages {
		if m.Seat == room.SeatLead {
			round++
		}
		line := fmt.Sprintf("roundtable: %s posted its %s in round %d of 2 (%d words)\n", m.Seat, m.Kind, round, len(strings.Fields(m.Text)))
		if !strings.Contains(said[m.Seat], line) {
			t.Errorf("message %d (%s's %s) not said on its stderr:\n%s", m.Seq, m.Seat, m.Kind, said[m.Seat])
		}
	}
	if n := strings.Count(leadErr, " posted its ") + strings.Count(p.stderr, " posted its "); n != len(st.Messages) {
		t.Errorf("%d post lines for %d messages", n, len(st.Messages))
	}
	if !strings.Contains(leadErr, "roundtable: lead is writing the spec (budget spent)\n") || strings.Contains(p.stderr, "writing the spec") {
		t.Errorf("the lead's spec not said (or said by the peer):\nlead:\n%s\npeer:\n%s", leadErr, p.stderr)
	}
}
