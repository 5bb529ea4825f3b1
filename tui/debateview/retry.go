package debateview

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// canRetry reports whether R can go on with the debate: it failed on a
// turn (or its replay shows a room that ended so), the screen knows how to
// run it (a launch), and its room is there to continue in.
func (m *Model) canRetry() bool {
	if m.launch == nil || m.room == nil || m.acct.resuming {
		return false
	}
	switch m.phase {
	case phaseFailed, phaseStopped:
		return true
	case phaseReplay:
		return strings.HasPrefix(m.closed, strings.TrimSpace(debate.ReasonFailed)) ||
			m.closed == debate.ReasonCancelled || m.closed == debate.ReasonOutputClosed
	default:
		return false
	}
}

// stopped reports whether the debate (or the replayed room) ended by a
// stop rather than a failure: R then resumes rather than retries.
func (m *Model) stopped() bool {
	return m.phase == phaseStopped || (m.phase == phaseReplay && (m.closed == debate.ReasonCancelled || m.closed == debate.ReasonOutputClosed))
}

// offerRetry ends a failure's or a stop's status with what R does, when
// it can.
func (m *Model) offerRetry() {
	if !m.canRetry() {
		return
	}
	if m.stopped() {
		m.status = strings.TrimRight(m.status, ". ") + ". R resumes it from the turn that was cut."
		return
	}
	m.status = strings.TrimRight(m.status, ". ") + ". R retries from the turn that failed."
}

// retry is R: the debate goes on in its room from the turn that failed
// (debate.Resume). What was said stays on screen; the cut turn stays,
// marked cut off, and is spoken again after it.
func (m *Model) retry() tea.Cmd {
	if !m.canRetry() {
		return nil
	}
	m.run++
	m.events, m.cancel = nil, nil
	m.acct.resuming = true
	m.acct.verdictOnly = m.verdict.err != "" && m.verdict.text == ""
	for _, c := range m.cols {
		if c.err != "" {
			c.err = ""
			c.gen++
		}
	}
	m.verdict.err = ""
	m.verdict.gen++
	resume := m.stopped()
	m.phase = phaseStarting
	m.ended = time.Time{}
	m.acct.resumeStopped = resume
	if resume {
		m.setStatus("Resuming from the turn that was cut…")
	} else {
		m.setStatus("Retrying from the turn that failed…")
	}
	return tea.Batch(resumeCmd(m.ctx, m.id, m.run, m.opts.Tracker, *m.launch, m.room.Dir()), m.animate())
}

// resumeCmd continues the debate saved in the room folder dir.
func resumeCmd(ctx context.Context, id int64, run int, tr *Tracker, l Launch, dir string) tea.Cmd {
	return func() tea.Msg {
		l.Room = ""
		sess, err := debate.Resume(ctx, l, dir)
		if err != nil {
			return startedMsg{id: id, run: run, err: err}
		}
		if tr != nil {
			tr.add(sess)
		}
		msg := sessionMsg(sess)
		msg.id, msg.run = id, run
		return msg
	}
}

// onResumed takes the outcome of R instead of onStarted: the debate going
// on in its room (the moderator weighing at once when the verdict was what
// failed), or, when it could not, why, the screen left as it was (failed,
// R still there) rather than going back to a form. It reports whether msg
// was R's.
func (m *Model) onResumed(msg startedMsg) (bool, tea.Cmd) {
	if !m.acct.resuming {
		return false, nil
	}
	m.acct.resuming = false
	if msg.err != nil {
		m.phase = phaseFailed
		m.setError("Could not retry: " + mdrender.Inline(msg.err.Error()))
		m.offerRetry()
		return true, nil
	}
	m.room, m.events, m.cancel = msg.room, msg.events, msg.cancel
	// The resumed run takes notes (i) and goes on from its pauses (enter)
	// as the first did.
	m.note.sess, m.note.paused = msg.sess, 0
	m.started = m.opts.Now()
	m.now = m.started
	m.phase = phaseRunning
	if m.acct.verdictOnly {
		m.phase, m.verdict.waiting = phaseWeighing, true
	}
	if m.acct.resumeStopped {
		m.setStatus("Resumed: the debate goes on in room " + m.roomName() + " from the turn that was cut.")
	} else {
		m.setStatus("Retrying: the debate goes on in room " + m.roomName() + " from the turn that failed.")
	}
	if m.quitting {
		m.cancel()
	}
	return true, readEventsCmd(m.id, m.run, m.events)
}
