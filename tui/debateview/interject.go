package debateview

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/composer"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// The person speaks to the panel (issue 14): i opens the composer, a sent
// note goes to the running debate (Session.Interject) and comes back as a
// note event, shown as a band across every column between the turns it
// came between (and read from the room's notes in a replay). With the
// debate set to pause between rounds, the screen says so after each round:
// enter goes on, i speaks first.

// composerTitle is the composer's title on this screen.
const composerTitle = "Note to the panel: every later persona and the moderator read it as your words"

// interject is what the debate screen keeps for the person's notes.
type interject struct {
	sess   *debate.Session // the running debate; nil before it starts, and in a replay
	box    composer.Model
	made   bool // box was built (the zero composer is not ready)
	paused int  // the round the debate is paused after; 0: not paused
	// keysOff: the screen's keys were switched off for the composer.
	keysOff bool
	lines   []string
}

// noteKeys are the debate screen's keys for notes: i speaks, enter goes
// on after a pause.
func noteKeys() (speak, goOn key.Binding) {
	return key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "note to the panel")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go on"))
}

// composing reports whether the composer is open: it then takes every key
// but ctrl+c.
func (m *Model) composing() bool { return m.note.made && m.note.box.IsOpen() }

// canSpeak reports whether a note can reach the debate now: it runs, here
// or in another process on this machine, and the verdict is not being
// written yet (or the debate is paused before it).
func (m *Model) canSpeak() bool {
	if m.note.sess != nil {
		return m.phase == phaseRunning || m.note.paused > 0
	}
	return m.followingRun() && !m.remote() && !m.verdict.waiting && m.verdict.text == ""
}

// openComposer is i.
func (m *Model) openComposer() tea.Cmd {
	if !m.canSpeak() {
		return nil
	}
	if !m.note.made {
		m.note.box = composer.New("What should the panel hear? (enter sends)")
		m.note.made = true
	}
	m.note.box.SetDark(m.styles.Dark)
	m.note.box.SetWidth(max(m.width, 20))
	m.note.box.SetMaxRows(max(min(composer.DefaultMaxRows, m.height/4), 1))
	m.setStatus("Writing a note to the panel: enter sends it, esc puts it away (kept), ctrl+c quits.")
	return m.note.box.Open(composerTitle)
}

// composerUpdate hands a message (a key, the editor's text) to the open composer and acts on what it did.
func (m *Model) composerUpdate(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	var res composer.Result
	m.note.box, cmd, res = m.note.box.Update(msg)
	switch {
	case res.Err != "":
		m.setError(mdrender.Inline(res.Err))
	case res.Outcome == composer.Sent:
		return tea.Batch(cmd, m.sendNote(res.Text))
	case res.Outcome == composer.Cancelled:
		m.setStatus("Note put away; i opens it again with what you wrote.")
	}
	return cmd
}

// sendNote sends the note in the background: it is written into the
// room's notes (room.AddNote: a debate running here through its Session,
// one another process runs straight into its room), and the engine running
// it hands it to the next persona to speak.
func (m *Model) sendNote(text string) tea.Cmd {
	if !m.canSpeak() {
		m.note.box.SetValue(text)
		m.setError("The debate no longer takes notes: the moderator is writing the verdict, or it has ended. Your note is kept in the composer.")
		return nil
	}
	m.setStatus("Sending your note…")
	id, sess, r := m.id, m.note.sess, m.room
	return func() tea.Msg {
		var err error
		if sess != nil {
			err = sess.Interject(text)
		} else {
			err = noteToRoom(r, text)
		}
		return noteSentMsg{id: id, text: text, err: err}
	}
}

// noteToRoom writes a note from the person into a debate room that
// another process runs, through a handle of its own.
func noteToRoom(r *room.Room, text string) error {
	own, err := room.Open(r.Cwd(), r.Config().Room)
	if err != nil {
		return err
	}
	_, err = own.AddNote(debate.NoteFrom, strings.TrimSpace(text), 0)
	var closed *room.ClosedError
	if errors.As(err, &closed) {
		return debate.ErrDebateEnded
	}
	return err
}

// noteSentMsg says whether a note was taken.
type noteSentMsg struct {
	id   int64
	text string
	err  error
}

// onNoteSent says how the note went; a refused one goes back into the
// composer.
func (m *Model) onNoteSent(msg noteSentMsg) {
	if msg.err != nil {
		if m.note.made {
			m.note.box.SetValue(msg.text)
		}
		m.setError("The note was not taken: " + mdrender.Inline(msg.err.Error()) + " It is kept in the composer (i).")
		return
	}
	if m.note.paused > 0 {
		m.setStatus(m.pausedStatus())
		return
	}
	m.setStatus("Your note joins the debate before the next turn.")
}

// goOn is enter while paused: the debate goes on with the next round (or
// the verdict).
func (m *Model) goOn() {
	if m.note.paused == 0 || m.note.sess == nil {
		return
	}
	m.note.sess.Continue()
	m.note.paused = 0
	if m.phase == phaseWeighing {
		m.verdict.waiting = true
		m.setStatus("The moderator is reading the whole debate, your notes too.")
		return
	}
	m.setStatus("Going on.")
}

