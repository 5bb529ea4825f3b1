package watch

// A person takes a seat: `roundtable watch --take <seat>` (lead, peer, or
// any seat of a council), or t while a seat is free. The screen then holds the seat (room.Person: the seat's
// lock and server.log's connect line), opens the composer by itself on the
// seat's turn, posts through the store under the seat's rules, shows the
// draft to every other watcher while the person writes, and, for the
// lead, writes the spec in $EDITOR (S) and closes the room (C, confirmed).
// Quitting, leaving the screen or a crash caught by the program gives the
// seat up (Close).

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/composer"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// DraftEvery is how often, at most, the draft of a person writing a turn
// is written for the other watchers: the latest text is always written.
const DraftEvery = 200 * time.Millisecond

// seatHolder is the seat this screen holds, shared by every copy of the
// Model, so Close gives it up whichever copy closes.
type seatHolder struct {
	mu     sync.Mutex
	p      *room.Person
	closed bool
}

// set keeps p; false when the screen closed meanwhile (p is then given up).
func (h *seatHolder) set(p *room.Person) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		_ = p.Release()
		return false
	}
	h.p = p
	return true
}

// release gives the seat up, once.
func (h *seatHolder) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.p != nil {
		_ = h.p.Release()
	}
}

// takeState is the screen's part for a person in a seat.
type takeState struct {
	holder *seatHolder
	person *room.Person // the seat held; nil: none
	comp   composer.Model
	dark   bool

	busy         string // what is being done in a command ("posting"); "": nothing
	choosing     bool   // t with several seats free: l or p (a council: the seat's number) picks one
	confirmClose bool   // C pressed: y closes
	specWritten  bool   // S wrote the spec from this screen
	openedAt     int    // messages in the room when the composer last opened by itself; -1: never
	draftDue     bool   // a draft tick is pending
	draftText    string // the text last written as the draft
	draftStarted time.Time
	// turnTitle is the composer's title without the kind ("Your turn as
	// lead · round 2"); kinds are the seat's (the default first).
	turnTitle string
	kinds     []string
}

func newTakeState(dark bool) takeState {
	c := composer.New("Write your post (Markdown). Start with /objection (or another kind) to choose its kind.")
	c.SetDark(dark)
	return takeState{holder: &seatHolder{}, comp: c, dark: dark, openedAt: -1}
}

// The messages of a person's seat, each for the screen id that asked.
type (
	takenMsg struct {
		id   int64
		seat string
		p    *room.Person
		err  error
	}
	postedMsg struct {
		id   int64
		text string // what the person wrote, kept when refused
		err  error
	}
	draftTickMsg    struct{ id int64 }
	specPreparedMsg struct {
		id   int64
		path string
		err  error
	}
	specEditedMsg struct {
		id   int64
		path string
		err  error
	}
	specWrittenMsg struct {
		id   int64
		path string
		err  error
	}
	roomClosedMsg struct {
		id  int64
		err error
	}
)

// TakeSeat seats a person before the screen starts (watch --take): the
// room must exist. A refusal names who holds the seat. The returned
// Person is handed to the screen in Options and given up by Close.
func TakeSeat(cwd, name, seat string) (*room.Person, error) {
	r, err := room.Open(cwd, name)
	if errors.Is(err, room.ErrNoRoom) {
		return nil, fmt.Errorf("no room %q to take a seat in; start it with roundtable seed --room %s --topic \"...\" (or an agent's seat server) first", name, name)
	}
	if err != nil {
		return nil, err
	}
	if cfg := r.Config(); !cfg.IsDebate() && !cfg.HasSeat(seat) {
		return nil, fmt.Errorf("--take %s: %w: room %s has no such seat; give one of its seats: %s",
			mdrender.Inline(seat), room.ErrBadSeat, name, strings.Join(cfg.Seats(), ", "))
	}
	p, err := r.TakeSeatAsPerson(seat)
	switch {
	case errors.Is(err, room.ErrClosed):
		return nil, fmt.Errorf("cannot take the %s seat: %w; watch it without --take", seat, err)
	case err != nil:
		return nil, fmt.Errorf("cannot take the %s seat: %w", seat, err)
	}
	return p, nil
}

// releaseSeat gives up the seat this screen holds, if any.
func (m Model) releaseSeat() { m.take.holder.release() }

// adoptSeat starts the screen in the seat taken before it (Options.Person).
func (m *Model) adoptSeat(p *room.Person) {
	if p != nil && m.take.holder.set(p) {
		m.take.person = p
		m.setStatus(tookStatus(p.Seat()), true)
	}
}

