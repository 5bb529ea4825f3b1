package web

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// A stream's event IDs come from the room, not from the order in which
// one host happened to read it. An event's ID is the view of the room that
// a client that had the stream up to that event holds: the messages and
// notes it had (by their numbers in the room), the rounds begun, ended,
// checked and paused after, the budget, the verdict's text, the events of
// the end, each turn in progress (its round, the bytes of its text, its
// activity lines and retries) and who held each seat. A client that comes
// back with Last-Event-ID, after any time or to a host restarted since,
// is sent each event of the room's log that its view lacks, and a token
// cut to the bytes it lacks, whichever pieces and order the log read them
// in: nothing twice, nothing missed.
//
// Two things a rebuilt log cannot give back as they were: a turn whose
// text was rewritten (a person's draft) while the client was away reads
// as its final text, cut where the client stood; and activity lines a
// draft no longer keeps (it keeps the latest) are not sent again.

// mark is what an event shows, for a client's view.
type mark struct {
	agent string // whose turn, verdict or seat ("" a debate's run)
	round int
	seq   int  // the message a turn's events belong to, once known; a note's number
	line  int  // an activity line's number, a retry's attempt, an end event's place in the end
	gen   int  // which text of a turn (or of the verdict) it belongs to: a rewrite starts the next
	lo    int  // a token's first byte in that text
	on    bool // seat_state, run_state: held; turn_end, turn_meta: replaced
	// ref is the turn a live event belongs to, whose message is not yet
	// known when the event is sent: its number comes at the turn's end.
	ref *turnRef
}

// turnRef is a turn in progress, whose message's number its end sets.
type turnRef struct{ seq atomic.Int64 }

// turnSeq is the message e's turn is, 0 while unknown.
func (m *mark) turnSeq() int {
	if m.seq == 0 && m.ref != nil {
		return int(m.ref.seq.Load())
	}
	return m.seq
}

// view is what a client had of a room's stream.
type view struct {
	msg, meta                          int // the last message whose turn_end (summary) and turn_meta (verdict) it had
	note                               int
	round, roundEnd, consensus, paused int
	budget                             bool
	end                                int
	vgen, vbytes                       int // the verdict's text: which, and its bytes
	open                               map[string]*turnView
	held                               map[string]bool
}

// turnView is what a client had of a turn in progress.
type turnView struct {
	round, gen, phase, bytes, act, retry int // phase: 1 the gen's replaced turn_end had, 2 its turn_meta too
	speaker                              bool
}

func newView() *view { return &view{open: map[string]*turnView{}, held: map[string]bool{}} }

func (v *view) clone() *view {
	c := *v
	c.open = make(map[string]*turnView, len(v.open))
	for k, t := range v.open {
		tc := *t
		c.open[k] = &tc
	}
	c.held = maps.Clone(v.held)
	return &c
}

// turn is the client's view of the turn e belongs to, nil when it had no
// turn of e's agent open in e's round.
func (v *view) turn(e *event) *turnView {
	if t := v.open[e.agent]; t != nil && t.round == e.round {
		return t
	}
	return nil
}

// ended reports whether the client had the end of the turn e belongs to.
func (v *view) ended(e *event) bool {
	seq := e.turnSeq()
	return seq > 0 && seq <= v.msg
}

// take returns what of e the client lacks (e itself, or a token cut to
// the bytes it lacks), and takes it into the view; false when it had it
// all.
func (v *view) take(e *event) (event, bool) {
	c, ok := v.lacks(e)
	if ok {
		v.apply(&c)
	}
	return c, ok
}

