package forms

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// councilForm is a room form at w×h, its room named cache and its topic
// typed, focused on the Seats field with the field emptied.
func councilForm(t *testing.T, w, h int) (RoomForm, string) {
	t.Helper()
	f, cwd := newTestRoomForm(t, w, h)
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Should the cache be write-through?")...)
	f, _ = drive(f, append(keys, "tab", "tab", "ctrl+u")...)
	if f.focus != roomSeats || f.inputs[roomSeats].Value() != "" {
		t.Fatalf("focus %d, seats %q", f.focus, f.inputs[roomSeats].Value())
	}
	return f, cwd
}

// focus focuses field r, as tab would, keys included.
func focus(f RoomForm, r roomField) RoomForm {
	f.focusField(r)
	f, _ = f.Update(nil)
	return f
}

// sections are the seats the form shows a section for, by their headings
// and their fields in the tab order.
func sections(t *testing.T, f RoomForm) []string {
	t.Helper()
	var minds []string
	for _, r := range f.visible() {
		if i, k, ok := seatOf(r); ok && k == kindMind {
			minds = append(minds, f.seats[i])
		}
	}
	if !slices.Equal(minds, f.seats) {
		t.Fatalf("the tab order has sections %v, the form %v", minds, f.seats)
	}
	return minds
}

// TestRoomFormCouncilSections types a council's list key by key: the
// sections follow every list that is one, keep the last one while the
// text is not, and the form ends with a section for each of four seats.
func TestRoomFormCouncilSections(t *testing.T) {
	f, _ := councilForm(t, 120, 60)
	if got := sections(t, f); !slices.Equal(got, room.DefaultSeats()) {
		t.Fatalf("an empty field: sections %v, want the default", got)
	}
	f, _ = drive(f, "l")
	if got := sections(t, f); !slices.Equal(got, room.DefaultSeats()) || !strings.Contains(f.seatsProblem, "lists 1 seats") {
		t.Fatalf(`"l": sections %v, problem %q`, got, f.seatsProblem)
	}
	for _, k := range typeText(nil, "ead, critic, security, peer") {
		f, _ = drive(f, k)
		if n := len(sections(t, f)); n < room.MinSeats || n > room.MaxSeats {
			t.Fatalf("after %q: %d sections", f.inputs[roomSeats].Value(), n)
		}
	}
	want := []string{"lead", "critic", "security", "peer"}
	if got := sections(t, f); !slices.Equal(got, want) || f.seatsProblem != "" {
		t.Fatalf("sections %v, problem %q", got, f.seatsProblem)
	}
	view := plain(f.View())
	for _, head := range []string{"Lead        ◂ an agent you start (MCP) ▸", "Critic      ◂ an agent you start (MCP) ▸", "Security    ◂ an agent you start (MCP) ▸", "Peer        ◂ an agent you start (MCP) ▸"} {
		if !strings.Contains(view, head) {
			t.Errorf("no section %q:\n%s", head, view)
		}
	}
	if ph := f.inputs[roomTopic].Placeholder; ph != "the decision the 4 seats should settle" {
		t.Errorf("the topic's placeholder: %q", ph)
	}
	// Labels left empty: the lead Claude Code, then each seat the other
	// of Claude Code and Codex, the peer Codex.
	for i, label := range []string{"claude", "codex", "claude", "codex"} {
		if ph := f.inputs[seatField(i, kindLabel)].Placeholder; ph != label {
			t.Errorf("seat %d's label defaults to %q, want %q", i, ph, label)
		}
	}
	// A duplicate is not a list: the sections stay as the last list had
	// them (typed key by key, ", criti" was one), and the hint says why.
	f, _ = drive(f, typeText(nil, ", critic")...)
	if got := sections(t, f); !slices.Equal(got, append(want, "criti")) || !strings.Contains(f.seatsProblem, `"critic" is listed twice`) {
		t.Fatalf("a duplicate: sections %v, problem %q", got, f.seatsProblem)
	}
	if v := strings.Join(strings.Fields(plain(f.View())), " "); !strings.Contains(v, "Not a list of seats yet, so the sections keep the last one.") {
		t.Errorf("the hint does not say the list is not one:\n%s", plain(f.View()))
	}
}

