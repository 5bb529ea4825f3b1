package watch

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/transfer"
)

// councilSeatNames are the five seats of the council the tests build.
var councilSeatNames = []string{"lead", "critic", "security", "peer", "ops"}

// councilRoom is a five-seat MCP room after its first round, in which the
// security seat passed: the lead's turn again.
func councilRoom(t testing.TB) (string, string) {
	cwd := t.TempDir()
	msgs := []fileMsg{
		{1, at(0), "lead", "opus-5", "brief", "Should the **upload** service stream files or load them whole?", 0},
		{2, at(40), "critic", "codex", "objection", "Streaming needs back-pressure, which the current proxy lacks.", 0},
		{3, at(70), "security", "gemini", "pass", "Nothing to add this round.", 0},
		{4, at(95), "peer", "qwen", "answer", "Stream above 8 MiB, load whole below it.", 0},
		{5, at(130), "ops", "person", "proposal", "Add a size histogram to the dashboard first.", 0},
	}
	writeRoom(t, cwd, "upload", room.Config{
		Room: "upload", Topic: "Stream uploads or load them whole", Budget: 4, Spec: "SPEC-upload.md",
		CreatedAt: at(-5), SeatNames: councilSeatNames,
	}, msgs, map[string]string{
		"server.log": "2026-11-30T08:59:55.000Z connect seat=lead agent=opus-5 pid=10\n" +
			"2026-11-30T08:59:56.000Z connect seat=critic agent=codex pid=11\n" +
			"2026-11-30T09:02:11.000Z call seat=lead tool=wait_for_message\n",
	})
	return cwd, "upload"
}

// TestCouncilView compares a five-seat council with golden files: the
// compact list beside the turn's column at 80 and 120 columns, every seat
// side by side at 200 (refresh with -update).
func TestCouncilView(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}} {
		t.Run(fmt.Sprintf("council-%dx%d", size.w, size.h), func(t *testing.T) {
			cwd, name := councilRoom(t)
			m := openModel(t, cwd, name, size.w, size.h)
			view := m.View()
			checkFrame(t, view, size.w, size.h)
			golden.RequireEqual(t, view)
		})
	}
}

// TestCouncilColumns checks which seats are drawn as columns at each
// width, and that a room of two seats has none.
func TestCouncilColumns(t *testing.T) {
	cwd, name := councilRoom(t)
	wide := openModel(t, cwd, name, 200, 50)
	if got := wide.seatsInColumns(); !slices.Equal(got, councilSeatNames) {
		t.Errorf("200 columns: columns %q, want every seat %q", got, councilSeatNames)
	}
	if n := strings.Count(plain(wide), "round 1 of 4"); n != len(councilSeatNames) {
		t.Errorf("200 columns: %d round rules, want one atop each seat's column:\n%s", n, plain(wide))
	}
	narrow := openModel(t, cwd, name, 80, 24)
	if got := narrow.seatsInColumns(); !slices.Equal(got, []string{"lead"}) {
		t.Errorf("80 columns: columns %q, want the lead's (its turn) beside the list", got)
	}
	view := flat(narrow)
	for _, want := range []string{"▸ lead ▶ turn", "critic 1 post", "security passed", "peer 1 post", "ops 1 post"} {
		if !strings.Contains(view, want) {
			t.Errorf("the compact list lacks %q:\n%s", want, plain(narrow))
		}
	}

	cwd2, name2 := openMCPRoom(t)
	two := openModel(t, cwd2, name2, 200, 50)
	if got := two.seatsInColumns(); got != nil {
		t.Errorf("a two-seat room draws columns %q, want the feed", got)
	}
	if two.keys.Columns.Enabled() {
		t.Error("v is offered in a two-seat room")
	}
}

// TestCouncilSpeakerColumn: a seat writing a draft is the one shown beside
// the compact list, whoever's turn it is.
func TestCouncilSpeakerColumn(t *testing.T) {
	cwd, name := councilRoom(t)
	m := openModel(t, cwd, name, 80, 24)
	m, _ = m.Update(draftsMsg{id: m.id, drafts: []room.Draft{{Seat: "peer", Agent: "qwen", StartedAt: fixedAt, Text: "Half a thought about chunk sizes"}}})
	if got := m.seatsInColumns(); !slices.Equal(got, []string{"peer"}) {
		t.Fatalf("columns %q, want the writing peer's", got)
	}
	view := flat(m)
	for _, want := range []string{"▸ peer writing…", "Half a thought about chunk sizes", "Stream above 8 MiB"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q missing:\n%s", want, plain(m))
		}
	}
	if strings.Contains(view, "Streaming needs back-pressure") {
		t.Errorf("the critic's post is in the peer's column:\n%s", plain(m))
	}
}

