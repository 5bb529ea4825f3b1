package transcript

import (
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// doc is a room laid out for rendering. Every string in it has been through
// SanitizeTerminal (or oneLine), so both renderers start from safe text.
type doc struct {
	Topic    string
	Room     string
	Mode     string
	Debate   bool
	Count    int
	Notes    int // the person's notes merged among the messages (notes.go)
	Rounds   string
	Seats    []seatLine
	Duration string
	Groups   []group
	Verdicts []entry
	End      end
	Skipped  []room.Skipped
	colors   []seatClass
	// turn is whose turn it is in an open MCP room (State.Turn), and
	// spent that its budget is used: for a live page's status.
	turn  string
	spent bool
	// closed is closed.json, nil while the room is open.
	closed *room.Closed
}

// seatLine says who sat where: a seat (or persona) and its agent labels.
type seatLine struct {
	Key    string `json:"-"` // the seat's own name, unsanitized: what events and messages call it
	Seat   string
	Agents string
	Class  string
	Stance string // a debate persona's stance (debate --stances): for, against, neutral; "" when it has none
}

// seatClass is the CSS class of one seat and its colors.
type seatClass struct {
	Class string
	Color colorPair
}

// group is a round of messages.
type group struct {
	Title   string
	Entries []entry
}

// entry is one message.
type entry struct {
	Seq   int
	Seat  string
	Agent string
	Kind  string
	Time  string // for reading, UTC
	ISO   string // for <time datetime>, empty when unparseable
	Text  string
	Class string
	Note  bool // a person's note, not a message (notes.go); Seat is its label
}

// end is how the room ended, or that it has not.
type end struct {
	Closed bool
	Text   string
}

// load reads a room through the store and lays it out.
func load(r *room.Room) (*doc, error) {
	st, err := r.State()
	if err != nil {
		return nil, fmt.Errorf("read room %q: %w", filepath.Base(r.Dir()), err)
	}
	seats, err := room.ReadSeats(r.Dir())
	if err != nil {
		// server.log is diagnostic; a transcript without it still says
		// who sat where from the messages.
		seats = nil
	}
	return build(r, st, seats), nil
}

// build lays out a room from its state; it does no I/O but one stat of the
// spec file named by closed.json.
func build(r *room.Room, st room.State, logSeats []room.SeatInfo) *doc {
	cfg := r.Config()
	name := filepath.Base(r.Dir())
	d := &doc{
		Topic:  oneLine(cfg.Topic),
		Room:   oneLine(name),
		Debate: cfg.IsDebate(),
		Count:  len(st.Messages),
	}
	if d.Topic == "" {
		d.Topic = d.Room
	}
	classes := newClassMap(cfg.Agents)
	layout := timeLayout(st.Messages)
	entries := make([]entry, len(st.Messages))
	for i := range st.Messages {
		entries[i] = makeEntry(&st.Messages[i], layout, classes)
	}
	if d.Debate {
		d.Mode = "persona debate"
		d.Rounds = roundsOf(maxRound(st.Messages), cfg.Rounds)
		d.Groups, d.Verdicts = debateGroups(st.Messages, entries)
		d.Seats = debateSeats(cfg, st.Messages, classes)
	} else {
		d.Mode = "MCP room"
		d.Rounds = roundsOf(st.Round, cfg.Budget)
		d.Groups = mcpGroups(st.Messages, entries)
		d.Seats = mcpSeats(cfg.Seats(), logSeats, st.Messages, classes)
	}
	mergeNotes(d, st.Notes, layout)
	d.Duration = duration(st.Messages)
	d.End = endOf(r, st, d.Debate)
	d.closed = st.Closed
	if !d.Debate && st.Closed == nil {
		d.turn, d.spent = oneLine(st.Turn), st.OutOfBudget
	}
	d.Skipped = skippedOf(r, st.Skipped)
	d.colors = classes.list
	return d
}

// classMap hands out one CSS class per seat, in order of first use.
type classMap struct {
	agents []string
	byName map[string]string
	list   []seatClass
}

func newClassMap(agents []string) *classMap {
	return &classMap{agents: agents, byName: map[string]string{}}
}

func (c *classMap) class(seat string) string {
	if cl, ok := c.byName[seat]; ok {
		return cl
	}
	cl := "s" + strconv.Itoa(len(c.list))
	c.byName[seat] = cl
	c.list = append(c.list, seatClass{Class: cl, Color: seatColor(seat, c.agents)})
	return cl
}

func makeEntry(m *room.Message, layout string, classes *classMap) entry {
	e := entry{
		Seq:   m.Seq,
		Seat:  oneLine(m.Seat),
		Agent: oneLine(m.Agent),
		Kind:  oneLine(m.Kind),
		Text:  SanitizeTerminal(m.Text),
		Class: classes.class(m.Seat),
	}
	if t := m.Time(); !t.IsZero() {
		e.Time = t.UTC().Format(layout) + " UTC"
		e.ISO = t.UTC().Format(room.TimeLayout)
	} else {
		e.Time = "time unknown"
		if at := oneLine(m.At); at != "" {
			e.Time = "time unknown (" + at + ")"
		}
	}
	return e
}

// timeLayout shows the date on every message only when the room spans more
// than one day (UTC); the header always gives it.
func timeLayout(msgs []room.Message) string {
	first, last, ok := span(msgs)
	if ok && first.UTC().Format(time.DateOnly) != last.UTC().Format(time.DateOnly) {
		return "2006-01-02 15:04:05"
	}
	return time.TimeOnly
}

// span is the earliest and latest parseable message time.
func span(msgs []room.Message) (first, last time.Time, ok bool) {
	for i := range msgs {
		t := msgs[i].Time()
		if t.IsZero() {
			continue
		}
		if !ok || t.Before(first) {
			first = t
		}
		if !ok || t.After(last) {
			last = t
		}
		ok = true
	}
	return first, last, ok
}

func duration(msgs []room.Message) string {
	first, last, ok := span(msgs)
	if !ok {
		return "no message times"
	}
	first, last = first.UTC(), last.UTC()
	to := last.Format(time.TimeOnly)
	if first.Format(time.DateOnly) != last.Format(time.DateOnly) {
		to = last.Format(time.DateTime)
	}
	return fmt.Sprintf("%s → %s UTC (%s)", first.Format(time.DateTime), to, last.Sub(first).Round(time.Second))
}

func roundsOf(used, limit int) string {
	if limit <= 0 {
		return strconv.Itoa(used) + " (no limit set)"
	}
	return fmt.Sprintf("%d of %d", used, limit)
}

func maxRound(msgs []room.Message) int {
	top := 0
	for i := range msgs {
		top = max(top, msgs[i].Round)
	}
	return top
}
