package watch

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// runAll runs cmd's commands (a batch's at once, expanding nested
// batches), each in its own goroutine, and sends what they give on a
// channel.
func runAll(cmd tea.Cmd) <-chan tea.Msg {
	got := make(chan tea.Msg, 64)
	var run func(c tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, sub := range b {
					run(sub)
				}
				return
			}
			got <- msg
		}()
	}
	run(cmd)
	return got
}

// await returns the first message of type T cmd's commands give (runAll);
// it fails after a few seconds. Other messages are dropped.
func await[T any](t *testing.T, cmd tea.Cmd) T {
	t.Helper()
	var zero T
	got := runAll(cmd)
	deadline := time.After(5 * time.Second)
	for {
		select {
		case msg := <-got:
			if v, ok := msg.(T); ok {
				return v
			}
		case <-deadline:
			t.Fatalf("no %s came", reflect.TypeOf(zero))
			return zero
		}
	}
}

// ticksWithin counts the draft ticks cmd's commands give within d.
func ticksWithin(cmd tea.Cmd, d time.Duration) int {
	got := runAll(cmd)
	n := 0
	deadline := time.After(d)
	for {
		select {
		case msg := <-got:
			if _, ok := msg.(draftTickMsg); ok {
				n++
			}
		case <-deadline:
			return n
		}
	}
}

// seatRoom writes an open MCP room under a new folder: the lead's brief
// posted (the peer's turn), the lead connected over MCP from a process
// that runs (this test's parent), the peer's seat free.
func seatRoom(t *testing.T, name string, budget int, msgs []fileMsg) string {
	t.Helper()
	cwd := t.TempDir()
	log := at(1) + " connect seat=lead agent=claude-e2e pid=" + strconv.Itoa(os.Getppid()) + "\n"
	writeRoom(t, cwd, name, room.Config{Room: name, Topic: "Who pays for the cache", Budget: budget, CreatedAt: at(0)}, msgs,
		map[string]string{room.LogFile: log})
	return cwd
}

var brief = []fileMsg{{1, at(10), "lead", "claude-e2e", "brief", "The brief: should we cache?", 0}}

