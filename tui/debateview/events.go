package debateview

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// onStarted takes the running debate from startCmd, or the reason it could
// not start.
func (m *Model) onStarted(msg startedMsg) tea.Cmd {
	if ok, cmd := m.onResumed(msg); ok {
		return cmd
	}
	if msg.err != nil {
		m.phase = phaseFailed
		m.setError("Could not start the debate: " + mdrender.Inline(msg.err.Error()))
		if m.opts.Embedded && m.launch != nil {
			// The parent shows the settings again, with why.
			failed := StartFailedMsg{Launch: *m.launch, Err: msg.err}
			return func() tea.Msg { return failed }
		}
		return nil
	}
	m.room, m.events, m.cancel = msg.room, msg.events, msg.cancel
	m.note.sess, m.note.paused = msg.sess, 0
	if msg.provider != "" {
		m.provider = msg.provider
	}
	m.started = m.opts.Now()
	m.now = m.started
	m.phase = phaseRunning
	m.setStatus(fmt.Sprintf("Saving to room %s as the debate goes.", mdrender.Inline(msg.room.Config().Room)))
	if m.quitting {
		m.cancel()
	}
	return readEventsCmd(m.id, m.run, m.events)
}

// handleEvents applies a batch of events, then asks for the next batch.
func (m *Model) handleEvents(msg eventsMsg) tea.Cmd {
	for _, ev := range msg.events {
		m.apply(ev)
	}
	var cmds []tea.Cmd
	cmds = append(cmds, m.growNow(false))
	if msg.closed {
		m.events = nil
		m.ended = m.opts.Now()
		m.now = m.ended
		if m.Running() {
			// The stream ended without a final event (it never does
			// through debate.Record, but the screen must not hang).
			m.phase = phaseFailed
			m.setError("The debate's event stream ended early; what was said is saved.")
		}
		if m.quitting {
			return m.leave()
		}
	} else {
		cmds = append(cmds, readEventsCmd(m.id, m.run, m.events))
	}
	cmds = append(cmds, m.animate())
	return tea.Batch(cmds...)
}