// noteSetDark follows the screen's background.
func (m *Model) noteSetDark(dark bool) {
	if m.note.made {
		m.note.box.SetDark(dark)
	}
}

// pausedStatus is the status line while the debate waits for the person.
// A screen watching a debate run elsewhere says who goes on.
func (m *Model) pausedStatus() string {
	if m.note.sess == nil {
		return fmt.Sprintf("Paused after round %d: the debate waits for the person running it (enter in its screen).", m.note.paused)
	}
	return fmt.Sprintf("Paused after round %d: enter to go on, i to speak.", m.note.paused)
}

// applyNote takes a note or pause event into the screen.
func (m *Model) applyNote(ev debate.Event) {
	switch ev.Type {
	case debate.EventNote:
		m.addNoteBand(ev.From, ev.Text, ev.Round)
		switch {
		case m.feed != nil:
			// A room read from the store: the note is part of what it shows.
		case m.note.paused > 0:
			m.setStatus(m.pausedStatus())
		default:
			m.setStatus("Your note joined the debate; the next persona reads it.")
		}
	case debate.EventPause:
		m.note.paused = ev.Round
		// The verdict waits for the person too.
		m.verdict.waiting = false
		m.setStatus(m.pausedStatus())
	case debate.EventRoundStart, debate.EventTurnStart, debate.EventToken, debate.EventRanking, debate.EventSummary:
		// The debate went on: from the store, a watcher learns it so.
		if m.note.paused > 0 {
			m.note.paused = 0
			if m.note.sess == nil {
				m.setWatchingStatus()
			}
		}
	case debate.EventDone, debate.EventError:
		m.note.paused = 0
		m.note.sess = nil
	default:
	}
}

// addNoteBand adds a note to the end of every column: each persona reads
// it before its next turn, so it sits between the turns it came between.
func (m *Model) addNoteBand(from, text string, round int) {
	for _, c := range m.cols {
		c.turns = append(c.turns, &turn{round: round, text: text, note: true, from: from})
		c.gen++
	}
}

// layoutNote lays out a note band at its column's width: a full-width
// heading bar, then the note's lines behind a bar, and reports whether they
// changed.
func (m *Model) layoutNote(c *column, t *turn) bool {
	w := c.w
	if t.w == w && t.head != "" {
		return false
	}
	s := &m.styles
	who := "You"
	if t.from != "" && t.from != room.NoteFromUser {
		who = transcript.NoteLabel(t.from)
	}
	label := fmt.Sprintf(" ✎ %s · note to the panel · round %d ", who, t.round)
	t.head = s.WarnBanner.Render(cells.Pad(cells.Truncate(label, w), w))
	bar := s.Warning.Render("┃ ")
	inner := max(w-2, 1)
	t.body = t.body[:0]
	for _, l := range strings.Split(cells.Wrap(strings.TrimSpace(transcript.SanitizeTerminal(t.text)), inner), "\n") {
		t.body = append(t.body, cells.Fit(bar+s.Text.Render(l), w))
	}
	t.w, t.exact = w, true
	return true
}

// composerLines prepares the composer's lines at width w (none when
// closed): they go between the columns and the status line.
func (m *Model) composerLines(w int) int {
	m.note.lines = m.note.lines[:0]
	if !m.composing() {
		return 0
	}
	m.note.box.SetWidth(w)
	for _, l := range strings.Split(m.note.box.View(), "\n") {
		m.note.lines = append(m.note.lines, cells.Fit(l, w))
	}
	return len(m.note.lines)
}

// noteStatusLabel is the header's state while paused.
func (m *Model) noteStatusLabel() (string, bool) {
	if m.note.paused == 0 {
		return "", false
	}
	return m.styles.Warning.Render(fmt.Sprintf("⏸ paused after round %d", m.note.paused)), true
}

// syncNoteKeys enables i and enter when they work. While the composer is
// open it takes the keys, so the screen's own are off (the composer shows
// its keys under the text).
func (m *Model) syncNoteKeys() {
	k := &m.keys
	if m.composing() {
		for _, b := range []*key.Binding{
			&k.NextPane, &k.PrevPane, &k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom,
			&k.ExportMD, &k.ExportHTML, &k.Copy, &k.Stop, &k.Again, &k.Help, &k.Quit, &k.Interject, &k.GoOn,
			&k.Search, &k.NextMatch, &k.PrevMatch, &k.Palette, &k.Retry,
		} {
			b.SetEnabled(false)
		}
		m.note.keysOff = true
		return
	}
	if m.note.keysOff {
		// The keys syncKeys does not manage are always on: on again.
		for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.Help, &k.Quit, &k.Palette} {
			b.SetEnabled(true)
		}
		m.note.keysOff = false
	}
	k.Interject.SetEnabled(m.canSpeak())
	k.GoOn.SetEnabled(m.note.paused > 0 && m.note.sess != nil)
}
