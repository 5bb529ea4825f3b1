package debate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

func TestCouncilSeatsAndFile(t *testing.T) {
	for _, bad := range []string{"critic", "=mcp", "critic=", "critic=gpt", "critic=model:"} {
		if _, err := ParseCouncilSeat(bad); err == nil {
			t.Errorf("--seat %q was taken", bad)
		}
	}
	// A provider or an agent preset named bare is pointed to its kind.
	for mind, want := range map[string]string{
		"mock": "(did you mean model:mock?)", "openrouter/openai/gpt-4o-mini": "(did you mean model:openrouter/openai/gpt-4o-mini?)",
		"codex": "(did you mean acp:codex?)", "banana": "",
	} {
		_, err := ParseCouncilSeat("critic=" + mind)
		switch {
		case err == nil:
			t.Errorf("--seat critic=%s was taken", mind)
		case want != "" && !strings.HasSuffix(err.Error(), " "+want),
			want == "" && strings.Contains(err.Error(), "did you mean"):
			t.Errorf("--seat critic=%s: %v; want %q", mind, err, want)
		}
	}
	cs, err := ParseCouncilSeat(" security = model:openrouter/openai/gpt-4o-mini ")
	if err != nil || cs.Name != "security" || cs.provider() != (ProviderConfig{Name: "openrouter", Model: "openai/gpt-4o-mini"}) {
		t.Fatalf("a model seat: %+v %v (provider %+v)", cs, err, cs.provider())
	}

	// Without a lead, the lead is an MCP agent the user starts, first.
	c := Council{Room: "c", Seats: []CouncilSeat{{"critic", "acp:codex"}, {"peer", "mcp"}}}
	if err := c.Normalize(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.SeatNames(), ","); got != "lead,critic,peer" || c.Seats[0].Mind != MindMCP {
		t.Fatalf("seats %s, lead %+v", got, c.Seats[0])
	}
	// A lead given later moves first.
	c = Council{Room: "c", Seats: []CouncilSeat{{"critic", "model:mock"}, {"lead", "person"}}}
	if err := c.Normalize(); err != nil || strings.Join(c.SeatNames(), ",") != "lead,critic" {
		t.Fatalf("seats %v: %v", c.SeatNames(), err)
	}
	for name, bad := range map[string]Council{
		"no room":   {Seats: []CouncilSeat{{"a", "mcp"}}},
		"one seat":  {Room: "c", Seats: []CouncilSeat{{"lead", "mcp"}}},
		"nine":      {Room: "c", Seats: []CouncilSeat{{"a", "mcp"}, {"b", "mcp"}, {"c", "mcp"}, {"d", "mcp"}, {"e", "mcp"}, {"f", "mcp"}, {"g", "mcp"}, {"h", "mcp"}}},
		"twice":     {Room: "c", Seats: []CouncilSeat{{"a", "mcp"}, {"a", "person"}}},
		"bad agent": {Room: "c", Seats: []CouncilSeat{{"a", "acp:"}}},
	} {
		if err := bad.Normalize(); err == nil {
			t.Errorf("%s: a council %+v was taken", name, bad)
		}
	}

	file := filepath.Join(t.TempDir(), "council.toml")
	if err := os.WriteFile(file, []byte("room = \"cache\"\ntopic = \"Write-through?\"\nbudget = 3\n[[seat]]\nname = \"critic\"\nmind = \"acp:codex\"\n[[seat]]\nname = \"peer\"\nmind = \"mcp\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fc, err := LoadCouncil(file)
	if err != nil || fc.Room != "cache" || fc.Budget != 3 || len(fc.Seats) != 2 || fc.Seats[0] != (CouncilSeat{"critic", "acp:codex"}) {
		t.Fatalf("the council file: %+v %v", fc, err)
	}
	if err := os.WriteFile(file, []byte("room = \"cache\"\nmembers = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCouncil(file); err == nil || !strings.Contains(err.Error(), "members") {
		t.Errorf("a council file with an unknown key: %v", err)
	}
}

// A council given no room is named after its topic, as the new-room form
// names one; a name taken gives the next free one, never the old room.
func TestCouncilNamedAfterItsTopic(t *testing.T) {
	cwd := t.TempDir()
	c := Council{Topic: "Adopt GraphQL?"}
	c.NameRoom(cwd)
	if c.Room != "adopt-graphql" {
		t.Fatalf("room %q; want adopt-graphql", c.Room)
	}
	if _, err := room.Seed(cwd, c.Room, room.CreateOptions{Topic: c.Topic, Budget: 2}); err != nil {
		t.Fatal(err)
	}
	again := Council{Topic: "Adopt GraphQL?"}
	again.NameRoom(cwd)
	if again.Room != "adopt-graphql-2" {
		t.Errorf("a second council on the topic: room %q; want adopt-graphql-2", again.Room)
	}
	given := Council{Room: "mine", Topic: "Adopt GraphQL?"}
	given.NameRoom(cwd)
	if given.Room != "mine" {
		t.Errorf("a room given was renamed %q", given.Room)
	}
	bare := Council{Topic: "???"}
	bare.NameRoom(cwd)
	if bare.Room != "council" || room.ValidateName(bare.Room) != nil {
		t.Errorf("a topic with no letter: room %q", bare.Room)
	}
}

// TestCouncilSetup: a council whose seats are all the user's is created
// with its seats in order, and the setup says how to start each.
func TestCouncilSetup(t *testing.T) {
	cwd := t.TempDir()
	var out strings.Builder
	c := Council{Room: "cache", Topic: "Write-through?", Budget: 2, Seats: []CouncilSeat{{"critic", "mcp"}, {"Dr Ada", "person"}}}
	if err := RunCouncil(context.Background(), c, CouncilOptions{Cwd: cwd, Setup: &out}); err != nil {
		t.Fatal(err)
	}
	r, err := room.Open(cwd, "cache")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Config().Seats(), ","); got != "lead,critic,Dr Ada" {
		t.Fatalf("the room's seats: %s", got)
	}
	setup := out.String()
	for _, want := range []string{
		"Council cache: lead → critic → Dr Ada",
		seatcmd.ClaudeCode.Text(seatcmd.Seat{Program: "roundtable", Room: "cache", Seat: "critic", Cwd: cwd}),
		"claude mcp add roundtable-cache-critic -- roundtable --room=cache --seat=critic --cwd=" + seatcmd.Quote(cwd),
		"codex mcp add roundtable-cache-critic -- roundtable --room=cache --seat=critic --cwd=" + seatcmd.Quote(cwd),
		"roundtable watch --room cache --take 'Dr Ada' --cwd " + seatcmd.Quote(cwd),
	} {
		if !strings.Contains(setup, want) {
			t.Errorf("the setup lacks %q:\n%s", want, setup)
		}
	}
	// The same room with other seats is refused.
	c.Seats = []CouncilSeat{{"peer", "mcp"}}
	if err := RunCouncil(context.Background(), c, CouncilOptions{Cwd: cwd}); err == nil || !strings.Contains(err.Error(), "exists with the seats") {
		t.Errorf("a council on a room with other seats: %v", err)
	}
}

// TestCouncilPlaysToClosure: a council of four model seats (the mock)
// plays in turn order, every seat once a round, until the lead writes the
// spec and closes.
func TestCouncilPlaysToClosure(t *testing.T) {
	cwd := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := Council{Room: "uploads", Topic: "Should uploads go straight to S3?", Budget: 2, Seats: []CouncilSeat{
		{"lead", "model:mock"}, {"critic", "model:mock"}, {"security", "model:mock"}, {"peer", "model:mock"},
	}}
	var out strings.Builder
	if err := RunCouncil(ctx, c, CouncilOptions{Cwd: cwd, Setup: &out}); err != nil {
		t.Fatal(err)
	}
	// It says how the room ended, and how to read it, as a seat does.
	if got := out.String(); !strings.Contains(got, "Council uploads closed (") || !strings.Contains(got, "the spec is SPEC-uploads.md.") ||
		!strings.Contains(got, "roundtable transcript --room uploads --cwd "+seatcmd.Quote(cwd)) {
		t.Errorf("the council's output does not say how it ended:\n%s", got)
	}
	r, err := room.Open(cwd, "uploads")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil {
		t.Fatal("the council did not close")
	}
	order := []string{"lead", "critic", "security", "peer"}
	for i, m := range st.Messages {
		if m.Seat != order[i%4] {
			t.Fatalf("message %d is the %s's, want the %s's: the turn order broke", m.Seq, m.Seat, order[i%4])
		}
	}
	if len(st.Messages) < 4 {
		t.Fatalf("%d messages: not every seat spoke", len(st.Messages))
	}
	// Each post was said as it came, a whole line each (four seats
	// writing at once), and the lead's spec before the close.
	got := out.String()
	round := 0
	for _, m := range st.Messages {
		if m.Seat == "lead" {
			round++
		}
		if line := fmt.Sprintf("\n  %s posted its %s in round %d of 2 (%d words)\n", m.Seat, m.Kind, round, len(strings.Fields(m.Text))); !strings.Contains(got, line) {
			t.Errorf("message %d not said as %q:\n%s", m.Seq, line, got)
		}
	}
	if n := strings.Count(got, " posted its "); n != len(st.Messages) {
		t.Errorf("%d post lines for %d messages:\n%s", n, len(st.Messages), got)
	}
	if spec, end := strings.Index(got, "\n  lead is writing the spec (budget spent)\n"), strings.Index(got, "Council uploads closed ("); spec < 0 || spec > end {
		t.Errorf("the spec's line is missing or after the close:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(cwd, "SPEC-uploads.md")); err != nil {
		t.Errorf("the lead wrote no spec: %v", err)
	}
}

// TestCouncilStopsWhenASeatCannotPlay: a seat whose mind cannot start
// ends the council with a sentence naming it, not a wait for ever.
func TestCouncilStopsWhenASeatCannotPlay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := Council{Room: "broken", Topic: "T", Budget: 2, Seats: []CouncilSeat{{"lead", "model:mock"}, {"critic", "model:nosuchprovider"}}}
	err := RunCouncil(ctx, c, CouncilOptions{Cwd: t.TempDir(), Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), "seat critic") || ctx.Err() != nil {
		t.Fatalf("a council with a seat that cannot play: %v (ctx %v)", err, ctx.Err())
	}
}

// TestCouncilSaysAnEmptySeatOnce: the seats a council plays, all waiting
// for an MCP seat nobody has started, say so once between them, pointing
// to the setup.
func TestCouncilSaysAnEmptySeatOnce(t *testing.T) {
	cwd := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := Council{Room: "empty", Topic: "Adopt gRPC?", Budget: 2, Seats: []CouncilSeat{
		{"lead", "model:mock"}, {"peer", "mcp"}, {"critic", "model:mock"}, {"security", "model:mock"},
	}}
	var out syncBuffer
	done := make(chan error, 1)
	empty := &emptySeats{said: map[string]bool{}}
	go func() {
		done <- RunCouncil(ctx, c, CouncilOptions{Cwd: cwd, Setup: &out, AloneAfter: 20 * time.Millisecond, empty: empty})
	}()
	// Each of the three played seats, waiting for the peer, finds its
	// seat empty.
	asked := func() int {
		empty.mu.Lock()
		defer empty.mu.Unlock()
		return empty.asked
	}
	for asked() < 3 {
		select {
		case err := <-done:
			t.Fatalf("the council ended (%v) before its seats found the peer's empty (%d):\n%s", err, asked(), out.String())
		case <-ctx.Done():
			t.Fatalf("%d of 3 seats found the peer's seat empty:\n%s", asked(), out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	<-done
	if n := strings.Count(out.String(), "  the peer seat is still empty: start it as the setup above says\n"); n != 1 {
		t.Errorf("said %d times:\n%s", n, out.String())
	}
	if strings.Contains(out.String(), "which nobody has taken") {
		t.Errorf("a council's seat gave the lone seat's line:\n%s", out.String())
	}
}
