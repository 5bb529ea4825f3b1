package forms

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/hints"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// View is the form, or the commands page once the room exists.
func (f RoomForm) View() string {
	w := max(f.width, 30)
	if f.stage == stageReady {
		return f.readyView(w)
	}
	s := &f.styles
	out := []string{cells.Fit(s.Strong.Render("roundtable")+s.Faint.Render(" │ ")+s.Title.Render("New MCP room"), w), ""}
	for _, l := range strings.Split(ansi.Wordwrap("Two coding agents take the lead and peer seats of a room and argue a decision through, turn by turn, through MCP tools. This creates the room and writes each seat's prompt; then it shows what to paste into each agent's terminal.", min(w-4, 90), ""), "\n") {
		out = append(out, cells.Fit("  "+s.Muted.Render(l), w))
	}
	out = append(out, "")
	focus := 0
	field := func(r roomField, label, value, hint string) {
		if f.focus == r {
			focus = len(out)
		}
		mark, style := "  ", s.Label
		if f.focus == r {
			mark, style = s.FocusLabel.Render("▸ "), s.FocusLabel
		}
		line := mark + style.Render(cells.Pad(label, labelWidth)) + value
		if hint != "" {
			line += "   " + s.Hint.Render(hint)
		}
		out = append(out, cells.Fit(line, w))
	}
	field(roomName, "Name", f.inputs[roomName].View(), "")
	field(roomTopic, "Topic", f.inputs[roomTopic].View(), "")
	budget := s.Arrow.Render("◂ ") + s.Value.Render(fmt.Sprint(f.budget.value)) + s.Arrow.Render(" ▸")
	field(roomBudget, "Budget", budget, "")
	field(roomSpec, "Spec path", f.inputs[roomSpec].View(), "")
	field(roomLead, "Lead agent", f.inputs[roomLead].View(), "")
	field(roomPeer, "Peer agent", f.inputs[roomPeer].View(), "")
	out = append(out, "")
	if h := roomHints[f.focus]; h != "" {
		out = append(out, cells.Fit("  "+s.Hint.Render(cells.Truncate(h, w-4)), w), "")
	}
	if f.focus == roomCreate {
		focus = len(out) + 2
	}
	btn := s.Button
	if f.focus == roomCreate {
		btn = s.FocusButton
	}
	label := "Create the room"
	if f.stage == stageSeeding {
		label = "Creating…"
	}
	for _, l := range strings.Split(btn.Render(label), "\n") {
		out = append(out, cells.Fit("  "+l, w))
	}
	return finish(&f.styles, f.help, f.keys, out, focus, f.err, w, f.height)
}

// readyView is the commands page: a title, the page (scrolling) and the
// status and help.
func (f RoomForm) readyView(w int) string {
	s := &f.styles
	title := cells.Fit(s.Strong.Render("roundtable")+s.Faint.Render(" │ ")+s.Title.Render("MCP room "+mdrender.Inline(f.res.Room)+" is ready"), w)
	f.help.ShowAll = false
	helpLines := strings.Split(hints.View(f.help, f.keys, w-1), "\n")
	out := []string{title}
	out = append(out, strings.Split(f.page.View(), "\n")...)
	out = append(out, s.StatusBar.Render(cells.Fit(" "+cells.Truncate(f.status, w-2), w)))
	for _, l := range helpLines {
		out = append(out, cells.Fit(" "+l, w))
	}
	return strings.Join(out, "\n")
}

// layoutPage fills the commands page for the screen's width.
func (f *RoomForm) layoutPage() {
	if f.stage != stageReady {
		return
	}
	w := max(f.width, 30)
	f.page.SetWidth(w)
	f.page.SetHeight(max(f.height-3, 3))
	f.page.SetContentLines(f.pageLines(w))
}

// pageLines is the commands page at width w.
func (f *RoomForm) pageLines(w int) []string {
	s := &f.styles
	r := f.res
	var out []string
	text := func(t string, indent int) {
		for _, l := range strings.Split(ansi.Wordwrap(transcript.SanitizeTerminal(t), max(w-indent-1, 10), ""), "\n") {
			out = append(out, cells.Fit(strings.Repeat(" ", indent)+s.Text.Render(l), w))
		}
	}
	code := func(t string) {
		for _, l := range strings.Split(transcript.SanitizeTerminal(t), "\n") {
			for _, wl := range strings.Split(ansi.Wrap(l, max(w-8, 10), ""), "\n") {
				out = append(out, cells.Fit("     "+s.Code.Render(wl), w))
			}
		}
	}
	step := func(n, t string) {
		out = append(out, cells.Fit("  "+s.Number.Render(n)+"  "+s.Strong.Render(t), w))
	}
	out = append(out, "")
	where := fmt.Sprintf("The room lives in %s; its output, the spec, will be %s.", r.Dir, r.Spec)
	if f.existed {
		where = fmt.Sprintf("The room already existed in %s, so its topic and budget are the ones it was created with; the prompts are written again.", r.Dir)
	}
	text(where, 2)
	if f.note != "" {
		for _, l := range strings.Split(ansi.Wordwrap("Note: "+f.note, w-4, ""), "\n") {
			out = append(out, cells.Fit("  "+s.Warning.Render(l), w))
		}
	}
	out = append(out, "")
	step("1", fmt.Sprintf("Lead seat (%s): run this in the lead agent's terminal", mdrender.Inline(r.LeadAgent)))
	code(addCommand(r, room.SeatLead, r.LeadAgent))
	out = append(out, "")
	step("2", fmt.Sprintf("Peer seat (%s): run this in the peer agent's terminal", mdrender.Inline(r.PeerAgent)))
	code(addCommand(r, room.SeatPeer, r.PeerAgent))
	out = append(out, "")
	step("3", "Agents configured by file: the mcpServers entry (the lead's; the peer's has --seat peer)")
	code(mcpServersJSON(r, room.SeatLead, r.LeadAgent))
	out = append(out, "")
	step("4", "Then give each agent its brief: paste lead.md into the lead (4 copies it)")
	code(r.Prompts[0])
	step("5", "and peer.md into the peer (5 copies it)")
	code(r.Prompts[1])
	out = append(out, "")
	text(fmt.Sprintf("The prompts keep each agent looping on wait_for_message; MCP has no push. Press enter to watch the room here (or run: roundtable watch --room %s).", r.Room), 2)
	return out
}

// roomHints explain the focused field under the fields.
var roomHints = map[roomField]string{
	roomName:   "The room's folder under .roundtable/: letters, digits, '.', '_' or '-'. Empty: made from the topic.",
	roomTopic:  "The decision the two agents should settle, in a sentence.",
	roomBudget: "Rounds: each lead post spends one, and the peer answers every one. ← → or type a number.",
	roomSpec:   "The room's one output, written when the agents agree; relative to this folder.",
	roomLead:   "A label for the lead seat's agent, shown to the peer and in the transcript.",
	roomPeer:   "A label for the peer seat's agent, shown to the lead and in the transcript.",
	roomCreate: "Creates the room and writes lead.md and peer.md; then shows what to paste.",
}
