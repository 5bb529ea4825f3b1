package debateview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// fedScreen is the screen on a saved debate's room as if another process
// still ran it: watched (a stand-in watch, no disk), nothing taken in yet.
func fedScreen(t *testing.T, r *room.Room) Model {
	t.Helper()
	m := newRoomModel(Options{Now: func() time.Time { return fixedNow }, Dark: true}, r, nil)
	m.feed.watch = &roomWatch{cancel: func() {}}
	m.autoFocus = true
	m.width, m.height = 200, 60
	return m
}

// draw lays the screen out as Update does, with the renders it asks for
// done, and returns it as plain text.
func draw(m *Model) string {
	for range 5 {
		cmd := m.refresh()
		if cmd == nil {
			break
		}
		for _, msg := range runAll(cmd) {
			if r, ok := msg.(renderedMsg); ok {
				*m, _ = m.Update(r)
			}
		}
	}
	return plain(m.View())
}

// runAll runs cmd, and each command of a batch, and returns their messages.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runAll(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// upTo is st with only its first n messages, still open.
func upTo(st room.State, n int) room.State {
	st.Messages = st.Messages[:n]
	st.Closed = nil
	return st
}

// columnOf is the text of persona's column in a plain view: the cells
// under its title, on every row.
func columnOf(t *testing.T, view, persona string) string {
	t.Helper()
	rows := strings.Split(view, "\n")
	for i, row := range rows {
		x := strings.Index(row, persona)
		if x < 0 || !strings.Contains(row, "╭") {
			continue
		}
		start := strings.LastIndex(row[:x], "╭")
		end := strings.Index(row[x:], "╮")
		if end < 0 {
			t.Fatalf("no end to the title of %s:\n%s", persona, view)
		}
		// Byte offsets of the box in its title row; the rows below draw
		// the same box in the same cells, which a plain view keeps as
		// the same runes before it (the frame and blanks).
		lo, hi := len([]rune(row[:start])), len([]rune(row[:x+end]))
		var b strings.Builder
		for _, r := range rows[i+1:] {
			rr := []rune(r)
			if len(rr) <= lo {
				continue
			}
			b.WriteString(string(rr[lo:min(hi, len(rr))]))
			b.WriteByte('\n')
		}
		return b.String()
	}
	t.Fatalf("no column titled %s:\n%s", persona, view)
	return ""
}

// TestApplyRoomDraftThenMessage: a persona's draft shows its words in its
// column, as the turn being spoken; the next snapshot, with the turn's
// message and no draft, shows the message in its place.
func TestApplyRoomDraftThenMessage(t *testing.T) {
	_, r, st := savedDebate(t)
	first := st.Messages[0]
	m := fedScreen(t, r)
	draft := room.Draft{Seat: first.Seat, Agent: "mock", StartedAt: first.Time().Add(-time.Second), Text: "Federated schemas sprawl quickly"}
	m.applyRoom(Snapshot{State: upTo(st, 0), Drafts: []room.Draft{draft}})
	_ = m.growNow(true)
	v := draw(&m)
	if col := columnOf(t, v, first.Seat); !strings.Contains(col, "Federated schemas sprawl quickly") {
		t.Errorf("the draft's words are not in the %s column:\n%s", first.Seat, v)
	}
	if !strings.Contains(v, first.Seat+" is speaking · in another process") {
		t.Errorf("the header does not say who speaks, in another process:\n%s", v)
	}
	for _, c := range m.cols {
		if c.name != first.Seat && strings.Contains(columnOf(t, v, c.name), "Federated") {
			t.Errorf("the draft shows in %s's column too:\n%s", c.name, v)
		}
	}

	m.applyRoom(Snapshot{State: upTo(st, 1)})
	v = draw(&m)
	col := columnOf(t, v, first.Seat)
	if strings.Contains(col, "Federated schemas sprawl quickly") {
		t.Errorf("the draft is still shown once its message is in:\n%s", v)
	}
	words := strings.Fields(first.Text)
	if !strings.Contains(col, words[0]) || !strings.Contains(col, "Round 1") {
		t.Errorf("the message (%q...) is not in the %s column:\n%s", words[0], first.Seat, v)
	}
	c := m.cols[m.byName[first.Seat]]
	if c.speaking || c.grow != nil || len(c.turns) != 1 || c.turns[0].streaming || c.turns[0].text != first.Text {
		t.Errorf("the column after the message: speaking %v, %d turns, first %+v", c.speaking, len(c.turns), c.turns[0])
	}
	if strings.Contains(v, " is speaking") {
		t.Errorf("someone still speaks once the message is in and no draft is:\n%s", v)
	}
}