// tookStatus is the status once the person holds seat.
func tookStatus(seat string) string {
	return "you play the " + seat + ": the composer opens on your turn; q gives the seat up"
}

// freeSeats are the seats server.log shows nobody in.
func (m *Model) freeSeats() []string {
	var free []string
	for _, seat := range m.seatOrder() {
		si := room.SeatInfo{Seat: seat, State: room.StateAbsent}
		for _, s := range m.seats {
			if s.Seat == seat {
				si = s
			}
		}
		if si.State == room.StateAbsent || si.State == room.StateDisconnected {
			free = append(free, seat)
		}
	}
	return free
}

// seatRoom reports an open MCP room on screen, where a seat can be played.
func (m *Model) seatRoom() bool {
	return m.phase == phaseLive && m.room != nil && !m.cfg.IsDebate() && m.st.Closed == nil
}

// myTurn reports whether the held seat may post now.
func (m *Model) myTurn() bool {
	p := m.take.person
	return p != nil && m.seatRoom() && m.loaded && m.st.Turn == p.Seat() &&
		(p.Seat() != room.SeatLead || !m.st.OutOfBudget)
}

// syncTakeKeys enables t, S and C when they work and words t for what it
// does now.
func (m *Model) syncTakeKeys() {
	k := &m.keys
	p := m.take.person
	idle := m.take.busy == "" && !m.take.comp.IsOpen()
	switch {
	case p != nil:
		k.Take.SetHelp("t", "write your turn")
		k.Take.SetEnabled(idle && m.myTurn())
	default:
		free := m.freeSeats()
		switch len(free) {
		case 1:
			k.Take.SetHelp("t", "take the "+free[0]+" seat")
		default:
			k.Take.SetHelp("t", "take a seat")
		}
		k.Take.SetEnabled(idle && m.seatRoom() && len(free) > 0)
	}
	lead := p != nil && p.Seat() == room.SeatLead && m.seatRoom() && idle
	k.WriteSpec.SetEnabled(lead)
	k.CloseRoom.SetEnabled(lead)
	// The composer takes every key but ctrl+c and shows its own: the
	// screen's help says nothing that would not work. (syncKeys sets the
	// others each time; ? and q are always on otherwise.)
	open := m.take.comp.IsOpen()
	k.Help.SetEnabled(!open)
	k.Quit.SetEnabled(!open)
	if open {
		for _, b := range []*key.Binding{
			&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.HalfPageUp, &k.HalfPageDown, &k.Top, &k.Bottom,
			&k.Follow, &k.Spec, &k.Back, &k.ExportMD, &k.ExportHTML, &k.Copy,
		} {
			b.SetEnabled(false)
		}
	}
}

// takeKey handles a key press for the person's seat: everything while the
// composer is open (but ctrl+c), the answer to a question asked, and t, S
// and C. ok is false for a key the rest of the screen handles.
func (m *Model) takeKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	t := &m.take
	if key.Matches(msg, m.keys.ForceQuit) {
		return nil, false // ctrl+c always leaves
	}
	switch {
	case t.comp.IsOpen():
		return m.composerKey(msg), true
	case m.find != nil && (m.find.st.Typing() || m.find.pal.IsOpen()):
		return nil, false // the search prompt and the palette take the letters
	case t.choosing:
		t.choosing = false
		if seat := m.chosenSeat(msg.String()); seat != "" {
			return m.takeSeatCmd(seat), true
		}
		m.setStatus("no seat taken", true)
		return nil, true
	case t.confirmClose:
		t.confirmClose = false
		if msg.String() != "y" {
			m.setStatus("the room stays open", true)
			return nil, true
		}
		t.busy = "closing the room"
		m.setStatus("closing the room…", true)
		return closeRoomCmd(m.id, t.person), true
	case key.Matches(msg, m.keys.Take):
		if t.person != nil {
			return m.openComposer(), true
		}
		free := m.freeSeats()
		if len(free) == 1 {
			return m.takeSeatCmd(free[0]), true
		}
		t.choosing = true
		m.setStatus("take which seat? "+m.seatChoices(free)+" · any other key: none", true)
		return nil, true
	case key.Matches(msg, m.keys.WriteSpec):
		t.busy = "writing the spec"
		m.setStatus("opening the spec in $EDITOR…", true)
		return prepareSpecCmd(m.id, t.person, m.cfg.Topic), true
	case key.Matches(msg, m.keys.CloseRoom):
		t.confirmClose = true
		ask := "close the room for good? y closes it (the spec must be written: S) · any other key keeps it open"
		if t.specWritten {
			ask = "close the room for good? y closes it · any other key keeps it open"
		}
		m.setStatus(ask, true)
		return nil, true
	}
	return nil, false
}

