package watch

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/composer"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// Steering notes from the watch screen: i opens a composer, enter sends
// what it holds to the room as a note from the host, which both seats get
// with their next read_room or wait_for_message (room/mcpserver). Notes
// show in the feed as host bands, where they were given. The note is
// written in a command, off the Update loop.

// noteTitle heads the composer: to both seats, or to every seat of a
// council.
func noteTitle(seats string) string {
	return "Steering note to " + seats + " (from you, the host; it takes no turn)"
}

// notePlaceholder is the empty composer's hint.
func notePlaceholder(seats string) string { return "what " + seats + " should take into account now" }

// noteBox is the screen's composer for steering notes.
type noteBox struct {
	c       composer.Model
	sending bool // a note is being written to the room
}

func newNoteBox(dark bool) noteBox {
	b := noteBox{c: composer.New(notePlaceholder("both seats"))}
	b.c.SetDark(dark)
	return b
}

// noteSentMsg is the outcome of writing a note.
type noteSentMsg struct {
	id   int64
	note room.Note
	text string
	err  error
}

// noteCmd writes text to r as a note from the host.
func noteCmd(id int64, r *room.Room, text string) tea.Cmd {
	return func() tea.Msg {
		n, err := r.AddNote(room.NoteFromHost, text, 0)
		return noteSentMsg{id: id, note: n, text: text, err: err}
	}
}

// canNote reports whether the room on screen takes a steering note now.
func (m *Model) canNote() bool {
	return m.phase == phaseLive && m.room != nil && !m.cfg.IsDebate() && m.st.Closed == nil && !m.showSpec
}

// noteKeyRefused reports an i pressed where no note can go: a closed room
// or a persona debate. openNote says why.
func (m *Model) noteKeyRefused(msg tea.KeyPressMsg) bool {
	return msg.String() == "i" && m.phase == phaseLive && !m.showSpec && (m.st.Closed != nil || m.cfg.IsDebate())
}

// openNote opens the composer, or says why it cannot.
func (m *Model) openNote() tea.Cmd {
	switch {
	case m.cfg.IsDebate():
		m.setStatus("this is a persona debate: speak to the panel with i in its debate screen (roundtable tui), not here", false)
		return nil
	case m.st.Closed != nil:
		m.setStatus("the room is closed and takes no more notes; start a new room to go on", false)
		return nil
	case !m.canNote():
		return nil
	}
	m.steer.c.SetMaxRows(max(min(composer.DefaultMaxRows, m.height/4), 1))
	m.steer.c.SetPlaceholder(notePlaceholder(m.seatsWord()))
	return m.steer.c.Open(noteTitle(m.seatsWord()))
}

// noteUpdate runs before the screen's own Update. While the composer is
// open it takes every key but ctrl+c (handled: true); every other message
// reaches it too, and then the screen (handled: false, cmd to batch).
func (m *Model) noteUpdate(msg tea.Msg) (handled bool, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.steer.c.SetWidth(msg.Width)
		return false, nil
	case tea.BackgroundColorMsg:
		m.steer.c.SetDark(msg.IsDark())
		return false, nil
	case noteSentMsg:
		if msg.id != m.id {
			return true, nil
		}
		m.noteSent(msg)
		return true, nil
	case tea.KeyPressMsg:
		if !m.steer.c.IsOpen() || key.Matches(msg, m.keys.ForceQuit) {
			return false, nil
		}
		var res composer.Result
		m.steer.c, cmd, res = m.steer.c.Update(msg)
		return true, tea.Batch(cmd, m.noteResult(res))
	}
	var res composer.Result
	m.steer.c, cmd, res = m.steer.c.Update(msg)
	return false, tea.Batch(cmd, m.noteResult(res))
}

// noteResult acts on what a key did in the composer.
func (m *Model) noteResult(res composer.Result) tea.Cmd {
	switch {
	case res.Err != "":
		m.setStatus(res.Err, false)
	case res.Outcome == composer.Cancelled:
		if strings.TrimSpace(m.steer.c.Value()) != "" {
			m.setStatus("the note is put away, not sent; i opens it again as you left it", true)
		}
	case res.Outcome == composer.Sent:
		if m.room == nil {
			m.steer.c.SetValue(res.Text)
			m.setStatus("no room to send the note to yet; it is kept: i opens it again", false)
			return nil
		}
		m.steer.sending = true
		m.setStatus("sending the note…", true)
		return noteCmd(m.id, m.room, res.Text)
	}
	return nil
}