// TestApplyRoomStaleDraft: a draft that began before its seat's latest
// message is left over from it, and not shown.
func TestApplyRoomStaleDraft(t *testing.T) {
	_, r, st := savedDebate(t)
	first := st.Messages[0]
	m := fedScreen(t, r)
	stale := room.Draft{Seat: first.Seat, StartedAt: first.Time().Add(-time.Second), Text: "left over words"}
	m.applyRoom(Snapshot{State: upTo(st, 1), Drafts: []room.Draft{stale}})
	_ = m.growNow(true)
	if v := draw(&m); strings.Contains(v, "left over words") || strings.Contains(v, "is speaking") {
		t.Errorf("a draft older than its seat's message is shown:\n%s", v)
	}
}

// TestApplyRoomDraftGrows: a draft rewritten with more words grows the
// same turn; a new draft (a later start) of the same seat replaces it.
func TestApplyRoomDraftGrows(t *testing.T) {
	_, r, st := savedDebate(t)
	seat := st.Messages[0].Seat
	m := fedScreen(t, r)
	at := st.Messages[0].Time().Add(-time.Second)
	m.applyRoom(Snapshot{State: upTo(st, 0), Drafts: []room.Draft{{Seat: seat, StartedAt: at, Text: "alpha"}}})
	m.applyRoom(Snapshot{State: upTo(st, 0), Drafts: []room.Draft{{Seat: seat, StartedAt: at, Text: "alpha beta"}}})
	c := m.cols[m.byName[seat]]
	if len(c.turns) != 1 || c.grow.Text() != "alpha beta" {
		t.Fatalf("after a longer draft: %d turns, text %q", len(c.turns), c.grow.Text())
	}
	m.applyRoom(Snapshot{State: upTo(st, 0), Drafts: []room.Draft{{Seat: seat, StartedAt: at.Add(time.Millisecond), Text: "gamma"}}})
	if len(c.turns) != 1 || c.grow.Text() != "gamma" {
		t.Errorf("after a new draft: %d turns, text %q", len(c.turns), c.grow.Text())
	}
}