// apply takes one event into the screen's state: the one apply step of
// every debate screen, whether it runs the debate here (its Session's
// events, themselves read back from the room) or reads the room of a
// debate run elsewhere or finished (applyRoom, through debate.RoomReader).
// Rendering is left to refresh and the grow tick.
func (m *Model) apply(ev debate.Event) {
	m.applyNote(ev)
	switch ev.Type {
	case debate.EventNote, debate.EventPause:
		// interject.go: a band in every column; the pause status.
	case debate.EventSessionStart:
		m.topic, m.rounds = ev.Topic, ev.Rounds
		for _, a := range ev.Agents {
			m.column(a)
		}
	case debate.EventRoundStart:
		m.round = ev.Round
	case debate.EventTurnStart:
		c := m.column(ev.Agent)
		if t := c.current(); t != nil {
			// The turn began again before it ended (a room read from the
			// store: a run that died mid-turn, resumed): the new one
			// replaces it.
			c.turns = slices.DeleteFunc(c.turns, func(x *turn) bool { return x == t })
		}
		c.speaking, c.thinking, c.err, c.activity = true, true, "", ""
		c.turns = append(c.turns, &turn{round: ev.Round, streaming: true})
		c.grow = m.md.NewGrowing(max(c.w, mdrender.MinWidth))
		m.live = 0
		if m.autoFocus {
			m.focus = m.byName[ev.Agent]
		}
	case debate.EventRetry:
		m.retried(ev)
	case debate.EventActivity:
		// A persona's column shows it; the moderator's shows under the
		// verdict being awaited.
		line := mdrender.Inline(debate.ActivityLine(ev.Kind, ev.Text))
		if i, ok := m.byName[ev.Agent]; ok {
			m.cols[i].activity = line
		} else {
			m.verdict.activity = line
		}
	case debate.EventToken:
		if _, ok := m.byName[ev.Agent]; !ok && len(m.cols) > 0 {
			m.verdictToken(ev) // no persona's: the moderator's verdict
			break
		}
		c := m.column(ev.Agent)
		if c.grow == nil {
			break
		}
		c.grow.Append(ev.Text)
		c.thinking = false
		if ev.Text != "" && c.retry != nil {
			c.retry = nil // the retry worked: the reply is coming
			c.gen++
		}
		m.live += max(ev.Pieces, 1)
	case debate.EventTurnEnd:
		m.turnEnded(ev)
	case debate.EventRoundEnd:
		if ev.Round >= m.rounds || (ev.Consensus != nil && *ev.Consensus) {
			if m.feed == nil { // a room read from the store keeps its phase
				m.phase = phaseWeighing
			}
			m.verdict.waiting = true
			m.awaitRanks()
			if ev.Round < m.rounds {
				m.setStatus(fmt.Sprintf("The moderator finds consensus after round %d; the verdict comes now.", ev.Round))
			}
			if m.autoFocus {
				m.focus = len(m.cols)
			}
		}
	case debate.EventSummary:
		m.verdict.waiting = false
		m.verdict.retry = nil
		m.verdict.grow = nil
		m.verdict.text = ev.Text
		m.verdict.w = 0
		m.verdict.scroll = newScroller()
		m.verdict.scroll.follow = false
		if ev.Usage != nil {
			m.usage.Add(*ev.Usage)
			m.countTurn(room.SeatModerator, *ev.Usage)
		}
		if m.autoFocus {
			m.focus = len(m.cols)
		}
	case debate.EventRanking:
		m.ranked(ev)
	case debate.EventBudget:
		m.budgetReached(ev)
	case debate.EventDone:
		m.settleUsage(ev.Usage)
		m.phase = phaseDone
		m.verdict.waiting = false
		m.setStatus(fmt.Sprintf("Done. Saved in room %s: e exports it, r runs the debate again.", m.roomName()))
		m.budgetDone()
	case debate.EventError:
		m.failed(ev)
	}
}

// turnEnded closes a persona's turn. Its growing render stays on screen
// until the finished text's own render is ready.
func (m *Model) turnEnded(ev debate.Event) {
	c := m.column(ev.Agent)
	t := c.current()
	if t == nil {
		t = &turn{round: ev.Round}
		c.turns = append(c.turns, t)
	}
	if c.grow != nil {
		c.grow.Flush()
		t.body = fitLines(c.grow.View(), c.w)
		t.w = c.w
	}
	c.gen++
	t.text, t.streaming, t.incomplete, t.exact = ev.Text, false, ev.Incomplete, false
	t.head = "" // the round line may now say "cut off"
	c.grow, c.speaking, c.thinking, c.retry = nil, false, false, nil
	// The turn's tokens: as the provider reported them, or as many as the
	// screen saw streamed when that is more (or nothing was reported), so
	// the counter never goes down.
	u := debate.Usage{}
	if ev.Usage != nil {
		u = *ev.Usage
	}
	u.CompletionTokens = max(u.CompletionTokens, m.live)
	m.usage.Add(u)
	m.countTurn(ev.Agent, u)
	m.live = 0
}

// failed ends the debate on an error event: a stop by the user, or a
// failure shown in the column (or verdict) it happened in.
func (m *Model) failed(ev debate.Event) {
	m.settleUsage(ev.Usage)
	m.verdict.retry, m.verdict.grow = nil, nil
	for _, c := range m.cols {
		c.retry = nil
		if t := c.current(); t != nil {
			if c.grow != nil && t.text == "" {
				t.text = c.grow.Text()
			}
			t.streaming, t.incomplete, t.head = false, true, ""
		}
		c.speaking, c.thinking, c.grow = false, false, nil
	}
	m.verdict.waiting = false
	if ev.Text == debate.CancelledMessage {
		m.phase = phaseStopped
		if m.quitting {
			m.setStatus("Stopped; saving what was said…")
			return
		}
		if m.canRetry() {
			m.setStatus(fmt.Sprintf("Stopped. Saved in room %s: R resumes it, r runs it again.", m.roomName()))
			return
		}
		m.setStatus(fmt.Sprintf("Stopped. What was said is saved in room %s: r runs the debate again.", m.roomName()))
		return
	}
	m.phase = phaseFailed
	why := mdrender.Inline(ev.Text)
	m.errIn(ev.Agent, why)
	m.setError("The debate stopped: " + why)
	m.offerRetry()
}