// noteSent reports a written note, or puts a refused one back in the
// composer (closed) so nothing typed is lost.
func (m *Model) noteSent(msg noteSentMsg) {
	m.steer.sending = false
	if msg.err == nil {
		m.setStatus(fmt.Sprintf("note %d sent: %s get it with their next read_room or wait_for_message", msg.note.Seq, m.seatsWord()), true)
		m.list.toBottom()
		return
	}
	if strings.TrimSpace(m.steer.c.Value()) == "" {
		m.steer.c.SetValue(msg.text)
	}
	var closed *room.ClosedError
	switch {
	case errors.As(msg.err, &closed):
		m.setStatus("the room closed before the note was sent, so it was not; your text is kept in the composer (i)", false)
	case errors.Is(msg.err, room.ErrTooLarge):
		m.setStatus("the note is over the 256 KiB limit and was not sent; shorten it (i opens it again)", false)
	default:
		m.setStatus(fmt.Sprintf("the note could not be written (%v); it is kept: i opens it again to retry", msg.err), false)
	}
}

// syncNoteKeys enables i where a note can go.
func (m *Model) syncNoteKeys() {
	m.keys.Note.SetEnabled(m.canNote() && !m.steer.sending)
}

// noKeys is a help with no keys.
type noKeys struct{}

func (noKeys) ShortHelp() []key.Binding  { return nil }
func (noKeys) FullHelp() [][]key.Binding { return nil }

// helpKeys are the keys the help shows: none of the screen's while the
// composer is open and takes every key (its own keys show under it).
func (m *Model) helpKeys() help.KeyMap {
	if m.steer.c.IsOpen() || m.take.comp.IsOpen() {
		return noKeys{}
	}
	return m.keys
}

// noteLines is the open composer, drawn above the footer.
func (m *Model) noteLines() []string {
	if !m.steer.c.IsOpen() {
		return nil
	}
	return splitLines(m.steer.c.View())
}

// Notes in the feed.

// placeNotes puts each note after the message it follows (AfterSeq) and
// before the next entry, in order: items are the room's entries by number.
func placeNotes(items []item, notes []room.Note) []item {
	if len(notes) == 0 {
		return items
	}
	out := make([]item, 0, len(items)+len(notes))
	ni := 0
	for _, it := range items {
		for ni < len(notes) && itemSeq(it) > notes[ni].AfterSeq {
			out = append(out, noteItem(&notes[ni]))
			ni++
		}
		out = append(out, it)
	}
	for ; ni < len(notes); ni++ {
		out = append(out, noteItem(&notes[ni]))
	}
	return out
}

func noteItem(n *room.Note) item { return item{kind: kindNote, key: "n:" + n.File, note: n} }

// itemSeq is the message number an entry stands at.
func itemSeq(it item) int {
	switch it.kind {
	case kindMessage, kindVerdict:
		return it.msg.Seq
	case kindSkipped:
		return skippedSeq(it.skipped)
	case kindNote:
		return it.note.AfterSeq
	default:
		return 0
	}
}

// noteFrom names who gave a note, for its band.
func noteFrom(n *room.Note, seats string) string {
	switch n.From {
	case room.NoteFromUser:
		return "you (the user) · note to the panel"
	case room.NoteFromHost, "":
		return "host · steering note to " + seats
	default:
		return mdrender.Inline(n.From) + " · note"
	}
}

// renderNote draws a note as a band across the feed: a rule naming the
// host, the text behind a heavy bar, a closing rule.
func (l *msgList) renderNote(n *room.Note) []string {
	band := l.styles.Title
	label := " " + noteFrom(n, seatsWord(l.cfg)) + " "
	stamp := fmt.Sprintf(" note %d · %s ", n.Seq, l.noteClock(n))
	fill := l.width - 2 - xansi.StringWidth(label) - xansi.StringWidth(stamp) - 2
	var top string
	if fill >= 1 {
		top = band.Render("━━") + l.styles.Strong.Render(label) + band.Render(strings.Repeat("━", fill)) + l.styles.Faint.Render(stamp) + band.Render("━━")
	} else {
		top = band.Render("━━") + xansi.Truncate(l.styles.Strong.Render(label), max(l.width-2, 1), "…")
	}
	out := []string{top}
	bar := band.Render("┃") + " "
	body := l.md().Render(n.Text, l.bodyWidth())
	for _, line := range splitLines(body) {
		if line == "" {
			out = append(out, band.Render("┃"))
			continue
		}
		out = append(out, bar+line)
	}
	return append(out, band.Render(strings.Repeat("━", max(l.width, 1))), "")
}

// noteClock is a note's time, as messages show theirs.
func (l *msgList) noteClock(n *room.Note) string {
	return l.clock(&room.Message{At: n.At})
}
