package forms

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/hints"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// roomIntro is the sentence above the room form's fields.
const roomIntro = "Two to eight minds take the seats of a room, the lead first, and argue a decision through, turn by turn. A seat is an agent you start (over MCP), a model, or a coding agent roundtable drives (ACP). This creates the room, starts the seats roundtable plays and shows what to paste into your agents."

// View is the form, or the commands page once the room exists.
func (f RoomForm) View() string {
	w := max(f.width, 30)
	if f.stage == stageReady {
		return overlay(f.pal, f.readyView(w), w, f.height)
	}
	s := &f.styles
	out := []string{s.titleLine("New MCP room", w), ""}
	for _, l := range strings.Split(ansi.Wordwrap(roomIntro, min(w-4, 90), ""), "\n") {
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
		if f.err != "" && f.errAt == r {
			// The sentence whole, under its field; the screen scrolls to
			// its end while the field is focused.
			for _, l := range strings.Split(ansi.Wordwrap(f.err, max(w-6, 10), ""), "\n") {
				out = append(out, cells.Fit("    "+s.Error.Render(l), w))
			}
			if f.focus == r {
				focus = len(out) - 1
			}
		}
	}
	field(roomName, "Name", f.inputs[roomName].View(), "")
	field(roomTopic, "Topic", f.inputs[roomTopic].View(), "")
	budget := s.Arrow.Render("◂ ") + s.Value.Render(fmt.Sprint(f.budget.value)) + s.Arrow.Render(" ▸")
	field(roomBudget, "Budget", budget, "")
	field(roomSeats, "Seats", f.inputs[roomSeats].View(), "")
	field(roomSpec, "Spec path", f.inputs[roomSpec].View(), "")
	choice := func(v string) string { return s.Arrow.Render("◂ ") + s.Value.Render(v) + s.Arrow.Render(" ▸") }
	for i, seat := range f.seats {
		c := f.seatChoices[i]
		for _, k := range f.seatKindsShown(i) {
			r := seatField(i, k)
			switch k {
			case kindMind:
				field(r, capital(mdrender.Inline(seat)), choice(mindNames[c.mind]), "")
			case kindLabel:
				field(r, "  label", f.inputs[r].View(), "")
			case kindProvider:
				field(r, "  provider", choice(f.providerName(i)), "")
			case kindModel:
				field(r, "  model", f.inputs[r].View(), "")
			case kindAgent:
				field(r, "  agent", choice(presetName(c.preset)), "")
			case kindCommand:
				field(r, "  command", "acp:"+f.inputs[r].View(), "")
			case kindPersona:
				field(r, "  persona", f.inputs[r].View(), "")
			case kindTools:
				field(r, "  tools", choice(toolsName(c.tools)), "")
			default:
			}
		}
	}
	out = append(out, "")
	var hint []string
	if h := f.hint(); h != "" {
		// Two lines at most: a narrow screen keeps the gist.
		lines := wrapSpaces(h, max(w-4, 10))
		if len(lines) > 2 {
			lines = []string{lines[0], strings.Join(lines[1:], " ")}
		}
		for _, l := range lines {
			hint = append(hint, cells.Fit("  "+s.Hint.Render(cells.Truncate(l, w-4)), w))
		}
	}
	hintAt := len(out)
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
	status := f.err
	if f.errAt != roomFields {
		status = "" // shown under its field
	}
	return overlay(f.pal, finishHint(&f.styles, f.help, f.keys, out, hint, hintAt, focus, status, w, f.height), w, f.height)
}

