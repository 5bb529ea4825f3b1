package transcript

import (
	"bytes"

	"github.com/roundtable-dev/roundtable/room"
)

// Live is a room as a live page draws it (room/host/page): the HTML
// transcript's pieces apart, so a page can put each message in its seat's
// column and add the ones that land later. Every piece of HTML in it is
// the export's own: headers escaped, bodies through goldmark and
// bluemonday.
type Live struct {
	Topic  string
	Room   string
	Mode   string // "persona debate" or "MCP room"
	Debate bool
	Rounds string
	// Seats are the columns: a debate's personas, an MCP room's seats, in
	// the room's order, with the agents seen in each.
	Seats []LiveSeat
	// Parts are the messages, notes and verdicts, in the transcript's
	// order.
	Parts  []LivePart
	End    string
	Closed bool
	// Status is an open MCP room's turn ("peer's turn", or that its
	// budget is used); "" otherwise.
	Status string
	// Spec is a closed MCP room's spec, rendered and sanitized as a
	// message is, and SpecPath its path; "" when there is none to show.
	Spec, SpecPath string
	// Style is the export's style sheet and each seat's colors.
	Style string
}

// LiveSeat is one column.
type LiveSeat struct {
	// Key is the seat's own name as the room and its event stream spell
	// it, unsanitized: a page matches a stream's speaker to its column by
	// it (never by the displayed Name, which is cleaned for display). Use
	// it as data only, never as text.
	Key    string `json:"key"`
	Name   string `json:"name"`
	Agents string `json:"agents"`
	Class  string `json:"class"`
	Stance string `json:"stance,omitempty"` // a debate persona's stance (debate --stances)
}

// LivePart is one message, note or verdict, rendered.
type LivePart struct {
	// Seq is the message's seq, or the note's number for a note.
	Seq     int    `json:"seq"`
	Note    bool   `json:"note,omitempty"`
	Verdict bool   `json:"verdict,omitempty"`
	Seat    string `json:"seat,omitempty"` // a message's seat: its column
	Class   string `json:"class,omitempty"`
	Group   string `json:"group"` // its round's title
	HTML    string `json:"html"`
}

// LiveView reads r through the store and lays it out for a live page.
func LiveView(r *room.Room) (*Live, error) { return liveView(r, 0, 0) }

// LiveViewAfter is LiveView with only the parts after message seq and
// note noteSeq rendered and kept: what a page that has the others asks
// for, at the cost of what it lacks, not of the whole room.
func LiveViewAfter(r *room.Room, seq, noteSeq int) (*Live, error) { return liveView(r, seq, noteSeq) }

func liveView(r *room.Room, seq, noteSeq int) (*Live, error) {
	d, err := load(r)
	if err != nil {
		return nil, err
	}
	l := &Live{Topic: d.Topic, Room: d.Room, Mode: d.Mode, Debate: d.Debate, Rounds: d.Rounds, End: d.End.Text, Closed: d.End.Closed}
	for _, s := range d.Seats {
		if d.Debate && s.Seat == room.SeatModerator {
			continue // the verdict has its own place
		}
		agents := s.Agents
		if agents == noAgentsMCP || agents == noAgentsDebate {
			agents = "" // a live column fills in as the seat speaks
		}
		l.Seats = append(l.Seats, LiveSeat{Key: s.Key, Name: s.Seat, Agents: agents, Class: s.Class, Stance: s.Stance})
	}
	var all []*entry
	var groups []string
	var verdict []bool
	after := func(e *entry) bool { return (e.Note && e.Seq > noteSeq) || (!e.Note && e.Seq > seq) }
	for gi := range d.Groups {
		for ei := range d.Groups[gi].Entries {
			if e := &d.Groups[gi].Entries[ei]; after(e) {
				all = append(all, e)
				groups = append(groups, d.Groups[gi].Title)
				// A debate's peer rankings lead into its verdict: they
				// are shown in its place, before it, not as turns.
				verdict = append(verdict, d.Debate && !e.Note && e.Kind == room.KindRanking)
			}
		}
	}
	for vi := range d.Verdicts {
		if e := &d.Verdicts[vi]; after(e) {
			all = append(all, e)
			groups = append(groups, "Verdict")
			verdict = append(verdict, !e.Note)
		}
	}
	html := renderArticles(all)
	for i, e := range all {
		p := LivePart{Seq: e.Seq, Note: e.Note, Verdict: verdict[i], Group: groups[i], HTML: string(html[i])}
		if !e.Note {
			p.Seat, p.Class = e.Seat, e.Class
		}
		l.Parts = append(l.Parts, p)
	}
	l.Style = pageStyle(d.colors)
	if !d.Debate && d.closed != nil {
		l.SpecPath = room.SpecFor(r.Config(), d.closed)
		if data, err := r.ReadSpec(l.SpecPath); err == nil {
			var b, scratch bytes.Buffer
			renderMarkdownTo(&b, SanitizeTerminal(string(data)), &scratch)
			l.Spec = b.String()
		}
	}
	switch {
	case d.spent:
		l.Status = "every round of the budget is used: the lead writes the spec and closes"
	case d.turn != "":
		l.Status = d.turn + "'s turn"
	}
	return l, nil
}

// LastSeqs are the highest message seq and note number among the parts.
func (l *Live) LastSeqs() (seq, noteSeq int) {
	for _, p := range l.Parts {
		if p.Note {
			noteSeq = max(noteSeq, p.Seq)
		} else {
			seq = max(seq, p.Seq)
		}
	}
	return seq, noteSeq
}

// PageCSS is the HTML transcript's style sheet, without any seat's colors:
// for pages that draw no seat.
func PageCSS() string { return pageCSS }