// TestCouncilFeedToggle: v shows the one feed of every message in order
// and back; scrolling back shows the feed, f follows into the columns.
func TestCouncilFeedToggle(t *testing.T) {
	cwd, name := councilRoom(t)
	m := openModel(t, cwd, name, 80, 24)
	if !m.keys.Columns.Enabled() {
		t.Fatal("v is not offered in a council")
	}
	m, _ = press(m, "v")
	if got := m.seatsInColumns(); got != nil {
		t.Fatalf("after v: columns %q, want the feed", got)
	}
	if view := flat(m); !strings.Contains(view, "Add a size histogram") || !strings.Contains(view, "v columns") {
		t.Errorf("the feed lacks the newest post or v's help:\n%s", plain(m))
	}
	m, _ = press(m, "v")
	if got := m.seatsInColumns(); len(got) != 1 {
		t.Fatalf("after v again: columns %q, want the compact layout", got)
	}
	m, _ = press(m, "up")
	if got := m.seatsInColumns(); got != nil {
		t.Fatalf("scrolled back: columns %q, want the feed", got)
	}
	m, _ = press(m, "f")
	if got := m.seatsInColumns(); len(got) != 1 {
		t.Fatalf("following again: columns %q, want the compact layout", got)
	}
}

// TestCouncilHeader: the turn order, whose turn it is and who passed.
func TestCouncilHeader(t *testing.T) {
	cwd, name := councilRoom(t)
	m := openModel(t, cwd, name, 200, 50)
	header := stripANSI(strings.Join(m.header, "\n"))
	for _, want := range []string{
		"MCP council of 5 seats",
		"order ▶lead → critic → security (passed) → peer → ops",
		"ops", "not connected yet",
	} {
		if !strings.Contains(header, want) {
			t.Errorf("header lacks %q:\n%s", want, header)
		}
	}
	if strings.Count(header, "not connected yet") != 3 {
		t.Errorf("want the three seats nobody connected to listed as such:\n%s", header)
	}
}

func TestColumnArithmetic(t *testing.T) {
	for _, tt := range []struct {
		width, n int
		fit      bool
	}{{200, 5, true}, {144, 5, true}, {143, 5, false}, {80, 5, false}, {86, 3, true}, {80, 2, true}, {10, 0, false}} {
		if got := allColumnsFit(tt.width, tt.n); got != tt.fit {
			t.Errorf("allColumnsFit(%d, %d) = %v, want %v", tt.width, tt.n, got, tt.fit)
		}
	}
	for _, tt := range []struct {
		width, k int
		want     []int
	}{{200, 5, []int{40, 39, 39, 39, 39}}, {10, 3, []int{3, 3, 2}}, {5, 0, nil}} {
		got := columnWidths(tt.width, tt.k, seatGap)
		if !slices.Equal(got, tt.want) {
			t.Errorf("columnWidths(%d, %d) = %v, want %v", tt.width, tt.k, got, tt.want)
		}
		sum := 0
		for _, w := range got {
			sum += w
		}
		if len(got) > 0 && sum+(len(got)-1)*seatGap != tt.width {
			t.Errorf("columnWidths(%d, %d) and gaps add up to %d", tt.width, tt.k, sum+(len(got)-1)*seatGap)
		}
	}
	for _, tt := range []struct{ nameW, width, want int }{{8, 80, 20}, {2, 80, seatListMin}, {30, 200, seatListMax}, {8, 40, 13}} {
		if got := seatListWidth(tt.nameW, tt.width); got != tt.want {
			t.Errorf("seatListWidth(%d, %d) = %d, want %d", tt.nameW, tt.width, got, tt.want)
		}
	}
}