// takeSeatCmd takes seat in a command: the lock and server.log are files.
func (m *Model) takeSeatCmd(seat string) tea.Cmd {
	m.take.busy = "taking the " + seat + " seat"
	m.setStatus("taking the "+seat+" seat…", true)
	id, r := m.id, m.room
	return func() tea.Msg {
		p, err := r.TakeSeatAsPerson(seat)
		return takenMsg{id: id, seat: seat, p: p, err: err}
	}
}

// takeMsg handles the results of the seat's commands, and gives the
// composer what is its own (the editor's text, the cursor's blink).
func (m *Model) takeMsg(msg tea.Msg) tea.Cmd {
	t := &m.take
	switch msg := msg.(type) {
	case takenMsg:
		if msg.id != m.id {
			return nil
		}
		t.busy = ""
		if msg.err != nil {
			m.setStatus("cannot take the "+msg.seat+" seat: "+msg.err.Error(), false)
			return nil
		}
		if t.holder.set(msg.p) {
			t.person = msg.p
			t.openedAt = -1
			m.setStatus(tookStatus(msg.seat), true)
		}
		return nil
	case postedMsg:
		if msg.id == m.id {
			return m.posted(msg)
		}
		return nil
	case draftTickMsg:
		if msg.id != m.id {
			return nil
		}
		t.draftDue = false
		return m.writeDraft()
	case specPreparedMsg:
		if msg.id != m.id {
			return nil
		}
		if msg.err != nil {
			t.busy = ""
			m.setStatus(msg.err.Error(), false)
			return nil
		}
		id, path := m.id, msg.path
		return composer.EditFile(path, func(err error) tea.Msg { return specEditedMsg{id: id, path: path, err: err} })
	case specEditedMsg:
		if msg.id != m.id {
			return nil
		}
		return writeSpecCmd(m.id, t.person, msg.path, msg.err)
	case specWrittenMsg:
		if msg.id != m.id {
			return nil
		}
		t.busy = ""
		if msg.err != nil {
			m.setStatus(msg.err.Error(), false)
			return nil
		}
		t.specWritten = true
		m.setStatus("the spec is written to "+msg.path+": C closes the room", true)
		return nil
	case roomClosedMsg:
		if msg.id != m.id {
			return nil
		}
		t.busy = ""
		if msg.err != nil {
			m.setStatus(closeRefusal(msg.err), false)
			return nil
		}
		m.setStatus("you closed the room", true)
		return nil
	}
	if !t.comp.IsOpen() {
		return nil
	}
	var cmd tea.Cmd
	var res composer.Result
	t.comp, cmd, res = t.comp.Update(msg)
	if res.Err != "" {
		m.setStatus(res.Err, false)
	}
	return tea.Batch(cmd, m.draftLater())
}

// composerKey gives a key to the open composer and acts on what it did.
func (m *Model) composerKey(msg tea.KeyPressMsg) tea.Cmd {
	t := &m.take
	var cmd tea.Cmd
	var res composer.Result
	t.comp, cmd, res = t.comp.Update(msg)
	switch res.Outcome {
	case composer.Sent:
		kind, body := splitKind(res.Text)
		if kind == "" && len(t.kinds) > 0 {
			kind = t.kinds[0] // the default the composer's title names
		}
		t.busy = "posting"
		t.draftText = ""
		m.setStatus("posting…", true)
		return tea.Batch(cmd, postCmd(m.id, t.person, kind, body, res.Text))
	case composer.Cancelled:
		m.setStatus("put away, kept: t opens it again", true)
		t.draftText = ""
		return tea.Batch(cmd, draftCmd(t.person, "", time.Time{}))
	case composer.None:
	}
	if res.Err != "" {
		m.setStatus(res.Err, false)
	}
	return tea.Batch(cmd, m.draftLater())
}

// draftLater schedules the draft's next write when the text changed since
// the last one and none is pending: at most one write per DraftEvery.
func (m *Model) draftLater() tea.Cmd {
	t := &m.take
	if t.person == nil || t.draftDue || !t.comp.IsOpen() || t.comp.Value() == t.draftText {
		return nil
	}
	t.draftDue = true
	id := m.id
	return tea.Tick(DraftEvery, func(time.Time) tea.Msg { return draftTickMsg{id: id} })
}