// typeText types s into the screen, one key a character.
func typeText(m Model, s string) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	for _, r := range s {
		var cmd tea.Cmd
		m, cmd = press(m, string(r))
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

func readLog(t *testing.T, cwd, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(room.Dir(cwd, name), room.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestTakeTheFreeSeatAndPostOnItsTurn(t *testing.T) {
	cwd := seatRoom(t, "take", 4, brief)
	m := openModel(t, cwd, "take", 100, 30)
	if !m.keys.Take.Enabled() || m.keys.Take.Help().Desc != "take the peer seat" {
		t.Fatalf("t is %v %q with the peer seat free", m.keys.Take.Enabled(), m.keys.Take.Help().Desc)
	}
	if m.keys.WriteSpec.Enabled() || m.keys.CloseRoom.Enabled() {
		t.Fatal("S or C enabled for a screen that plays no seat")
	}
	m, cmd := press(m, "t")
	m, _ = m.Update(await[takenMsg](t, cmd))
	if m.take.person == nil || m.take.person.Seat() != room.SeatPeer {
		t.Fatalf("no seat taken; status %q", m.status)
	}
	if log := readLog(t, cwd, "take"); !strings.Contains(log, "connect seat=peer agent=person pid="+strconv.Itoa(os.Getpid())) {
		t.Fatalf("server.log has no connect line for the person:\n%s", log)
	}
	// It is the peer's turn: the composer is open already.
	if !m.take.comp.IsOpen() || !strings.Contains(flat(m), "Your turn as peer · round 1") {
		t.Fatalf("the composer did not open on the peer's turn:\n%s", plain(m))
	}
	m, _ = m.Update(await[seatsMsg](t, seatsCmd(m.id, m.sess, m.room.Dir(), m.logSig)))
	if !strings.Contains(flat(m), "peer a person (at the keyboard) at the keyboard, its turn to write · you") {
		t.Fatalf("the header does not show the person in the peer seat:\n%s", plain(m))
	}

	// Keys go to the composer, q too; the draft is written for the
	// others, at most once per DraftEvery.
	m, cmd = typeText(m, "/objection q is a letter")
	m, cmd = m.Update(await[draftTickMsg](t, cmd))
	if cmd == nil {
		t.Fatal("the draft tick wrote nothing")
	}
	cmd() // the draft's write
	ds, err := m.room.Drafts()
	if err != nil || len(ds) != 1 || ds[0].Agent != room.PersonAgent || ds[0].Text != "/objection q is a letter" {
		t.Fatalf("drafts %+v (%v), want the person's text", ds, err)
	}
	m, cmd = press(m, "enter")
	if m.take.comp.IsOpen() || m.take.busy != "posting" {
		t.Fatalf("enter did not send: open %v busy %q", m.take.comp.IsOpen(), m.take.busy)
	}
	m, _ = m.Update(await[postedMsg](t, cmd))
	if m.status != "posted" {
		t.Fatalf("status %q after the post", m.status)
	}
	st, err := m.room.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	last := st.Messages[len(st.Messages)-1]
	if last.Seat != "peer" || last.Agent != room.PersonAgent || last.Kind != "objection" || last.Text != "q is a letter" {
		t.Fatalf("posted %+v", last)
	}
	if ds, _ := m.room.Drafts(); len(ds) != 0 {
		t.Fatalf("the post left the draft %+v", ds)
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if m.take.comp.IsOpen() || m.keys.Take.Enabled() {
		t.Fatal("the composer or t is open on the lead's turn")
	}

	// Close gives the seat up: a disconnect line, the lock free.
	m.Close()
	if log := readLog(t, cwd, "take"); !strings.Contains(log, "disconnect seat=peer pid="+strconv.Itoa(os.Getpid())) {
		t.Fatalf("no disconnect line after Close:\n%s", log)
	}
	lock, err := m.room.LockSeat(room.SeatPeer)
	if err != nil {
		t.Fatalf("the seat is still locked after Close: %v", err)
	}
	_ = lock.Unlock()
}

func TestTakeARefusedPostKeepsTheText(t *testing.T) {
	cwd := seatRoom(t, "refused", 4, brief)
	m := openModel(t, cwd, "refused", 100, 30)
	m, cmd := press(m, "t")
	m, _ = m.Update(await[takenMsg](t, cmd))
	m, _ = typeText(m, "Mine")
	// Another process posts for the peer meanwhile (the store checks
	// turns, not locks): the person's post comes second.
	if _, _, err := m.room.PostMessage(room.Post{Seat: "peer", Agent: "x", Text: "Theirs"}); err != nil {
		t.Fatal(err)
	}
	m, cmd = press(m, "enter")
	m, _ = m.Update(await[postedMsg](t, cmd))
	if !m.take.comp.IsOpen() || m.take.comp.Value() != "Mine" {
		t.Fatalf("the refused text is gone: open %v, %q", m.take.comp.IsOpen(), m.take.comp.Value())
	}
	if m.statusOK || !strings.Contains(m.status, "not posted: it is the lead's turn, not yours; your text is kept") {
		t.Fatalf("status %q does not say why", m.status)
	}
	// The screen learns of the other post; esc puts the composer away, and
	// t is not offered until the peer's turn.
	st, err := m.room.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if !m.take.comp.IsOpen() || m.take.comp.Value() != "Mine" {
		t.Fatal("the new state closed the composer or lost the text")
	}
	m, _ = press(m, "esc")
	if m.take.comp.IsOpen() || m.keys.Take.Enabled() {
		t.Fatal("esc did not put the composer away, or t is enabled on the lead's turn")
	}
}

func TestTakeRefusedNamesTheHolder(t *testing.T) {
	cwd := seatRoom(t, "held", 4, brief)
	r, err := room.Open(cwd, "held")
	if err != nil {
		t.Fatal(err)
	}
	first, err := r.TakeSeatAsPerson(room.SeatPeer)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	m := openModel(t, cwd, "held", 100, 30)
	if m.keys.Take.Enabled() {
		t.Fatal("t enabled with both seats held")
	}
	// The key press raced another taker: the command is refused.
	m, _ = m.Update(await[takenMsg](t, m.takeSeatCmd(room.SeatPeer)))
	if m.take.person != nil || m.statusOK || !strings.Contains(m.status, "cannot take the peer seat: the peer seat of room held is already played by a person at the keyboard (roundtable watch --take, pid") {
		t.Fatalf("status %q, person %v", m.status, m.take.person)
	}
	// --take refuses the same way, before any screen.
	if _, err := TakeSeat(cwd, "held", room.SeatPeer); !errors.Is(err, room.ErrSeatTaken) || !strings.Contains(err.Error(), "a person at the keyboard") {
		t.Fatalf("TakeSeat: %v", err)
	}
	if _, err := TakeSeat(cwd, "held", room.SeatLead); !errors.Is(err, room.ErrSeatTaken) || !strings.Contains(err.Error(), "an agent over MCP (claude-e2e, pid") {
		t.Fatalf("TakeSeat of the MCP lead's seat: %v", err)
	}
	if _, err := TakeSeat(cwd, "held", "moderator"); !errors.Is(err, room.ErrBadSeat) {
		t.Fatalf("TakeSeat moderator: %v", err)
	}
	if _, err := TakeSeat(cwd, "nowhere", room.SeatPeer); err == nil || !strings.Contains(err.Error(), "roundtable seed --room nowhere") {
		t.Fatalf("TakeSeat of a missing room: %v", err)
	}
	writeRoom(t, cwd, "shut", room.Config{Room: "shut", Topic: "T", Budget: 1, CreatedAt: at(0)}, brief, map[string]string{"closed.json": `{"reason":"agreed","at":"` + at(20) + `"}`})
	if _, err := TakeSeat(cwd, "shut", room.SeatPeer); !errors.Is(err, room.ErrClosed) || err.Error() != "cannot take the peer seat: room is closed (agreed); watch it without --take" {
		t.Fatalf("TakeSeat of a closed room: %v", err)
	}
	writeRoom(t, cwd, "debate", room.Config{Room: "debate", Topic: "T", Mode: "debate", Rounds: 1, CreatedAt: at(0)}, nil, nil)
	if _, err := TakeSeat(cwd, "debate", room.SeatPeer); !errors.Is(err, room.ErrNotSeatRoom) {
		t.Fatalf("TakeSeat of a debate: %v", err)
	}
	if _, err := TakeSeat(cwd, "nowhere", room.SeatPeer); err == nil || !strings.Contains(err.Error(), "roundtable seed --room nowhere") {
		t.Fatalf("TakeSeat of a missing room: %v", err)
	}
}

func TestTakeBothSeatsFreeAsksWhich(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "empty", room.Config{Room: "empty", Topic: "T", Budget: 1, CreatedAt: at(0)}, nil, nil)
	m := openModel(t, cwd, "empty", 100, 30)
	m, cmd := press(m, "t")
	if cmd != nil || !m.take.choosing || !strings.Contains(m.status, "l the lead · p the peer") {
		t.Fatalf("t with two free seats: choosing %v, status %q", m.take.choosing, m.status)
	}
	m, cmd = press(m, "x")
	if cmd != nil || m.take.choosing {
		t.Fatal("another key did not cancel the choice")
	}
	m, _ = press(m, "t")
	if _, cmd := press(m, "ctrl+c"); cmd == nil {
		t.Fatal("ctrl+c did not quit while the screen asked which seat")
	}
	m, _ = press(m, "x")
	m, _ = press(m, "t")
	m, cmd = press(m, "l")
	m, _ = m.Update(await[takenMsg](t, cmd))
	if m.take.person == nil || m.take.person.Seat() != room.SeatLead {
		t.Fatalf("l did not take the lead: %q", m.status)
	}
	if !m.take.comp.IsOpen() || !strings.Contains(flat(m), "Your turn as lead · round 1") {
		t.Fatalf("the lead's composer did not open on an empty room:\n%s", plain(m))
	}
	if m.keys.WriteSpec.Enabled() || m.keys.Quit.Enabled() || m.keys.ExportMD.Enabled() || strings.Contains(flat(m), "q quit") {
		t.Fatalf("the screen's keys are offered while the composer takes them:\n%s", plain(m))
	}
	m, _ = press(m, "q") // typed, not quitting
	if m.take.comp.Value() != "q" {
		t.Fatalf("q did not go to the composer: %q", m.take.comp.Value())
	}
	m, _ = press(m, "esc")
	if !m.keys.WriteSpec.Enabled() || !m.keys.CloseRoom.Enabled() || !m.keys.Quit.Enabled() || !m.keys.Help.Enabled() {
		t.Fatal("S, C, q or ? disabled for the lead once the composer is away")
	}
	if !m.keys.Take.Enabled() || m.keys.Take.Help().Desc != "write your turn" {
		t.Fatalf("t is %v %q on the lead's turn with the composer away", m.keys.Take.Enabled(), m.keys.Take.Help().Desc)
	}
	m, _ = press(m, "t")
	if !m.take.comp.IsOpen() || m.take.comp.Value() != "q" {
		t.Fatal("t did not open the composer again with the draft kept")
	}
}

func TestTakeLeadWritesTheSpecAndCloses(t *testing.T) {
	msgs := append(brief[:1:1], fileMsg{2, at(20), "peer", "codex", "answer", "Yes, cache.", 0})
	cwd := seatRoom(t, "lead", 1, msgs)
	// The lead's MCP agent left.
	if err := room.AppendLog(room.Dir(cwd, "lead"), t0.Add(30*time.Second), room.EventDisconnect, room.F("seat", "lead"), room.F("pid", os.Getppid())); err != nil {
		t.Fatal(err)
	}
	p, err := TakeSeat(cwd, "lead", room.SeatLead)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "lead", ExportDir: t.TempDir(), Dark: true, Now: func() time.Time { return fixedAt }, Location: time.UTC, Person: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, "lead", phaseOpening)())
	if m.take.comp.IsOpen() || !strings.Contains(m.status, "the round budget is spent: S writes the spec, then C closes the room") {
		t.Fatalf("budget spent: open %v, status %q", m.take.comp.IsOpen(), m.status)
	}
	// C before the spec: refused, saying so.
	m, _ = press(m, "C")
	if !strings.Contains(m.status, "y closes it (the spec must be written: S)") {
		t.Fatalf("C asked nothing, or did not say the spec comes first: %q", m.status)
	}
	m, cmd := press(m, "y")
	m, _ = m.Update(await[roomClosedMsg](t, cmd))
	if m.statusOK || !strings.Contains(m.status, "not closed: no spec written: SPEC-lead.md does not exist yet; S writes the spec first") {
		t.Fatalf("status %q", m.status)
	}
	// S: the spec starts from the topic; what the editor leaves is written.
	m, cmd = press(m, "S")
	prep := await[specPreparedMsg](t, cmd)
	if prep.err != nil {
		t.Fatal(prep.err)
	}
	data, err := os.ReadFile(prep.path)
	if err != nil || string(data) != "# Who pays for the cache\n\n" {
		t.Fatalf("the editor's file holds %q (%v)", data, err)
	}
	m, cmd = m.Update(prep)
	if cmd == nil {
		t.Fatal("no editor run")
	}
	if err := os.WriteFile(prep.path, []byte("# Spec\n\nCache it.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m, cmd = m.Update(specEditedMsg{id: m.id, path: prep.path})
	m, _ = m.Update(await[specWrittenMsg](t, cmd))
	if !m.statusOK || !strings.Contains(m.status, "the spec is written to") {
		t.Fatalf("status %q", m.status)
	}
	if got, _ := os.ReadFile(filepath.Join(cwd, "SPEC-lead.md")); string(got) != "# Spec\n\nCache it.\n" {
		t.Fatalf("spec %q", got)
	}
	if _, err := os.Stat(prep.path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the editor's file is left behind: %v", err)
	}
	// Any key but y keeps the room open; the spec is written, so C's
	// question no longer asks for it.
	m, _ = press(m, "C")
	if m.status != "close the room for good? y closes it · any other key keeps it open" {
		t.Fatalf("C after S asks %q", m.status)
	}
	m, _ = press(m, "n")
	if m.status != "the room stays open" {
		t.Fatalf("status %q", m.status)
	}
	m, _ = press(m, "C")
	m, cmd = press(m, "y")
	m, _ = m.Update(await[roomClosedMsg](t, cmd))
	if m.status != "you closed the room" {
		t.Fatalf("status %q", m.status)
	}
	st, err := m.room.Refresh()
	if err != nil || st.Closed == nil || st.Closed.Reason != "closed by the lead at the keyboard" {
		t.Fatalf("closed %+v (%v)", st.Closed, err)
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if m.keys.WriteSpec.Enabled() || m.keys.CloseRoom.Enabled() || m.keys.Take.Enabled() {
		t.Fatal("S, C or t enabled in a closed room")
	}
}

func TestTakeEditorLeftTheSpecEmpty(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "blank", room.Config{Room: "blank", Topic: "T", Budget: 1, CreatedAt: at(0)}, brief, nil)
	peer, err := TakeSeat(cwd, "blank", room.SeatPeer)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Release()
	// A peer cannot write the spec, whatever asks.
	if _, err := peer.WriteSpec("# x"); !errors.Is(err, room.ErrBadSeat) {
		t.Fatalf("peer spec: %v", err)
	}
	lead, err := TakeSeat(cwd, "blank", room.SeatLead)
	if err != nil {
		t.Fatal(err)
	}
	defer lead.Release()
	path, err := writeTemp(specDraftPattern, []byte("  \n"))
	if err != nil {
		t.Fatal(err)
	}
	w := writeSpecCmd(1, lead, path, nil)().(specWrittenMsg)
	if w.err == nil || w.err.Error() != "the spec was not written: the editor left it empty; press S and write it" {
		t.Fatalf("%+v", w)
	}
	w = writeSpecCmd(1, lead, path, errors.New("the editor (false) failed: exit status 1; set $EDITOR to one that works, or write here"))().(specWrittenMsg)
	if w.err == nil || !strings.HasPrefix(w.err.Error(), "the spec was not written: the editor (false) failed") {
		t.Fatalf("%+v", w)
	}
	if _, err := os.Stat(filepath.Join(cwd, "SPEC-blank.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a spec was written: %v", err)
	}
}

func TestSplitKind(t *testing.T) {
	tests := []struct{ in, kind, body string }{
		{"plain text", "", "plain text"},
		{"/objection It is slow.", "objection", "It is slow."},
		{"/proposal\nTwo lines.", "proposal", "Two lines."},
		{"//etc/hosts is the file", "", "/etc/hosts is the file"},
		{"/decision", "decision", ""},
		{"/ spaced", "", "spaced"},
	}
	for _, tt := range tests {
		kind, body := splitKind(tt.in)
		if kind != tt.kind || body != tt.body {
			t.Errorf("splitKind(%q) = %q, %q; want %q, %q", tt.in, kind, body, tt.kind, tt.body)
		}
	}
}

func TestPostRefusalsSayWhatToDo(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&room.BudgetSpentError{Round: 3, Budget: 3}, "not posted: the round budget is spent (3 of 3 rounds); as the lead, S writes the spec and C closes the room"},
		{&room.ClosedError{Reason: "agreed"}, "not posted: room is closed (agreed); your text is kept in the composer (ctrl+e opens it in $EDITOR to save it)"},
		{&room.TooLargeError{What: "message", Size: 300000, Limit: 256 << 10}, "not posted: the text is 300000 bytes, over the 256 KiB limit; shorten it and send again"},
		{&room.EmptyError{What: "message"}, "not posted: there is no text after the kind; write the post after it"},
		{errors.New("disk full"), "not posted: disk full; your text is kept, send it again"},
	}
	for _, tt := range tests {
		if got := postRefusal(tt.err); got != tt.want {
			t.Errorf("postRefusal(%v)\n got %q\nwant %q", tt.err, got, tt.want)
		}
	}
	if got := postRefusal(room.ValidateKind("a\nb")); !strings.Contains(got, "start with a short kind like /objection") {
		t.Errorf("bad kind: %q", got)
	}
}

func TestTakeDraftWritesAreThrottled(t *testing.T) {
	cwd := seatRoom(t, "throttle", 4, brief)
	m := openModel(t, cwd, "throttle", 100, 30)
	m, cmd := press(m, "t")
	m, _ = m.Update(await[takenMsg](t, cmd))
	// Four keys in a burst: one draft write is scheduled, not four.
	var cmds []tea.Cmd
	for _, k := range []string{"a", "b", "c", "d"} {
		m, cmd = press(m, k)
		cmds = append(cmds, cmd)
	}
	if n := ticksWithin(tea.Batch(cmds...), 3*DraftEvery); n != 1 {
		t.Fatalf("%d draft ticks for a burst of four keys, want 1", n)
	}
	// The tick writes the latest text.
	m, cmd = m.Update(draftTickMsg{id: m.id})
	if cmd == nil {
		t.Fatal("the tick wrote nothing")
	}
	cmd()
	if ds, _ := m.room.Drafts(); len(ds) != 1 || ds[0].Text != "abcd" {
		t.Fatalf("drafts %+v, want abcd", ds)
	}
	// Nothing new typed: the next tick writes nothing.
	if _, cmd := m.Update(draftTickMsg{id: m.id}); cmd != nil {
		t.Fatal("a tick with nothing new wrote again")
	}
	// esc clears the draft for the others.
	m, cmd = press(m, "esc")
	if cmd == nil {
		t.Fatal("esc cleared nothing")
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			if c != nil {
				c()
			}
		}
	}
	if ds, _ := m.room.Drafts(); len(ds) != 0 {
		t.Fatalf("the put-away composer left the draft %+v", ds)
	}
}