// TestRoomFormCouncilRefused: a list that is not a room's seats is refused
// when the room is created, in a sentence under the Seats field, which is
// focused; nothing is created.
func TestRoomFormCouncilRefused(t *testing.T) {
	for list, want := range map[string]string{
		"lead":                            "lists 1 seats: a room has 2 to 8, the lead first",
		"peer, lead":                      `the first seat is "peer"; the first seat of a room is "lead"`,
		"lead, peer, peer":                `the seat "peer" is listed twice`,
		"lead, a, b, c, d, e, f, g, peer": "lists 9 seats: a room has 2 to 8",
		"lead, critic,":                   "a name is missing between two commas or at an end",
		"lead, observer":                  "names the host's watch-only token",
	} {
		t.Run(list, func(t *testing.T) {
			f, cwd := councilForm(t, 80, 24)
			f, _ = drive(f, typeText(nil, list)...)
			f, _ = drive(f, "shift+tab") // away from the field: the check is the creation's
			f, msgs := drive(f, "ctrl+s")
			if f.Ready() || len(msgs) != 0 || f.focus != roomSeats || f.errAt != roomSeats {
				t.Fatalf("ready %v, msgs %v, focus %d, error at %d", f.Ready(), msgs, f.focus, f.errAt)
			}
			if !strings.HasPrefix(f.err, "The seats: ") || !strings.Contains(f.err, want) {
				t.Errorf("error %q, want %q", f.err, want)
			}
			v := plain(f.View())
			if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, strings.Join(strings.Fields(f.err), " ")) || strings.Count(flat, "The seats: ") != 1 {
				t.Errorf("the sentence is not under the field, once:\n%s", v)
			}
			if lines := strings.Split(v, "\n"); len(lines) != 24 || !strings.Contains(v, "▸ Seats") {
				t.Errorf("%d lines, the field in view: %v\n%s", len(lines), strings.Contains(v, "▸ Seats"), v)
			}
			if _, err := os.Stat(filepath.Join(cwd, ".roundtable")); err == nil {
				t.Error("a refused list still created the room")
			}
		})
	}
}

// TestRoomFormCouncilKeepsChoices: the sections follow the list by name:
// a seat renamed keeps what was chosen for it, the others keep theirs,
// one dropped and listed again comes back as it was, and typing the list
// again from nothing loses nothing of the seats it lists.
func TestRoomFormCouncilKeepsChoices(t *testing.T) {
	f, _ := councilForm(t, 120, 60)
	f, _ = drive(f, typeText(nil, "lead, critic, security, peer")...)
	// The critic a model, security an ACP agent with a persona, the
	// peer's label gemini.
	f = focus(f, seatField(1, kindMind))
	f, _ = drive(f, "right")
	f = focus(f, seatField(2, kindMind))
	f, _ = drive(f, "right", "right", "tab", "tab")
	f, _ = drive(f, typeText(nil, "Security Reviewer=assumes every surface is attacked")...)
	f = focus(f, seatField(3, kindLabel))
	f, _ = drive(f, typeText(nil, "gemini")...)
	check := func(when string, seats []string, critic string) {
		t.Helper()
		if !slices.Equal(f.seats, seats) {
			t.Fatalf("%s: seats %v, want %v", when, f.seats, seats)
		}
		at := func(s string) int { return slices.Index(f.seats, s) }
		if i := at(critic); i < 0 || f.seatChoices[i].mind != mindModel {
			t.Errorf("%s: the %s seat is no longer a model", when, critic)
		}
		if i := at("security"); f.seatChoices[i].mind != mindAgent || f.inputs[seatField(i, kindPersona)].Value() != "Security Reviewer=assumes every surface is attacked" {
			t.Errorf("%s: security lost its agent or persona: %+v, %q", when, f.seatChoices[i], f.inputs[seatField(i, kindPersona)].Value())
		}
		if i := at("peer"); f.seatChoices[i].mind != mindMCP || f.inputs[seatField(i, kindLabel)].Value() != "gemini" {
			t.Errorf("%s: the peer lost its label: %q", when, f.inputs[seatField(i, kindLabel)].Value())
		}
		if f.seatChoices[0].mind != mindMCP {
			t.Errorf("%s: the lead changed", when)
		}
	}
	check("chosen", []string{"lead", "critic", "security", "peer"}, "critic")
	// An edit in one step, as a paste over the list or a name changed in
	// the middle of it.
	seatsTo := func(list string) {
		f = focus(f, roomSeats)
		f.inputs[roomSeats].SetValue(list)
		f.typed()
	}
	seatsTo("lead, skeptic, security, peer")
	check("critic renamed skeptic", []string{"lead", "skeptic", "security", "peer"}, "skeptic")
	seatsTo("lead, peer, security, skeptic")
	check("reordered", []string{"lead", "peer", "security", "skeptic"}, "skeptic")
	seatsTo("lead, security, peer")
	if slices.Contains(f.seats, "skeptic") {
		t.Fatalf("seats %v", f.seats)
	}
	seatsTo("lead, skeptic, security, peer")
	check("skeptic dropped and listed again", []string{"lead", "skeptic", "security", "peer"}, "skeptic")
	// Typed again from nothing, key by key.
	f, _ = drive(f, "end", "ctrl+u")
	f, _ = drive(f, typeText(nil, "lead, skeptic, security, peer")...)
	check("typed again", []string{"lead", "skeptic", "security", "peer"}, "skeptic")
}