// errIn shows why the debate failed, whole, in the column of the persona
// whose turn failed, or in the verdict pane (the moderator's, or nobody's
// in particular).
func (m *Model) errIn(agent, why string) {
	if i, ok := m.byName[agent]; ok && agent != "" {
		m.cols[i].err = why
		m.cols[i].gen++
		return
	}
	m.verdict.err = why
	m.verdict.gen++
}

// settleUsage takes the debate's total from its final event. The counter
// never goes down: the screen counted the tokens it saw streamed (live)
// even where the provider had not reported them yet, as when a turn is
// cut by a stop, so each figure is the larger of the two.
func (m *Model) settleUsage(total *debate.Usage) {
	m.usage.CompletionTokens += m.live
	m.live = 0
	if total == nil {
		return
	}
	m.usage.PromptTokens = max(m.usage.PromptTokens, total.PromptTokens)
	m.usage.CompletionTokens = max(m.usage.CompletionTokens, total.CompletionTokens)
	m.usage.Cost = max(m.usage.Cost, total.Cost)
}

// retried shows a retry in the header of the column (or the verdict) it
// delays, until its first token.
func (m *Model) retried(ev debate.Event) {
	if i, ok := m.byName[ev.Agent]; ok {
		m.cols[i].retry = &ev
		m.cols[i].gen++
		return
	}
	m.verdict.retry = &ev
	m.verdict.gen++
}

// verdictToken takes a token of the verdict being written: it streams
// into the verdict pane.
func (m *Model) verdictToken(ev debate.Event) {
	v := &m.verdict
	if v.grow == nil {
		v.grow = m.md.NewGrowing(max(v.w, mdrender.MinWidth))
		if m.autoFocus {
			m.focus = len(m.cols)
		}
	}
	v.grow.Append(ev.Text)
	v.waiting, v.retry = true, nil
	v.gen++
}

// growNow renders the growing turn when it changed, at most once per
// mdrender.GrowingInterval; force renders now (the tick that was waiting
// for the interval to pass).
func (m *Model) growNow(force bool) tea.Cmd {
	var c *column
	for _, col := range m.cols {
		if col.grow != nil && col.grow.Dirty() {
			c = col
			break
		}
	}
	v := &m.verdict
	if c == nil && (v.grow == nil || !v.grow.Dirty()) {
		return nil
	}
	now := m.opts.Now()
	if wait := m.lastGrow.Add(mdrender.GrowingInterval).Sub(now); !force && wait > 0 && !m.lastGrow.IsZero() {
		if m.growPending {
			return nil
		}
		m.growPending = true
		return growTickCmd(m.ctx, m.id, wait)
	}
	m.lastGrow = now
	if c == nil {
		v.grow.Flush() // the verdict: layoutVerdict shows it
		v.gen++
		return nil
	}
	c.grow.Flush()
	if t := c.current(); t != nil {
		t.body = fitLines(c.grow.View(), c.w)
		t.w = c.w
		c.gen++
	}
	return nil
}

func (m *Model) roomName() string {
	if m.room == nil {
		return "(none)"
	}
	return mdrender.Inline(m.room.Config().Room)
}

func (m *Model) setStatus(s string) { m.status, m.statusErr = s, false }
func (m *Model) setError(s string)  { m.status, m.statusErr = s, true }