// hint explains the focused field, under the fields.
func (f *RoomForm) hint() string {
	if i, k, ok := seatOf(f.focus); ok {
		return f.seatHint(i, k)
	}
	switch f.focus {
	case roomName:
		return "The room's folder under .roundtable/: letters, digits, '.', '_' or '-'. Empty: made from the topic."
	case roomTopic:
		return "The decision " + f.who() + " should settle, in a sentence."
	case roomBudget:
		if f.council() {
			return "Rounds: each lead post spends one, and every other seat answers it in turn. ← → or type a number."
		}
		return "Rounds: each lead post spends one, and the peer answers every one. ← → or type a number."
	case roomSeats:
		if f.seatsProblem != "" && (f.err == "" || f.errAt != roomSeats) { // else it is under the field
			return "Not a list of seats yet, so the sections keep the last one. " + f.seatsProblem
		}
		return seatsHint
	case roomSpec:
		return "The room's one output, written when the agents agree; relative to this folder."
	case roomCreate:
		if f.council() {
			return "Creates the room and writes each seat's prompt; starts the seats roundtable plays, then shows what to paste."
		}
		return "Creates the room and writes lead.md and peer.md; starts the seats roundtable plays, then shows what to paste."
	default:
		return ""
	}
}

// readyView is the commands page: a title, the page (scrolling) and the
// status and help.
func (f RoomForm) readyView(w int) string {
	s := &f.styles
	// A long name gives way, not the words after it: "is read" alone
	// would say something else.
	head, tail := "MCP room ", " is ready"
	name := mdrender.Inline(f.res.Room)
	if room := w - titleWidth(head+tail); room >= 8 {
		name = cells.Truncate(name, room)
	}
	title := s.titleLine(head+name+tail, w)
	f.help.ShowAll = false
	helpLines := strings.Split(hints.View(f.help, readyHelp{f.keys}, w-1), "\n")
	out := []string{title}
	h := f.pageHeight()
	end := min(f.top+h, len(f.lines))
	out = append(out, f.lines[min(f.top, end):end]...)
	for len(out) < 1+h {
		out = append(out, "")
	}
	out = append(out, s.StatusBar.Render(cells.Fit(" "+cells.Truncate(f.status, w-2), w)))
	for _, l := range helpLines {
		out = append(out, cells.Fit(" "+l, w))
	}
	return strings.Join(out, "\n")
}

// readyHelp orders the commands page's keys for its one-line help: what
// changes the page first.
type readyHelp struct{ k KeyMap }

func (r readyHelp) ShortHelp() []key.Binding {
	k := r.k
	return []key.Binding{k.Less, k.Next, k.CopyOne, k.CopyPrompt, k.CopyJSON, k.CopyAll, k.Back, k.Watch, k.Up}
}

func (r readyHelp) FullHelp() [][]key.Binding { return [][]key.Binding{r.ShortHelp()} }

// MainHelp keeps copying a command, watching the room and going home on
// a narrow page.
func (r readyHelp) MainHelp() []key.Binding {
	return []key.Binding{r.k.CopyOne, r.k.Watch, r.k.Back}
}

// pageHeight is how many lines of the commands page fit between the title
// and the status line.
func (f *RoomForm) pageHeight() int { return max(f.height-3, 3) }

// scroll moves the commands page by n lines.
func (f *RoomForm) scroll(n int) {
	f.top = clamp(f.top+n, 0, max(len(f.lines)-f.pageHeight(), 0))
}

// showSeat scrolls the focused seat's section into view.
func (f *RoomForm) showSeat() {
	start := f.seatLine[f.seatFocus]
	end := len(f.lines)
	if f.seatFocus+1 < len(f.seats) {
		end = f.seatLine[f.seatFocus+1]
	}
	h := f.pageHeight()
	if end-f.top > h {
		f.top = max(end-h, 0)
	}
	if start < f.top {
		f.top = start
	}
	f.scroll(0)
}

// layoutPage fills the commands page for the screen's width.
func (f *RoomForm) layoutPage() {
	if f.stage != stageReady {
		return
	}
	f.lines = f.pageLines(max(f.width, 30))
	f.scroll(0)
}

// codeIndent is where a command starts on the page.
const codeIndent = 5