// TestRoomFormTwoSeatsAsBefore: the default seats make the room they
// always did: room.json without "seats", lead.md and peer.md.
func TestRoomFormTwoSeatsAsBefore(t *testing.T) {
	f, cwd := newTestRoomForm(t, 120, 40)
	keys := append(typeText(nil, "cache"), "tab")
	f, _ = drive(f, append(append(keys, typeText(nil, "Write-through?")...), "ctrl+s")...)
	if !f.Ready() || f.council() {
		t.Fatalf("ready %v, council %v, err %q", f.Ready(), f.council(), f.err)
	}
	data, err := os.ReadFile(filepath.Join(cwd, ".roundtable", "cache", "room.json"))
	if err != nil || strings.Contains(string(data), `"seats"`) {
		t.Errorf("room.json %s (%v)", data, err)
	}
	dir := filepath.Join(cwd, ".roundtable", "cache")
	if want := []string{filepath.Join(dir, "lead.md"), filepath.Join(dir, "peer.md")}; !slices.Equal(f.res.Prompts, want) {
		t.Errorf("prompts %v", f.res.Prompts)
	}
	if f.keys.CopyJSON.Enabled() || f.keys.CopyPrompt.Enabled() || !slices.Equal(f.keys.CopyOne.Keys(), []string{"1", "2", "3", "4", "5"}) {
		t.Errorf("the keys of a two-seat room changed: m %v, p %v, digits %v", f.keys.CopyJSON.Enabled(), f.keys.CopyPrompt.Enabled(), f.keys.CopyOne.Keys())
	}
	_, msgs := drive(f, "4")
	if text, _ := clipboard(msgs[0]); text != f.res.PromptTexts[0] || !strings.Contains(text, "lead") {
		t.Errorf("4 copied %q", text)
	}
	_, msgs = drive(f, "5")
	if text, _ := clipboard(msgs[0]); text != f.res.PromptTexts[1] {
		t.Errorf("5 copied %q", text)
	}
}

// TestRoomFormExistingCouncil: a room that exists with other seats is not
// opened with the form's: the form says which it has and suggests a name.
func TestRoomFormExistingCouncil(t *testing.T) {
	f, cwd := newTestRoomForm(t, 120, 40)
	if _, _, err := room.Create(cwd, "taken", room.CreateOptions{Topic: "T", Seats: []string{"lead", "critic", "peer"}}); err != nil {
		t.Fatal(err)
	}
	keys := append(typeText(nil, "taken"), "tab")
	f, _ = drive(f, append(append(keys, typeText(nil, "Another topic")...), "ctrl+s")...)
	if f.Ready() || f.errAt != roomName || !strings.Contains(f.err, "exists with the seats lead,critic,peer, not lead,peer") || !strings.Contains(f.err, "such as taken-2") {
		t.Fatalf("ready %v, error at %d: %q", f.Ready(), f.errAt, f.err)
	}
	if strings.Contains(f.err, "bad seat") {
		t.Errorf("the error names its kind: %q", f.err)
	}
}

// createCouncil types the seats and creates the room, every seat an
// agent the user starts.
func createCouncil(t *testing.T, f RoomForm, list string) RoomForm {
	t.Helper()
	f, _ = drive(f, typeText(nil, list)...)
	f, _ = drive(f, "ctrl+s")
	if !f.Ready() {
		t.Fatalf("not ready: %q", f.err)
	}
	return f
}

// copied presses k on the commands page and returns what it put on the
// clipboard.
func copied(t *testing.T, f RoomForm, k string) (RoomForm, string) {
	t.Helper()
	f, msgs := drive(f, k)
	if len(msgs) != 1 {
		t.Fatalf("%s sent %v", k, msgs)
	}
	text, ok := clipboard(msgs[0])
	if !ok {
		t.Fatalf("%s sent %T, not the clipboard", k, msgs[0])
	}
	return f, text
}