// writeDraft writes the composer's text as the seat's draft, if it changed.
func (m *Model) writeDraft() tea.Cmd {
	t := &m.take
	if t.person == nil || t.busy == "posting" {
		return nil
	}
	text := ""
	if t.comp.IsOpen() {
		text = t.comp.Value()
	}
	if text == t.draftText {
		return nil
	}
	if t.draftText == "" || t.draftStarted.IsZero() {
		t.draftStarted = m.opts.Now()
	}
	t.draftText = text
	if strings.TrimSpace(text) == "" {
		t.draftStarted = time.Time{}
	}
	return draftCmd(t.person, text, t.draftStarted)
}

// draftCmd writes (or, for blank text, clears) the seat's draft.
func draftCmd(p *room.Person, text string, started time.Time) tea.Cmd {
	if p == nil {
		return nil
	}
	return func() tea.Msg {
		_ = p.Draft(text, started) // a draft is a view: failing to write one loses nothing
		return nil
	}
}

// openComposer opens the composer for the seat's turn.
func (m *Model) openComposer() tea.Cmd {
	t := &m.take
	p := t.person
	kinds := m.kindsFor(p.Seat())
	t.turnTitle = fmt.Sprintf("Your turn as %s · round %d", p.Seat(), m.st.Round+boolInt(p.Seat() == room.SeatLead))
	t.kinds = kinds
	t.comp.SetPlaceholder(fmt.Sprintf("Write your post (Markdown). Start with /%s (or another kind) to choose its kind.", kinds[min(1, len(kinds)-1)]))
	t.openedAt = len(m.st.Messages)
	t.draftStarted = time.Time{}
	return t.comp.Open(m.takeTitle())
}