// pageLines is the commands page at width w. Commands wrap only between
// arguments, each line but the last ending in " \\", and carry no
// padding after it, so the lines selected on screen run as they are; an
// argument too wide for the screen is cut with "…" (the copy keys copy it
// whole).
func (f *RoomForm) pageLines(w int) []string {
	s := &f.styles
	r := f.res
	var out []string
	text := func(t string, indent int, style lipgloss.Style) {
		for _, l := range wrapSpaces(transcript.SanitizeTerminal(t), max(w-indent-1, 10)) {
			out = append(out, cells.Truncate(strings.Repeat(" ", indent)+style.Render(l), w))
		}
	}
	// code shows lines of a command or a file; it reports whether one was
	// too wide for the screen and cut.
	code := func(lines []string) (cut bool) {
		pad := strings.Repeat(" ", codeIndent)
		for _, l := range lines {
			for _, sl := range strings.Split(transcript.SanitizeTerminal(l), "\n") {
				fit := cells.Truncate(sl, w-codeIndent)
				cut = cut || fit != sl
				out = append(out, pad+s.Code.Render(fit))
			}
		}
		return cut
	}
	step := func(n, t string) {
		for i, l := range wrapSpaces(t, max(w-codeIndent-1, 10)) {
			lead := strings.Repeat(" ", codeIndent)
			if i == 0 {
				lead = "  " + s.Number.Render(n) + "  "
			}
			out = append(out, cells.Truncate(lead+s.Strong.Render(l), w))
		}
	}
	out = append(out, "")
	where := fmt.Sprintf("The room lives in %s; its output, the spec, will be %s.", r.Dir, r.Spec)
	if f.existed {
		where = fmt.Sprintf("The room already existed in %s, so its topic and budget are the ones it was created with; the prompts are written again.", r.Dir)
	}
	text(where, 2, s.Text)
	if f.note != "" {
		text("Note: "+f.note, 2, s.Warning)
	}
	if r.Program != seatcmd.DefaultProgram {
		text(fmt.Sprintf("roundtable is not on your PATH (or that one is another build), so the commands start this one by its full path: %s.", r.Program), 2, s.Muted)
	}
	for i, seat := range f.seats {
		out = append(out, "")
		f.seatLine[i] = len(out)
		mark, label := "  ", s.Strong
		if i == f.seatFocus {
			mark, label = s.FocusLabel.Render("▸ "), s.FocusLabel
		}
		head := fmt.Sprintf("%s seat (%s)", capital(mdrender.Inline(seat)), mdrender.Inline(r.agent(i)))
		if f.persons[i] {
			// No agent CLI either: the user plays the seat.
			out = append(out, cells.Truncate(mark+s.Number.Render(fmt.Sprint(i+1))+"  "+label.Render(capital(mdrender.Inline(seat))+" seat (you, at the keyboard)"), w))
			text("You play this seat: enter opens the room with it taken, and a composer opens on your turn. From another terminal instead: "+fmt.Sprint(i+1)+" copies the command.", codeIndent, s.Text)
			code(seatcmd.Wrap(f.personArgv(i), w-codeIndent, 2))
			continue
		}
		if f.played[i].on {
			// No agent CLI to choose: roundtable plays the seat.
			out = append(out, cells.Truncate(mark+s.Number.Render(fmt.Sprint(i+1))+"  "+label.Render(head), w))
			lines, argv := f.playedLines(i)
			style := s.Text
			if st := f.starts[i]; st.err != nil || st.status.Failed() {
				style = s.Warning
			}
			text(lines[0], codeIndent, style)
			text(lines[1], codeIndent, s.Muted)
			if len(argv) > 0 {
				code(seatcmd.Wrap(argv, w-codeIndent, 2))
			}
			continue
		}
		choice := s.Arrow.Render("◂ ") + s.Value.Render(f.clients[i].Name()) + s.Arrow.Render(" ▸")
		out = append(out, cells.Truncate(mark+s.Number.Render(fmt.Sprint(i+1))+"  "+label.Render(head)+"   "+choice, w))
		c, st := f.clients[i], r.seat(i)
		var cut bool
		if c == seatcmd.JSONFile {
			cut = code(strings.Split(seatcmd.MCPServersJSON(st), "\n"))
		} else {
			cut = code(seatcmd.Wrap(c.Argv(st), w-codeIndent, 2))
		}
		if cut {
			text(fmt.Sprintf("Part of it is cut to fit the screen (…): %d copies it whole.", i+1), codeIndent, s.Warning)
		}
		text(c.Note(st), codeIndent, s.Muted)
		if f.council() {
			// Each seat's prompt is its own: name it where the seat is,
			// from the folder the commands run in, so it fits.
			path, _ := r.prompt(i)
			if rel, err := filepath.Rel(r.Cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
			text("Its brief, to paste into the agent (p copies it):", codeIndent, s.Text)
			code([]string{path})
		}
	}
	out = append(out, "")
	watch := fmt.Sprintf("Press enter to watch the room here (or run: roundtable watch --room %s).", r.Room)
	if f.council() {
		if len(f.mcpSeats()) == 0 {
			text("roundtable plays every seat. "+watch, 2, s.Text)
			return out
		}
		step("m", fmt.Sprintf("Agents configured by a file: ←/→ shows a seat's mcpServers entry; m copies those of %s.", f.mcpSeatsNoun()))
		step("p", "Then give each agent its brief: p copies the focused seat's prompt (tab moves between the seats); y copies everything.")
		out = append(out, "")
		text("The prompts keep each agent looping on wait_for_message; MCP has no push. "+watch, 2, s.Text)
		return out
	}
	if len(f.mcpSeats()) == 0 {
		text(fmt.Sprintf("roundtable plays both seats. Press enter to watch the room here (or run: roundtable watch --room %s).", r.Room), 2, s.Text)
		return out
	}
	both := "3 copies both."
	if len(f.mcpSeats()) == 1 {
		both = "3 copies the MCP seat's."
	}
	step("3", "Agents configured by a file: ←/→ shows a seat's mcpServers entry; "+both)
	switch {
	case f.notMCP(1):
		step("4", "Then give the agent its brief: paste lead.md into the lead (4 copies it)")
		code([]string{r.Prompts[0]})
	case f.notMCP(0):
		step("5", "Then give the agent its brief: paste peer.md into the peer (5 copies it)")
		code([]string{r.Prompts[1]})
	default:
		step("4", "Then give each agent its brief: paste lead.md into the lead (4 copies it)")
		code([]string{r.Prompts[0]})
		step("5", "and peer.md into the peer (5 copies it)")
		code([]string{r.Prompts[1]})
	}
	out = append(out, "")
	text(fmt.Sprintf("The prompts keep each agent looping on wait_for_message; MCP has no push. Press enter to watch the room here (or run: roundtable watch --room %s).", r.Room), 2, s.Text)
	return out
}

// wrapSpaces wraps prose at spaces only, never inside a word: the page's
// sentences carry names and paths (roundtable-cache-lead,
// ~/.codex/config.toml) that a break at a hyphen or a slash would make
// wrong to copy. A word wider than w starts a line and goes on over the
// next, w cells each (Codex's headless setting is 80 characters): split,
// it can still be read whole, where cut it could not.
func wrapSpaces(s string, w int) []string {
	var lines []string
	var cur strings.Builder
	curW := 0
	for _, word := range strings.Fields(s) {
		ww := ansi.StringWidth(word)
		if ww > w {
			// Its pieces but the last take lines of their own; the last
			// starts a line as a word does.
			pieces := cells.Split(word, w)
			word = pieces[len(pieces)-1]
			ww = ansi.StringWidth(word)
			if cur.Len() > 0 {
				lines = append(lines, cur.String())
			}
			lines = append(lines, pieces[:len(pieces)-1]...)
			cur.Reset()
			curW = 0
		}
		if cur.Len() > 0 && curW+1+ww > w {
			lines = append(lines, cur.String())
			cur.Reset()
			curW = 0
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
			curW++
		}
		cur.WriteString(word)
		curW += ww
	}
	if cur.Len() > 0 || len(lines) == 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