// TestCouncilTakeChoices: t in a council offers every free seat by its
// number in the turn order; --take refuses a seat the room lacks, naming
// its seats.
func TestCouncilTakeChoices(t *testing.T) {
	cwd, name := councilRoom(t)
	m := openModel(t, cwd, name, 120, 40)
	free := m.freeSeats()
	if want := []string{"security", "peer", "ops"}; !slices.Equal(free, want) {
		t.Fatalf("freeSeats = %q, want %q (lead and critic are connected)", free, want)
	}
	if got, want := m.seatChoices(free), "3 security · 4 peer · 5 ops"; got != want {
		t.Errorf("seatChoices = %q, want %q", got, want)
	}
	for k, want := range map[string]string{"3": "security", "1": "lead", "5": "ops", "6": "", "0": "", "l": ""} {
		if got := m.chosenSeat(k); got != want {
			t.Errorf("chosenSeat(%q) = %q, want %q", k, got, want)
		}
	}
	if got := m.kindsFor("security"); got[0] != "answer" || got[len(got)-1] != room.KindPass {
		t.Errorf("kindsFor(security) = %q, want the peer's kinds and pass", got)
	}
	if got := m.kindsFor("lead"); slices.Contains(got, room.KindPass) {
		t.Errorf("kindsFor(lead) = %q: the lead does not pass", got)
	}
	_, err := TakeSeat(cwd, name, "auditor")
	if !errors.Is(err, room.ErrBadSeat) || !strings.Contains(err.Error(), "lead, critic, security, peer, ops") {
		t.Errorf("TakeSeat(auditor) = %v, want ErrBadSeat naming the room's seats", err)
	}
}

// TestCouncilExportAndNote: e exports a transcript naming every seat of
// the council, and i opens a note to all five seats.
func TestCouncilExportAndNote(t *testing.T) {
	cwd, name := councilRoom(t)
	m := openModel(t, cwd, name, 120, 40)
	m, cmd := press(m, "e")
	if cmd == nil {
		t.Fatal("e gives no command")
	}
	msg := cmd()
	exp, ok := msg.(transfer.ExportedMsg)
	if !ok || exp.Err != nil {
		t.Fatalf("e produced %#v", msg)
	}
	data, err := os.ReadFile(exp.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range councilSeatNames {
		if !strings.Contains(string(data), "- "+seat+": ") {
			t.Errorf("the export does not list the seat %q:\n%s", seat, data)
		}
	}
	m, _ = m.Update(msg)
	m, _ = press(m, "i")
	if view := plain(m); !strings.Contains(view, "Steering note to the 5 seats") || !strings.Contains(view, "what the 5 seats should take into account") {
		t.Errorf("the note composer does not address the five seats:\n%s", plain(m))
	}
}

// seatsInColumns is the seats drawn as columns now: every seat, the one
// beside the compact list, or none when the feed is shown.
func (m *Model) seatsInColumns() []string {
	if !m.showColumns() {
		return nil
	}
	if order := m.seatOrder(); allColumnsFit(m.width, len(order)) {
		return order
	}
	return []string{m.speaker()}
}

// TestTwoSeatCouncil: a room of two seats not named lead and peer (lead
// and critic: a council of one --seat) is a council like any other: its
// seats by their names, no "peer" that is not in the room, and t takes
// them by number. It was drawn as lead and peer, a "peer — not connected
// yet" among them, and t offered l and p.
func TestTwoSeatCouncil(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "pair", room.Config{
		Room: "pair", Topic: "Write-through cache?", Budget: 2, Spec: "SPEC-pair.md",
		CreatedAt: at(-5), SeatNames: []string{"lead", "critic"},
	}, []fileMsg{
		{1, at(0), "lead", "roundtable:mock", "brief", "Should the cache be write-through?", 0},
	}, map[string]string{
		"server.log": "2026-11-30T08:59:55.000Z connect seat=lead agent=roundtable:mock pid=10\n",
	})
	m := openModel(t, cwd, "pair", 60, 20)
	header := stripANSI(strings.Join(m.header, "\n"))
	if !strings.Contains(header, "critic") || strings.Contains(header, "peer") {
		t.Errorf("the seats of a room of lead and critic:\n%s", header)
	}
	if got, want := m.seatChoices(m.freeSeats()), "2 critic"; got != want {
		t.Errorf("seatChoices = %q, want %q", got, want)
	}
	if got := m.chosenSeat("2"); got != "critic" {
		t.Errorf("chosenSeat(2) = %q, want critic", got)
	}
	if got := m.waitsFor("lead"); got == "the peer" {
		t.Errorf("the lead waits for %q", got)
	}
}
