package debateview

import (
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// NewReplay shows a debate saved as a room, read-only: its personas'
// turns in their columns, the verdict below, how it ended. st is the
// room's state, read by the caller off the Update loop.
//
// rerun, when not nil, is the same debate ready to run again (r), usually
// built with debate.ConfigFromRoom and the provider configured now.
func NewReplay(opts Options, r *room.Room, st room.State, rerun *Launch) Model {
	m := newModel(opts)
	m.launch = rerun
	cfg := r.Config()
	m.room = r
	m.topic = cfg.Topic
	m.rounds = cfg.Rounds
	if m.rounds == 0 {
		m.rounds = cfg.Budget
	}
	m.setPanel(cfg.Agents)
	m.phase = phaseReplay
	m.autoFocus = false
	models := map[string]bool{}
	var labels []string
	notes := noteQueue{notes: st.Notes}
	for _, msg := range st.Messages {
		notes.upTo(&m, msg.Seq)
		if msg.Agent != "" && !models[msg.Agent] {
			models[msg.Agent] = true
			labels = append(labels, msg.Agent)
		}
		m.round = max(m.round, msg.Round)
		if msg.Seat == room.SeatModerator {
			m.verdict.text = msg.Text
			continue
		}
		c := m.column(msg.Seat)
		c.turns = append(c.turns, &turn{round: msg.Round, text: msg.Text, incomplete: msg.Kind == debate.KindIncomplete})
	}
	notes.rest(&m)
	m.provider = strings.Join(labels, ", ")
	m.countReplay(st)
	if t, err := parseTime(cfg.CreatedAt); err == nil {
		m.started = t
		m.ended = t
	}
	if n := len(st.Messages); n > 0 {
		if t := st.Messages[n-1].Time(); !t.IsZero() {
			m.ended = t
		}
	}
	for _, c := range m.cols {
		c.scroll.follow = false
	}
	m.verdict.scroll.follow = false
	switch {
	case st.Closed == nil:
		m.closed = "still open"
		m.setStatus("This debate has not ended: it is shown as it was when opened.")
	case debate.IsComplete(st.Closed.Reason):
		m.closed = "complete"
		m.setStatus("A finished debate, read from room " + mdrender.Inline(cfg.Room) + ". e exports it.")
		if budget, ok := strings.CutPrefix(st.Closed.Reason, debate.ReasonBudget); ok {
			m.acct.budget = mdrender.Inline(budget)
			m.setStatus("A finished debate, stopped early because " + m.acct.budget + ". e exports it.")
		}
	default:
		m.closed = mdrender.Inline(st.Closed.Reason)
		m.setStatus("This debate ended early: " + m.closed + ".")
	}
	if m.verdict.text != "" {
		m.focus = len(m.cols)
	}
	if len(st.Skipped) > 0 {
		m.setError("Some message files could not be read and are left out; see " + mdrender.Inline(r.MessagesDir()) + ".")
	}
	m.offerRetry()
	m.syncKeys()
	return m
}

func parseTime(s string) (t time.Time, err error) { return time.Parse(time.RFC3339Nano, s) }