// TestRoomPageCouncilKeys: on a council's commands page each digit copies
// its seat's command, m the mcpServers JSON of every seat, p the focused
// seat's prompt; tab and shift+tab go round the seats, ←/→ change the
// focused seat's agent CLI, and y copies everything.
func TestRoomPageCouncilKeys(t *testing.T) {
	f, _ := councilForm(t, 120, 60)
	f = createCouncil(t, f, "lead, critic, security, peer")
	seats := []string{"lead", "critic", "security", "peer"}
	if !slices.Equal(f.res.Seats, seats) || len(f.res.Prompts) != 4 {
		t.Fatalf("seats %v, prompts %v", f.res.Seats, f.res.Prompts)
	}
	page := plain(f.View())
	for _, want := range []string{"1  Lead seat (claude)", "2  Critic seat (codex)", "3  Security seat (claude)", "4  Peer seat (codex)", "m  Agents configured by a file"} {
		if !strings.Contains(page, want) {
			t.Errorf("%q is not on the page:\n%s", want, page)
		}
	}
	if !strings.Contains(page, "1-4 copy a command") || !strings.Contains(page, "p copy its prompt") {
		t.Errorf("the help does not name the council's keys:\n%s", page)
	}
	clients := []seatcmd.Client{seatcmd.ClaudeCode, seatcmd.Codex, seatcmd.ClaudeCode, seatcmd.Codex}
	for i, seat := range seats {
		_, text := copied(t, f, string(rune('1'+i)))
		if want := seatcmd.Shell(clients[i].Argv(f.res.seat(i))); text != want || !strings.Contains(text, "--seat="+seat) {
			t.Errorf("%d copied %q, want %q", i+1, text, want)
		}
	}
	if _, msgs := drive(f, "5"); len(msgs) != 0 {
		t.Errorf("5 in a council of four sent %v", msgs)
	}
	_, text := copied(t, f, "m")
	var all []seatcmd.Seat
	for i := range seats {
		all = append(all, f.res.seat(i))
	}
	if text != seatcmd.MCPServersJSON(all...) || !strings.Contains(text, `"roundtable-cache-security"`) {
		t.Errorf("m copied %q", text)
	}
	// p: the focused seat's prompt, as tab and shift+tab move round.
	for _, step := range []struct {
		key  string
		seat int
	}{{"", 0}, {"tab", 1}, {"tab", 2}, {"tab", 3}, {"tab", 0}, {"shift+tab", 3}, {"shift+tab", 2}} {
		if step.key != "" {
			f, _ = drive(f, step.key)
		}
		if f.seatFocus != step.seat {
			t.Fatalf("after %s the focus is on seat %d, want %d", step.key, f.seatFocus, step.seat)
		}
		var text string
		f, text = copied(t, f, "p")
		data, err := os.ReadFile(filepath.Join(f.res.Dir, room.PromptFile(seats[step.seat])))
		if err != nil || text != string(data) {
			t.Errorf("p on seat %d copied %.60q, want %s", step.seat, text, room.PromptFile(seats[step.seat]))
		}
		if !strings.Contains(f.status, "Copied the "+seats[step.seat]) {
			t.Errorf("status %q", f.status)
		}
	}
	// ←/→ on the security seat (focused): its command is for another CLI.
	f, _ = drive(f, "right")
	if f.clients[2] != seatcmd.Codex || f.clients[0] != seatcmd.ClaudeCode {
		t.Fatalf("→ changed %s, %s", f.clients[2].Name(), f.clients[0].Name())
	}
	_, text = copied(t, f, "3")
	if !strings.HasPrefix(text, "codex mcp add roundtable-cache-security ") {
		t.Errorf("3 copied %q", text)
	}
	_, text = copied(t, f, "y")
	for i, seat := range seats {
		if !strings.Contains(text, "--seat="+seat) || !strings.Contains(text, "# "+seat+": "+f.res.Prompts[i]) {
			t.Errorf("y lacks the %s seat or its prompt:\n%s", seat, text)
		}
	}
}

// TestRoomPageCouncilPalette: every command the palette lists on a
// council's commands page does something when chosen.
func TestRoomPageCouncilPalette(t *testing.T) {
	f, _ := councilForm(t, 100, 30)
	f = createCouncil(t, f, "lead, critic, security, peer")
	f.top = 2 // so that ↑ scrolls
	open, _ := f.Update(press("ctrl+p"))
	items := open.pal.Items()
	open.pal.Close() // the copies share it
	descs := map[string]bool{}
	for _, it := range items {
		descs[it.Desc] = true
	}
	for _, want := range []string{"copy a command", "copy its prompt", "copy mcpServers JSON", "copy all", "next seat"} {
		if !descs[want] {
			t.Errorf("the palette lacks %q: %v", want, descs)
		}
	}
	for _, it := range items {
		g, cmd := f.Update(it.Press)
		var msg tea.Msg
		if cmd != nil {
			msg = cmd()
		}
		changed := g.status != f.status || g.seatFocus != f.seatFocus || g.top != f.top || g.clients != f.clients
		if msg == nil && !changed {
			t.Errorf("%s (%s) did nothing", it.Key, it.Desc)
		}
	}
}