// lacks returns what of e the client lacks, without taking it in.
func (v *view) lacks(e *event) (event, bool) {
	t := v.turn(e)
	had := false
	switch e.name {
	case evSessionStart:
		had = true // a client resuming had it
	case evRoundStart:
		had = e.round <= v.round
	case evRoundEnd:
		had = e.round <= v.roundEnd
	case evConsensus:
		had = e.round <= v.consensus
	case evPause:
		had = e.round <= v.paused
	case evBudget:
		had = v.budget
	case evNote:
		had = e.seq > 0 && e.seq <= v.note
	case evTurnStart:
		had = v.ended(e) || t != nil && t.gen >= e.gen
	case evSpeaker:
		had = v.ended(e) || t != nil && t.speaker
	case evActivity:
		had = v.ended(e) || t != nil && e.line <= t.act
	case evRetry:
		had = v.ended(e) || t != nil && e.line <= t.retry
	case evTurnEnd, evTurnMeta:
		switch {
		case !e.on:
			had = e.seq > 0 && (e.name == evTurnEnd && e.seq <= v.msg || e.name == evTurnMeta && e.seq <= v.meta)
		case t != nil:
			phase := 1
			if e.name == evTurnMeta {
				phase = 2
			}
			had = t.gen > e.gen || t.gen == e.gen && t.phase >= phase
		}
	case evToken:
		switch {
		case v.ended(e) || t != nil && (t.gen > e.gen || t.gen == e.gen && t.phase > 0):
			had = true
		case t != nil && t.gen == e.gen:
			return cut(e, t.bytes)
		}
	case evSummaryToken:
		switch {
		case v.ended(e) || e.gen < v.vgen:
			had = true
		case e.gen == v.vgen:
			return cut(e, v.vbytes)
		}
	case evTokenReset:
		had = e.gen < v.vgen
	case evSummary, evRanking:
		had = e.seq > 0 && e.seq <= v.msg
	case evVerdict:
		had = e.seq > 0 && e.seq <= v.meta
	case evSeatState, evRunState:
		held, ok := v.held[e.agent]
		had = ok && held == e.on
	case evUsage, evErrorDetail, evClosed, evDone, evError:
		had = e.line <= v.end
	}
	return *e, !had
}

// resumer is a client's resumed stream: what it lacks of each part of the
// log it reads, in order, starting at the log's beginning.
type resumer struct {
	v      *view
	ns     names
	caught bool // the first part, the log as the client found it, was read
}

// next returns what of evs, the log's next part, the client lacks, each
// with the ID of the client's view after it.
func (r *resumer) next(evs []event) []event {
	var stale []bool
	if !r.caught {
		r.caught = true
		stale = superseded(evs)
	}
	var out []event
	for k := range evs {
		if stale != nil && stale[k] {
			continue
		}
		if c, ok := r.v.take(&evs[k]); ok {
			c.id = r.v.encode(r.ns)
			out = append(out, c)
		}
	}
	return out
}

// superseded marks the holder events of a log (seat_state, run_state)
// that a later one of the same seat in it replaces. A view keeps who
// holds each seat, not how it got there: a client resuming catches up on
// the log it finds with the latest of each (a run seen not yet held, then
// held, is sent again only when the client's view of it differs), and
// events added to the log after that are changes it takes as they come.
func superseded(evs []event) []bool {
	stale := make([]bool, len(evs))
	last := map[string]int{}
	for i := range evs {
		if n := evs[i].name; n == evSeatState || n == evRunState {
			if j, ok := last[evs[i].agent]; ok {
				stale[j] = true
			}
			last[evs[i].agent] = i
		}
	}
	return stale
}

// cut returns what of token e lies past byte had of its text.
func cut(e *event, had int) (event, bool) {
	hi := e.lo + len(e.text)
	if hi <= had {
		return event{}, false
	}
	if had <= e.lo {
		return *e, true
	}
	c := *e
	c.text = e.text[had-e.lo:]
	c.lo = had
	c.data = marshal(tokenData{Round: e.round, Agent: e.agent, Text: c.text})
	return c, true
}

// apply takes e into the view.
func (v *view) apply(e *event) {
	t := v.turn(e)
	switch e.name {
	case evRoundStart:
		v.round = max(v.round, e.round)
	case evRoundEnd:
		v.roundEnd = max(v.roundEnd, e.round)
	case evConsensus:
		v.consensus = max(v.consensus, e.round)
	case evPause:
		v.paused = max(v.paused, e.round)
	case evBudget:
		v.budget = true
	case evNote:
		v.note = max(v.note, e.seq)
	case evTurnStart, evToken:
		if t == nil || t.gen < e.gen {
			t = &turnView{round: e.round, gen: e.gen}
			v.open[e.agent] = t
		}
		if e.name == evToken {
			t.bytes = e.lo + len(e.text)
		}
	case evSpeaker:
		if t != nil {
			t.speaker = true
		}
	case evActivity:
		if t != nil {
			t.act = max(t.act, e.line)
		}
	case evRetry:
		if t != nil {
			t.retry = max(t.retry, e.line)
		}
	case evTurnEnd:
		if e.on {
			if t != nil {
				t.phase = 1
			}
			return
		}
		v.msg = max(v.msg, e.seq)
		delete(v.open, e.agent)
	case evTurnMeta:
		if e.on {
			if t != nil {
				t.phase = 2
			}
			return
		}
		v.meta = max(v.meta, e.seq)
	case evSummaryToken:
		v.vgen, v.vbytes = e.gen, e.lo+len(e.text)
	case evTokenReset:
		v.vgen, v.vbytes = e.gen+1, 0
	case evRanking:
		v.msg = max(v.msg, e.seq)
	case evSummary:
		v.msg = max(v.msg, e.seq)
		v.vgen, v.vbytes = v.vgen+1, 0
	case evVerdict:
		v.meta = max(v.meta, e.seq)
	case evSeatState, evRunState:
		v.held[e.agent] = e.on
	case evUsage, evErrorDetail, evClosed, evDone, evError:
		v.end = max(v.end, e.line)
	}
}