// takeTitle is the composer's title: the kind typed at the start of the
// text, or the seat's default kind and the others it could start with.
func (m *Model) takeTitle() string {
	t := &m.take
	if len(t.kinds) == 0 {
		return t.turnTitle
	}
	if kind, _ := splitKind(t.comp.Value()); kind != "" {
		return t.turnTitle + " · kind " + mdrender.Inline(kind)
	}
	others := make([]string, 0, len(t.kinds)-1)
	for _, k := range t.kinds[1:] {
		others = append(others, "/"+k)
	}
	return fmt.Sprintf("%s · kind %s (start with %s… to change it)", t.turnTitle, t.kinds[0], strings.Join(others, ", "))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// takeTurn opens the composer by itself when the seat's turn comes (once
// per turn: put away, it stays away until t), and tells a lead whose
// budget is spent what is left to do.
func (m *Model) takeTurn() tea.Cmd {
	t := &m.take
	p := t.person
	if p == nil || t.busy != "" || t.comp.IsOpen() || m.steer.c.IsOpen() || !m.seatRoom() || !m.loaded || t.openedAt == len(m.st.Messages) {
		return nil
	}
	if m.st.Turn != p.Seat() {
		return nil
	}
	if p.Seat() == room.SeatLead && m.st.OutOfBudget {
		t.openedAt = len(m.st.Messages)
		m.setStatus("the round budget is spent: S writes the spec, then C closes the room", true)
		return nil
	}
	return m.openComposer()
}

// postCmd posts for the person; text is what they wrote, kept if refused.
func postCmd(id int64, p *room.Person, kind, body, text string) tea.Cmd {
	return func() tea.Msg {
		_, _, err := p.Post(kind, body)
		return postedMsg{id: id, text: text, err: err}
	}
}

// posted takes a post's result: a refused post goes back into the
// composer, with why.
func (m *Model) posted(msg postedMsg) tea.Cmd {
	t := &m.take
	t.busy = ""
	if msg.err == nil {
		t.draftText, t.draftStarted = "", time.Time{}
		m.setStatus("posted", true)
		return nil
	}
	if t.comp.Value() == "" {
		t.comp.SetValue(msg.text)
	}
	m.setStatus(postRefusal(msg.err), false)
	title := "Not posted: edit and send again, or esc"
	return t.comp.Open(title)
}

// postRefusal says why a post was refused and what to do, in a sentence.
func postRefusal(err error) string {
	var turn *room.NotYourTurnError
	var budget *room.BudgetSpentError
	var closed *room.ClosedError
	var large *room.TooLargeError
	var kind *room.BadKindError
	switch {
	case errors.As(err, &turn):
		return fmt.Sprintf("not posted: it is the %s's turn, not yours; your text is kept, send it when your turn comes", turn.Turn)
	case errors.As(err, &budget):
		return fmt.Sprintf("not posted: the round budget is spent (%d of %d rounds); as the lead, S writes the spec and C closes the room", budget.Round, budget.Budget)
	case errors.As(err, &closed):
		return "not posted: " + closed.Error() + "; your text is kept in the composer (ctrl+e opens it in $EDITOR to save it)"
	case errors.As(err, &large):
		return fmt.Sprintf("not posted: the text is %d bytes, over the %d KiB limit; shorten it and send again", large.Size, large.Limit>>10)
	case errors.As(err, &kind):
		return "not posted: " + kind.Error() + "; start with a short kind like /objection, or with // for a text that starts with a slash"
	case errors.Is(err, room.ErrEmpty):
		return "not posted: there is no text after the kind; write the post after it"
	}
	return "not posted: " + strings.TrimSuffix(err.Error(), ".") + "; your text is kept, send it again"
}

// closeRefusal says why the room was not closed and what to do.
func closeRefusal(err error) string {
	var closed *room.ClosedError
	switch {
	case errors.Is(err, room.ErrNoSpec):
		return "not closed: " + err.Error() + "; S writes the spec first"
	case errors.As(err, &closed):
		return "not closed: it was already closed (" + closed.Reason + ")"
	}
	return "not closed: " + strings.TrimSuffix(err.Error(), ".") + "; press C to try again"
}

// splitKind reads the kind a post starts with: "/objection The reason…"
// posts "The reason…" as an objection; "//x" posts "/x"; anything else
// posts the text under the seat's default kind.
func splitKind(text string) (kind, body string) {
	if strings.HasPrefix(text, "//") {
		return "", text[1:]
	}
	rest, ok := strings.CutPrefix(text, "/")
	if !ok {
		return "", text
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' })
	if end < 0 {
		return rest, ""
	}
	return rest[:end], strings.TrimSpace(rest[end:])
}

// specDraftPattern names the temporary file the lead writes the spec in,
// in $EDITOR, before it becomes the room's spec (WriteSpec, atomic).
const specDraftPattern = "roundtable-spec-*.md"

// prepareSpecCmd writes the spec so far (or a start from the topic) to a
// file for $EDITOR.
func prepareSpecCmd(id int64, p *room.Person, topic string) tea.Cmd {
	return func() tea.Msg {
		text, err := p.Room().ReadSpec("")
		if err != nil || len(strings.TrimSpace(string(text))) == 0 {
			text = []byte("# " + strings.TrimSpace(topic) + "\n\n")
		}
		path, err := writeTemp(specDraftPattern, text)
		if err != nil {
			return specPreparedMsg{id: id, err: fmt.Errorf("cannot make a file for the editor: %w; check that the temporary folder ($TMPDIR) is writable", err)}
		}
		return specPreparedMsg{id: id, path: path}
	}
}

// writeSpecCmd writes what the editor left in path as the room's spec.
func writeSpecCmd(id int64, p *room.Person, path string, editErr error) tea.Cmd {
	return func() tea.Msg {
		defer removeTemp(path)
		if editErr != nil {
			return specWrittenMsg{id: id, err: fmt.Errorf("the spec was not written: %w", editErr)}
		}
		data, err := readTemp(path)
		if err != nil {
			return specWrittenMsg{id: id, err: fmt.Errorf("the spec was not written: cannot read back what the editor saved (%v); press S to try again", err)}
		}
		out, err := p.WriteSpec(string(data))
		if errors.Is(err, room.ErrEmpty) {
			return specWrittenMsg{id: id, err: errors.New("the spec was not written: the editor left it empty; press S and write it")}
		}
		if err != nil {
			return specWrittenMsg{id: id, err: fmt.Errorf("the spec was not written: %w; press S to try again", err)}
		}
		return specWrittenMsg{id: id, path: out}
	}
}

// closeRoomCmd closes the room as the lead.
func closeRoomCmd(id int64, p *room.Person) tea.Cmd {
	return func() tea.Msg {
		_, err := p.Close("closed by the lead at the keyboard")
		return roomClosedMsg{id: id, err: err}
	}
}

// takeHeight is how many rows the composer takes under the messages, at
// the screen's width and styles.
func (m *Model) takeHeight() int {
	t := &m.take
	if !t.comp.IsOpen() {
		return 0
	}
	if t.dark != m.styles.Dark {
		t.dark = m.styles.Dark
		t.comp.SetDark(t.dark)
	}
	t.comp.SetWidth(m.width)
	t.comp.SetTitle(m.takeTitle())
	return t.comp.Height()
}

// takeLines are the composer's rows (takeHeight sized it).
func (m *Model) takeLines() []string {
	if !m.take.comp.IsOpen() {
		return nil
	}
	return splitLines(m.take.comp.View())
}

// ownDraftHidden leaves out the draft of the seat this screen plays: the
// person sees it in the composer.
func (m *Model) ownDraftHidden(ds []room.Draft) []room.Draft {
	p := m.take.person
	if p == nil {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d.Seat != p.Seat() {
			out = append(out, d)
		}
	}
	return out
}
