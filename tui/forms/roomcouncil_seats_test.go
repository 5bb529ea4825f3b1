//go:build unix

package forms

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
)

// councilSeatsForm is newSeatsForm at w×h with the room named cache, its
// topic typed and the seats "lead, critic, security, peer", the critic
// a model (the mock, from the environment) and the others agents the
// user starts; the focus is on the critic's provider.
func councilSeatsForm(t *testing.T, w, h int) (RoomForm, *seatproc.Group, string) {
	t.Helper()
	f, g, cwd := newSeatsForm(t, fakeSeat(t, "exec sleep 600"), map[string]string{"ROUNDTABLE_PROVIDER": "mock"})
	f, _ = f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Should the cache be write-through?")...)
	keys = append(keys, "tab", "tab", "end", "ctrl+u")
	keys = append(keys, typeText(nil, "lead, critic, security, peer")...)
	// The spec, the lead's mind and label, the critic's mind: a model.
	keys = append(keys, "tab", "tab", "tab", "tab", "right", "tab")
	f, _, _ = driveSeats(t, f, keys...)
	if f.focus != seatField(1, kindProvider) || f.seatChoices[1].mind != mindModel {
		t.Fatalf("focus %d, the critic's mind %d", f.focus, f.seatChoices[1].mind)
	}
	return f, g, cwd
}

// TestRoomFormCouncilCreates creates a council of four from the form,
// the critic a model: room.json lists the seats, each seat has its own
// prompt, the critic's `roundtable seat` starts with the contract's flags
// and the other seats' commands are their MCP servers.
func TestRoomFormCouncilCreates(t *testing.T) {
	f, g, cwd := councilSeatsForm(t, 120, 60)
	f, _, waits := driveSeats(t, f, "ctrl+s")
	if !f.Ready() || len(waits) != 1 {
		t.Fatalf("ready %v, err %q, waits %d", f.Ready(), f.err, len(waits))
	}
	seats := []string{"lead", "critic", "security", "peer"}
	dir := filepath.Join(cwd, ".roundtable", "cache")
	data, err := os.ReadFile(filepath.Join(dir, "room.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct{ Seats []string }
	if err := json.Unmarshal(data, &cfg); err != nil || !slices.Equal(cfg.Seats, seats) {
		t.Errorf("room.json seats %v (%v): %s", cfg.Seats, err, data)
	}
	// One prompt a seat, in turn order, each naming its seat and the
	// turn order: the council's, not lead.md and peer.md of two.
	if len(f.res.Prompts) != 4 {
		t.Fatalf("prompts %v", f.res.Prompts)
	}
	for i, seat := range seats {
		if want := filepath.Join(dir, room.PromptFile(seat)); f.res.Prompts[i] != want {
			t.Errorf("prompt %d is %s, want %s", i, f.res.Prompts[i], want)
		}
		text, err := os.ReadFile(f.res.Prompts[i])
		if err != nil || !strings.Contains(string(text), "lead → critic → security → peer") {
			t.Errorf("the %s seat's prompt does not give the council's turns (%v):\n%.400s", seat, err, text)
		}
	}
	log := waitLog(t, filepath.Join(dir, seatproc.LogName("critic")), "args: ")
	if want := "args: seat --room=cache --seat=critic --cwd=" + cwd + " --provider=mock\n"; !strings.Contains(log, want) {
		t.Errorf("the critic's command: %s, want %s", log, want)
	}
	for _, other := range []string{"lead", "security", "peer"} {
		if _, ok := g.Lookup("cache", other); ok {
			t.Errorf("the %s seat was started", other)
		}
	}
	_, msgs, _ := driveSeats(t, f, "2")
	if text, _ := clipboard(msgs[0]); text != "roundtable seat --room=cache --seat=critic --cwd="+cwd+" --provider=mock" {
		t.Errorf("2 copied %q", text)
	}
	for i, want := range map[int]string{0: "claude mcp add roundtable-cache-lead ", 2: "claude mcp add roundtable-cache-security ", 3: "codex mcp add roundtable-cache-peer "} {
		_, msgs, _ := driveSeats(t, f, fmt.Sprint(i+1))
		text, _ := clipboard(msgs[0])
		if !strings.HasPrefix(text, want) || text != seatcmd.Shell(f.clients[i].Argv(f.res.seat(i))) || !strings.Contains(text, "--seat="+seats[i]) {
			t.Errorf("%d copied %q, want %s…", i+1, text, want)
		}
	}
	_, msgs, _ = driveSeats(t, f, "m")
	if text, _ := clipboard(msgs[0]); strings.Contains(text, "roundtable-cache-critic") || !strings.Contains(text, `"roundtable-cache-security"`) {
		t.Errorf("m copied %q", text)
	}
	page := strings.Join(strings.Fields(plain(f.View())), " ")
	for _, want := range []string{"2 Critic seat (roundtable · model mock)", "roundtable plays it (pid ", "Started the critic seat (pid "} {
		if !strings.Contains(page, want) {
			t.Errorf("%q is not on the page:\n%s", want, page)
		}
	}
	// p on the critic, which roundtable briefs itself: nothing to copy.
	f, msgs, _ = driveSeats(t, f, "tab", "p")
	if len(msgs) != 0 || !strings.Contains(f.status, "roundtable plays the critic seat and briefs it itself") {
		t.Errorf("p on a played seat: %v, %q", msgs, f.status)
	}
	if stopped := g.StopAll(time.Second); len(stopped) != 1 {
		t.Errorf("stopped %+v", stopped)
	}
}

// TestRoomFormCouncilView pins the form of a council of four at 80×24,
// scrolled to the critic's provider, and its commands page.
func TestRoomFormCouncilView(t *testing.T) {
	f, g, cwd := councilSeatsForm(t, 80, 24)
	golden(t, "form-80x24", plain(f.View()))
	f, _, _ = driveSeats(t, f, "ctrl+s")
	if !f.Ready() {
		t.Fatalf("not ready: %q", f.err)
	}
	f.starts[1].status.PID = 4242
	f.status = regexp.MustCompile(`pid \d+`).ReplaceAllString(f.status, "pid 4242")
	f.layoutPage()
	golden(t, "page-80x24", normalize(plain(f.View()), cwd))
	f, _, _ = driveSeats(t, f, "shift+tab") // the peer's section, at the end
	golden(t, "page-end-80x24", normalize(plain(f.View()), cwd))
	g.StopAll(time.Second)
}
