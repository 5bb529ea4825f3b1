package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// TestSeatCommandFlags parses the arguments the new-MCP-room page shows
// with the real "serve" command and the bare root form, as an agent CLI
// would start them: every flag must be known, and each value must land in
// its own option. Renaming a flag of serve fails here, not in what users
// paste.
func TestSeatCommandFlags(t *testing.T) {
	for _, v := range []string{"ROOM", "SEAT", "AGENT", "TOPIC", "BUDGET", "CWD", "SPEC"} {
		t.Setenv("ROUNDTABLE_"+v, "") // only the flags count
	}
	cwd := t.TempDir()
	seats := []seatcmd.Seat{
		{Room: "cache-design", Seat: room.SeatLead, Agent: "claude", Topic: "Should the cache be write-through? --budget=1 'quoted'", Budget: 7, Cwd: cwd},
		{Room: "v1.2", Seat: room.SeatPeer, Agent: "codex 5", Topic: "Any topic", Budget: 100, Spec: "docs/SPEC-v1.md", Cwd: cwd},
		{Room: "007", Seat: room.SeatPeer},
	}
	commands := map[string]func() *cobra.Command{"serve": newServeCmd, "bare roundtable": newRoot}
	for what, mk := range commands {
		for _, s := range seats {
			t.Run(what+"/"+s.Room, func(t *testing.T) {
				c := mk()
				args := s.Args()
				for _, a := range args {
					name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
					if c.Flags().Lookup(name) == nil {
						t.Errorf("%s has no flag --%s (the page writes %q)", what, name, a)
					}
				}
				if err := c.ParseFlags(args); err != nil {
					t.Fatalf("%s refuses %q: %v", what, args, err)
				}
				if rest := c.Flags().Args(); len(rest) != 0 {
					t.Errorf("%s left %q as arguments", what, rest)
				}
				sf, err := readSeatFlags(c)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				want := seatFlags{room: s.Room, seat: s.Seat, agent: s.Agent, topic: s.Topic, cwd: s.Cwd, spec: s.Spec, budget: s.Budget}
				if s.Budget == 0 {
					want.budget = 12 // the flag's default
				}
				if sf != want {
					t.Errorf("%s read\n %+v\nwant\n %+v", what, sf, want)
				}
			})
		}
	}
}

// TestSeatCommandThroughEachCLI checks that the server part of every
// client's command is exactly the seat's command, so what each agent CLI
// stores and later runs is what the test above parsed.
func TestSeatCommandThroughEachCLI(t *testing.T) {
	s := seatcmd.Seat{Program: "/opt/roundtable", Room: "r", Seat: room.SeatLead, Topic: "T", Budget: 3, Cwd: "/w"}
	for _, c := range seatcmd.Clients() {
		argv := c.Argv(s)
		if c == seatcmd.JSONFile {
			continue
		}
		i := slices.Index(argv, "/opt/roundtable")
		if i < 0 {
			t.Fatalf("%s does not start the program: %q", c.Name(), argv)
		}
		rest := slices.DeleteFunc(slices.Clone(argv[i+1:]), func(a string) bool { return a == "--" })
		if !slices.Equal(rest, s.Args()) {
			t.Errorf("%s passes %q, want %q", c.Name(), rest, s.Args())
		}
	}
}