// names numbers the agents and seats an ID names.
type names struct {
	list  []string
	index map[string]int
}

func newNames(list []string) names {
	n := names{index: map[string]int{}}
	for _, s := range list {
		if _, ok := n.index[s]; !ok {
			n.index[s] = len(n.list)
			n.list = append(n.list, s)
		}
	}
	return n
}

// encode is the view as an event ID: eleven numbers, then "-" and each
// turn in progress, then "_" and each seat's holder, agents and seats by
// their number in ns (one ns does not know is left out: the client then
// gets its events again).
func (v *view) encode(ns names) string {
	b := appendInts(make([]byte, 0, 64), v.msg, v.meta, v.note, v.round, v.roundEnd, v.consensus, v.paused, b2i(v.budget), v.end, v.vgen, v.vbytes)
	for _, agent := range slices.Sorted(maps.Keys(v.open)) {
		if k, ok := ns.index[agent]; ok {
			t := v.open[agent]
			b = appendInts(append(b, '-'), k, t.round, t.gen, t.phase, t.bytes, t.act, t.retry, b2i(t.speaker))
		}
	}
	for _, seat := range slices.Sorted(maps.Keys(v.held)) {
		if k, ok := ns.index[seat]; ok {
			b = appendInts(append(b, '_'), k, b2i(v.held[seat]))
		}
	}
	return string(b)
}

// appendInts appends the numbers, "."-separated.
func appendInts(b []byte, ns ...int) []byte {
	for i, n := range ns {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return b
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxID bounds the event ID a client may send back.
const maxID = 1 << 10

// parseView reads an event ID back (encode); false when id is not one.
func parseView(id string, ns names) (*view, bool) {
	id = strings.TrimSpace(id)
	if id == "" || len(id) > maxID {
		return nil, false
	}
	head, held, _ := strings.Cut(id, "_")
	head, turns, _ := strings.Cut(head, "-")
	f, ok := readInts(head, 11)
	if !ok {
		return nil, false
	}
	v := newView()
	v.msg, v.meta, v.note, v.round, v.roundEnd, v.consensus, v.paused = f[0], f[1], f[2], f[3], f[4], f[5], f[6]
	v.budget, v.end, v.vgen, v.vbytes = f[7] == 1, f[8], f[9], f[10]
	ok = readNamed(turns, "-", 8, ns, func(agent string, t []int) {
		v.open[agent] = &turnView{round: t[1], gen: t[2], phase: t[3], bytes: t[4], act: t[5], retry: t[6], speaker: t[7] == 1}
	}) && readNamed(held, "_", 2, ns, func(seat string, h []int) {
		v.held[seat] = h[1] == 1
	})
	if !ok {
		return nil, false
	}
	return v, true
}

// readInts reads n "."-separated numbers.
func readInts(s string, n int) ([]int, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != n {
		return nil, false
	}
	out := make([]int, n)
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 || x > 1<<40 {
			return nil, false
		}
		out[i] = x
	}
	return out, true
}

// readNamed reads the sep-separated entries of s (none when s is empty),
// each n numbers whose first names an agent or seat in ns, and hands each
// to take; false when one is not that.
func readNamed(s, sep string, n int, ns names, take func(name string, nums []int)) bool {
	if s == "" {
		return true
	}
	for _, e := range strings.Split(s, sep) {
		nums, ok := readInts(e, n)
		if !ok || nums[0] >= len(ns.list) {
			return false
		}
		take(ns.list[nums[0]], nums)
	}
	return true
}