// TestApplyRoomClosedIsTheReplay: a room followed turn by turn, then found
// closed, ends as the same screen as its replay: the verdict, "replay ·
// complete", the watch stopped.
func TestApplyRoomClosedIsTheReplay(t *testing.T) {
	_, r, st := savedDebate(t)
	m := fedScreen(t, r)
	m.autoFocus = false
	for n := 0; n <= len(st.Messages); n++ {
		var drafts []room.Draft
		if n < len(st.Messages) {
			next := st.Messages[n]
			drafts = []room.Draft{{Seat: next.Seat, StartedAt: next.Time().Add(-time.Millisecond), Text: "in progress"}}
		}
		m.applyRoom(Snapshot{State: upTo(st, n), Drafts: drafts})
		_ = draw(&m)
	}
	m.applyRoom(Snapshot{State: st})
	if m.watching() {
		t.Error("the screen still watches a closed room")
	}
	v := draw(&m)
	for _, want := range []string{"replay · complete", "Moderator's verdict", "Decision:"} {
		if !strings.Contains(v, want) {
			t.Errorf("the closed room lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "in progress") || strings.Contains(v, "another process") {
		t.Errorf("the closed room still shows a turn in progress or the other process:\n%s", v)
	}

	replay := NewReplay(Options{Now: func() time.Time { return fixedNow }, Dark: true}, r, st, nil)
	replay.width, replay.height = m.width, m.height
	for i, c := range replay.cols {
		got := m.cols[i]
		if len(got.turns) != len(c.turns) {
			t.Fatalf("%s: %d turns followed, %d in the replay", c.name, len(got.turns), len(c.turns))
		}
		for k, rt := range c.turns {
			gt := got.turns[k]
			if gt.text != rt.text || gt.round != rt.round || gt.streaming || gt.incomplete != rt.incomplete {
				t.Errorf("%s turn %d: followed %+v, replay %+v", c.name, k, *gt, *rt)
			}
		}
	}
	if m.verdict.text != replay.verdict.text || m.status != replay.status || m.usage != replay.usage || m.provider != replay.provider || !m.ended.Equal(replay.ended) {
		t.Errorf("followed: verdict %q status %q usage %+v provider %q ended %v; replay: %q %q %+v %q %v",
			m.verdict.text, m.status, m.usage, m.provider, m.ended, replay.verdict.text, replay.status, replay.usage, replay.provider, replay.ended)
	}
}

// TestApplyRoomAbandoned: the header says when the process running the
// debate ended without closing the room.
func TestApplyRoomAbandoned(t *testing.T) {
	_, r, st := savedDebate(t)
	m := fedScreen(t, r)
	m.applyRoom(Snapshot{State: upTo(st, 1), Abandoned: true})
	if v := draw(&m); !strings.Contains(v, "its process ended: not running") || !m.statusErr {
		t.Errorf("an abandoned room's screen does not say its process ended:\n%s", v)
	}
	m.applyRoom(Snapshot{State: upTo(st, 2)})
	if v := draw(&m); strings.Contains(v, "not running") || !strings.Contains(v, "in another process") || m.statusErr {
		t.Errorf("a room run again still says its process ended:\n%s", v)
	}
}

// TestFeedFollowsTheRoom follows a debate room on disk as another process
// would write it: a persona's draft streams into its column before its
// message exists, then the message, then the verdict once it is closed.
// It writes a persona's draft through room.WriteDraft, which takes
// persona seats only with the store's feed (branch h20-feedstore).
func TestFeedFollowsTheRoom(t *testing.T) {
	cwd := t.TempDir()
	l := mockLaunch(cwd, 1)
	r, err := debate.CreateRoom(cwd, "elsewhere", l.Config)
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.LockRun() // the run of "another process"
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = run.Unlock() }()
	h := newHarness(t)
	f, err := OpenRoom(h.ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	h.start(NewFromRoom(h.options(), f, nil), 160, 40)
	defer h.m.Close()
	if !h.m.watching() {
		t.Fatal("the screen does not follow an open room")
	}
	pm := l.Config.Names()[0]
	started := time.Now()
	if err := r.WriteDraft(room.Draft{Seat: pm, Agent: "mock", StartedAt: started, Text: "Sprawling schemas"}); err != nil {
		t.Fatalf("write %s's draft: %v", pm, err)
	}
	h.until("the draft in its column", 10*time.Second, func(m Model) bool {
		return strings.Contains(plain(m.View()), "Sprawling schemas")
	})
	if err := r.WriteDraft(room.Draft{Seat: pm, Agent: "mock", StartedAt: started, Text: "Sprawling schemas cost us"}); err != nil {
		t.Fatal(err)
	}
	h.until("the draft's next words", 10*time.Second, func(m Model) bool {
		return strings.Contains(plain(m.View()), "Sprawling schemas cost us")
	})
	if _, err := r.Record(room.Post{Seat: pm, Agent: "mock", Text: "GraphQL helps the clients we have.", Round: 1}); err != nil {
		t.Fatal(err)
	}
	if err := r.ClearDraft(pm); err != nil {
		t.Fatal(err)
	}
	h.until("the message in place of the draft", 10*time.Second, func(m Model) bool {
		v := plain(m.View())
		return strings.Contains(v, "GraphQL helps the clients") && !strings.Contains(v, "Sprawling")
	})
	if _, err := r.Record(room.Post{Seat: room.SeatModerator, Agent: "mock", Text: "Decision: adopt it for new clients.", Round: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: debate.ReasonComplete}); err != nil {
		t.Fatal(err)
	}
	h.until("the verdict of the closed room", 10*time.Second, func(m Model) bool {
		v := plain(m.View())
		return strings.Contains(v, "Decision: adopt it") && strings.Contains(v, "replay · complete") && !m.watching()
	})
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
}

// TestFeedRunEnds: the process running a followed debate ends without
// closing its room (its run lock let go): the header says so.
func TestFeedRunEnds(t *testing.T) {
	cwd := t.TempDir()
	l := mockLaunch(cwd, 1)
	r, err := debate.CreateRoom(cwd, "elsewhere", l.Config)
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	f, err := OpenRoom(h.ctx, r)
	if err != nil {
		_ = run.Unlock()
		t.Fatal(err)
	}
	h.start(NewFromRoom(h.options(), f, nil), 160, 40)
	defer h.m.Close()
	if v := plain(h.m.View()); !strings.Contains(v, "waiting · in another process") {
		t.Fatalf("the header does not say the debate runs in another process:\n%s", v)
	}
	if err := run.Unlock(); err != nil {
		t.Fatal(err)
	}
	h.until("the header to say the run ended", 15*time.Second, func(m Model) bool {
		return strings.Contains(plain(m.View()), "its process ended: not running")
	})
	if st, _ := r.State(); st.Closed != nil {
		t.Errorf("following the room closed it: %+v", st.Closed)
	}
}

// TestApplyRoomNoteDuringTurn: a note given while a persona speaks comes
// once the turn in progress ends, after it in every column (the speaker
// did not hear it; the next persona does), as the engine hands it on; the
// turn's message ends that turn, not a new one after the note.
func TestApplyRoomNoteDuringTurn(t *testing.T) {
	_, r, st := savedDebate(t)
	first := st.Messages[0]
	m := fedScreen(t, r)
	d := room.Draft{Seat: first.Seat, StartedAt: first.Time().Add(-time.Second), Text: "halfway"}
	m.applyRoom(Snapshot{State: upTo(st, 0), Drafts: []room.Draft{d}})
	noted := upTo(st, 0)
	noted.Notes = []room.Note{{Seq: 1, From: room.NoteFromUser, Text: "Mind the budget", AfterSeq: 1, Round: 1}}
	d.Text = "halfway there"
	m.applyRoom(Snapshot{State: noted, Drafts: []room.Draft{d}})
	_ = m.growNow(true)
	c := m.cols[m.byName[first.Seat]]
	if len(c.turns) != 1 || !c.turns[0].streaming || c.current() != c.turns[0] {
		t.Fatalf("the speaker's column after a note during its turn: %d turns, first streaming %v", len(c.turns), len(c.turns) > 0 && c.turns[0].streaming)
	}
	if v := draw(&m); !strings.Contains(columnOf(t, v, first.Seat), "halfway there") || strings.Contains(v, "Mind the budget") {
		t.Errorf("the turn in progress is not shown, or the note already is:\n%s", v)
	}
	withMsg := upTo(st, 1)
	withMsg.Notes = noted.Notes
	m.applyRoom(Snapshot{State: withMsg})
	if len(c.turns) != 2 || c.turns[0].streaming || c.turns[0].text != first.Text || !c.turns[1].note {
		t.Errorf("the message did not end the turn before the note: %d turns, first %+v", len(c.turns), *c.turns[0])
	}
	for _, other := range m.cols {
		if other != c && (len(other.turns) != 1 || !other.turns[0].note) {
			t.Errorf("%s: %d turns, want the note alone", other.name, len(other.turns))
		}
	}
}

// TestReplayShowsTheFailureInItsColumn: a room closed by a failure shows
// it whole in the column it happened in (closed.json's seat), or in the
// verdict pane for the moderator's, as the run's own screen did; the status
// line at 60 columns has room for only its start.
func TestReplayShowsTheFailureInItsColumn(t *testing.T) {
	_, r, st := savedDebate(t)
	const why = "openai failed during Product Manager's turn (round 1): HTTP 400 Bad Request: request (404 tokens) exceeds the available context size (256 tokens), try increasing it"
	flat := func(s string) string {
		return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "─", " ").Replace(s)), " ")
	}
	for _, c := range []struct{ seat, pane string }{{"Product Manager", "Product Manager"}, {room.SeatModerator, "Moderator's verdict"}} {
		failed := st
		failed.Messages = nil // its first turn failed
		if c.seat == room.SeatModerator {
			failed.Messages = st.Messages[:len(st.Messages)-1] // every turn, no verdict
		}
		failed.Closed = &room.Closed{Reason: debate.ReasonFailed + why, Seat: c.seat}
		m := NewReplay(Options{Now: func() time.Time { return fixedNow }, Dark: true}, r, failed, nil)
		m.width, m.height = 60, 20
		if c.seat == room.SeatModerator {
			m.focus = len(m.cols)
		} else {
			m.focus = m.byName[c.seat]
		}
		v := draw(&m)
		if got := flat(columnOf(t, v, c.pane)); !strings.Contains(got, "⚠ ") || !strings.Contains(got, why) {
			t.Errorf("%s failed: its pane does not show the whole reason:\n%s", c.seat, v)
		}
	}
}
