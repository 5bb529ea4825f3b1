package transcript

import (
	"github.com/roundtable-dev/roundtable/room"
)

// Doc is a room's transcript as data: the model the Markdown and HTML
// renderers lay out, for a JSON API. Its strings are the room's own
// text, unescaped: a client escapes them as its output needs.
type Doc struct {
	Topic    string  `json:"topic"`
	Room     string  `json:"room"`
	Mode     string  `json:"mode"` // "persona debate" or "MCP room"
	Debate   bool    `json:"debate"`
	Messages int     `json:"messages"`
	Notes    int     `json:"notes"`
	Rounds   string  `json:"rounds"` // "3 of 12"
	Seats    []Seat  `json:"seats"`
	Duration string  `json:"duration,omitempty"`
	Groups   []Group `json:"groups"`
	Verdicts []Entry `json:"verdicts"`
	Closed   bool    `json:"closed"`
	End      string  `json:"end"` // how the room ended, or that it has not
	Skipped  int     `json:"skipped,omitempty"`
}

// Seat is who sat where.
type Seat struct {
	Seat   string `json:"seat"`
	Agents string `json:"agents,omitempty"`
	Class  string `json:"class"`            // the seat's CSS class in the HTML transcript
	Stance string `json:"stance,omitempty"` // a debate persona's stance (debate --stances)
}

// Group is a round (a debate's) or a stretch of messages (an MCP room's).
type Group struct {
	Title   string  `json:"title"`
	Entries []Entry `json:"entries"`
}

// Entry is a message, or a person's note (Note).
type Entry struct {
	Seq   int    `json:"seq"`
	Seat  string `json:"seat"`
	Agent string `json:"agent,omitempty"`
	Kind  string `json:"kind,omitempty"`
	Time  string `json:"time,omitempty"`
	ISO   string `json:"iso,omitempty"`
	Text  string `json:"text"`
	Class string `json:"class"`
	Note  bool   `json:"note,omitempty"`
}

// Model reads room r and returns its transcript as data.
func Model(r *room.Room) (Doc, error) {
	d, err := load(r)
	if err != nil {
		return Doc{}, err
	}
	out := Doc{
		Topic: d.Topic, Room: d.Room, Mode: d.Mode, Debate: d.Debate, Messages: d.Count, Notes: d.Notes,
		Rounds: d.Rounds, Duration: d.Duration, Closed: d.End.Closed, End: d.End.Text, Skipped: len(d.Skipped),
		Seats: []Seat{}, Groups: []Group{}, Verdicts: entries(d.Verdicts),
	}
	for _, s := range d.Seats {
		out.Seats = append(out.Seats, Seat{Seat: s.Seat, Agents: s.Agents, Class: s.Class, Stance: s.Stance})
	}
	for _, g := range d.Groups {
		out.Groups = append(out.Groups, Group{Title: g.Title, Entries: entries(g.Entries)})
	}
	return out, nil
}

func entries(es []entry) []Entry {
	out := make([]Entry, 0, len(es))
	for _, e := range es {
		out = append(out, Entry(e))
	}
	return out
}
