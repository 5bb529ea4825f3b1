package room

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// wire sends s the way observe_room does: JSON and back.
func wire(t *testing.T, s Snapshot) Snapshot {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out Snapshot
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// follow applies snapshots of src to the mirror under dst until one is
// empty, and returns the cursor reached and how many were applied.
func follow(t *testing.T, src *Room, dst string, c Cursor) (Cursor, int) {
	t.Helper()
	for n := 0; ; n++ {
		s, err := src.Snapshot(c)
		if err != nil {
			t.Fatal(err)
		}
		if s.Empty() {
			if s.Next != c {
				t.Fatalf("an empty snapshot moved the cursor: %+v → %+v", c, s.Next)
			}
			return c, n
		}
		if err := ApplySnapshot(dst, wire(t, s)); err != nil {
			t.Fatalf("apply snapshot %d: %v", n, err)
		}
		c = s.Next
		if n > 1000 {
			t.Fatal("snapshots never end")
		}
	}
}

// comparable strips what a mirror does not keep: file names, and pids
// (they name processes of the host).
func comparableState(t *testing.T, r *Room) (State, []SeatInfo, []Draft) {
	t.Helper()
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	msgs := append([]Message(nil), st.Messages...)
	for i := range msgs {
		msgs[i].File = ""
	}
	notes := append([]Note(nil), st.Notes...)
	for i := range notes {
		notes[i].File = ""
	}
	st.Messages, st.Notes, st.Skipped, st.NewSkipped = msgs, notes, nil, nil
	seats, err := ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range seats {
		seats[i].PID = 0
	}
	ds, err := r.Drafts()
	if err != nil {
		t.Fatal(err)
	}
	return st, seats, ds
}

func sameRoom(t *testing.T, src *Room, dstCwd string) {
	t.Helper()
	dst, err := Open(dstCwd, src.Config().Room)
	if err != nil {
		t.Fatalf("the mirror is no room: %v", err)
	}
	if !reflect.DeepEqual(dst.Config(), src.Config()) {
		t.Errorf("config: mirror %+v, source %+v", dst.Config(), src.Config())
	}
	s1, seats1, d1 := comparableState(t, src)
	s2, seats2, d2 := comparableState(t, dst)
	if !reflect.DeepEqual(s1, s2) {
		t.Errorf("state differs:\nsource %+v\nmirror %+v", s1, s2)
	}
	if !reflect.DeepEqual(seats1, seats2) {
		t.Errorf("seats differ:\nsource %+v\nmirror %+v", seats1, seats2)
	}
	if !reflect.DeepEqual(d1, d2) {
		t.Errorf("drafts differ:\nsource %+v\nmirror %+v", d1, d2)
	}
}

// TestSnapshotMirrorsARoom follows a live room through a sequence of
// snapshots, small bounds forcing many, and checks at each step that the
// mirror's State, seats and drafts equal the source's.
func TestSnapshotMirrorsARoom(t *testing.T) {
	oldMsgs, oldText, oldLog := SnapshotMaxMessages, SnapshotMaxText, SnapshotMaxLog
	SnapshotMaxMessages, SnapshotMaxText, SnapshotMaxLog = 2, 300, 200
	t.Cleanup(func() { SnapshotMaxMessages, SnapshotMaxText, SnapshotMaxLog = oldMsgs, oldText, oldLog })

	srcCwd, dstCwd := t.TempDir(), t.TempDir()
	src, _, err := Create(srcCwd, "mirrored", CreateOptions{Topic: "Mirror **me**", Budget: 4, Spec: "docs/SPEC-m.md"})
	if err != nil {
		t.Fatal(err)
	}
	c, n := follow(t, src, dstCwd, Cursor{})
	if n != 1 || !c.Opened {
		t.Fatalf("an empty room took %d snapshots (cursor %+v), want 1 with the config", n, c)
	}
	sameRoom(t, src, dstCwd)

	logLine := func(ev string, f ...Field) {
		if err := src.Log(ev, f...); err != nil {
			t.Fatal(err)
		}
	}
	logLine(EventConnect, F("seat", "lead"), F("agent", "claude"), F("pid", os.Getpid()), F("waits", WaitsLogged))
	logLine(EventConnect, F("seat", "peer"), F("agent", "codex \"quoted\" pid=7"), F("pid", 1))
	for i := range 5 {
		seat := SeatLead
		if i%2 == 1 {
			seat = SeatPeer
		}
		logLine(EventCall, F("seat", seat), F("tool", "post"))
		if _, _, err := src.PostMessage(Post{Seat: seat, Agent: "a", Text: strings.Repeat("word ", 40*(i+1))}); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			if _, err := src.AddNote(NoteFromHost, "a note from the host", 0); err != nil {
				t.Fatal(err)
			}
			if err := src.WriteDraft(Draft{Seat: SeatPeer, Agent: "codex", StartedAt: time.Now().UTC(), Text: "half a thought"}); err != nil {
				t.Fatal(err)
			}
		}
		if c, n = follow(t, src, dstCwd, c); n == 0 {
			t.Fatalf("step %d: nothing new", i)
		}
		sameRoom(t, src, dstCwd)
	}
	if c.Seq != 5 || c.NoteSeq != 1 || c.DraftsSig == "" {
		t.Errorf("cursor %+v: want seq 5, note 1 and a drafts signature", c)
	}
	// The draft goes: the mirror's goes too.
	if err := src.ClearDraft(SeatPeer); err != nil {
		t.Fatal(err)
	}
	logLine(EventDisconnect, F("seat", "peer"), F("pid", 1))
	if _, err := src.WriteSpec("# Spec\n\nthe end"); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Close(CloseOptions{Reason: "agreed", RequireSpec: true}); err != nil {
		t.Fatal(err)
	}
	if c, _ = follow(t, src, dstCwd, c); !c.Closed || c.DraftsSig != "" {
		t.Errorf("cursor %+v after the close: want closed, no drafts", c)
	}
	sameRoom(t, src, dstCwd)
	dst, err := Open(dstCwd, "mirrored")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := dst.ReadSpec("")
	if err != nil || string(spec) != "# Spec\n\nthe end" {
		t.Errorf("mirror's spec %q, %v", spec, err)
	}
	// Applying everything again from the start changes nothing.
	if _, n := follow(t, src, dstCwd, Cursor{}); n == 0 {
		t.Fatal("a fresh cursor got nothing")
	}
	sameRoom(t, src, dstCwd)
	names, _ := os.ReadDir(filepath.Join(dst.Dir(), "messages"))
	if len(names) != 5 {
		t.Errorf("the mirror holds %d message files after a second pass, want 5", len(names))
	}
}

// TestSnapshotBounds checks that one snapshot stays within its bounds,
// that one message larger than the text bound still goes alone, and that
// server.log is cut after a whole line.
func TestSnapshotBounds(t *testing.T) {
	oldText, oldLog := SnapshotMaxText, SnapshotMaxLog
	SnapshotMaxText, SnapshotMaxLog = 1000, 100
	t.Cleanup(func() { SnapshotMaxText, SnapshotMaxLog = oldText, oldLog })
	r, _, err := Create(t.TempDir(), "bounds", CreateOptions{Topic: "t", Budget: 9})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: strings.Repeat("x", 5000)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatPeer, Agent: "a", Text: "small"}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if err := r.Log(EventCall, F("seat", "lead"), F("tool", "read_room")); err != nil {
			t.Fatal(err)
		}
	}
	s, err := r.Snapshot(Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Messages) != 1 || s.Next.Seq != 1 || !s.More {
		t.Errorf("first snapshot: %d messages, next seq %d, more %v; want the large one alone and more", len(s.Messages), s.Next.Seq, s.More)
	}
	if s.Log == "" || len(s.Log) > 100 || !strings.HasSuffix(s.Log, "\n") || int64(len(s.Log)) != s.Next.LogOffset {
		t.Errorf("log part %q (offset %d): want whole lines within 100 bytes", s.Log, s.Next.LogOffset)
	}
	s2, err := r.Snapshot(s.Next)
	if err != nil {
		t.Fatal(err)
	}
	if len(s2.Messages) != 1 || s2.Messages[0].Text != "small" {
		t.Errorf("second snapshot: %+v, want the small message", s2.Messages)
	}
	// A log that shrank (replaced) starts again, marked reset.
	if err := os.WriteFile(filepath.Join(r.Dir(), LogFile), []byte("short\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s3, err := r.Snapshot(Cursor{Opened: true, Seq: 2, LogOffset: 500, DraftsSig: s.Next.DraftsSig})
	if err != nil {
		t.Fatal(err)
	}
	if !s3.LogReset || s3.Log != "short\n" || s3.Next.LogOffset != 6 {
		t.Errorf("shrunk log: reset %v, log %q, offset %d", s3.LogReset, s3.Log, s3.Next.LogOffset)
	}
}

func TestParseCursor(t *testing.T) {
	want := Cursor{Seq: 3, NoteSeq: 1, LogOffset: 99, DraftsSig: "ab", Opened: true}
	data, _ := json.Marshal(want)
	var obj map[string]any
	_ = json.Unmarshal(data, &obj)
	for _, in := range []any{obj, string(data)} {
		got, err := ParseCursor(in)
		if err != nil || got != want {
			t.Errorf("ParseCursor(%v) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []any{nil, "", map[string]any{}} {
		if got, err := ParseCursor(in); err != nil || got != (Cursor{}) {
			t.Errorf("ParseCursor(%#v) = %+v, %v; want the zero cursor", in, got, err)
		}
	}
	for _, in := range []any{"{", map[string]any{"seq": -1}, map[string]any{"seq": "x"}, strings.Repeat("x", 5000), map[string]any{"draftsSig": strings.Repeat("a", 65)}} {
		if _, err := ParseCursor(in); err == nil {
			t.Errorf("ParseCursor(%.40v) accepted", in)
		}
	}
}

// TestApplySnapshotHostile feeds the mirror what a hostile host could
// send and checks that nothing lands outside the mirror and no link is
// followed.
func TestApplySnapshotHostile(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Room: "../../evil", Topic: "t", Budget: 3, Spec: "../../../x.md"}

	for _, name := range []string{"../x", "", ".hidden", "a/b", strings.Repeat("a", 70)} {
		if err := ApplySnapshot(t.TempDir(), Snapshot{Room: name, Config: cfg}); !errors.Is(err, ErrBadName) {
			t.Errorf("room %q: %v, want a bad name", name, err)
		}
	}

	cwd := t.TempDir()
	err := ApplySnapshot(cwd, Snapshot{
		Room: "ok", Config: cfg,
		Messages: []Message{
			{Seq: 1, Seat: "lead", Text: "fine", At: "2026-01-01T00:00:00.000Z"},
			{Seq: 0, Seat: "lead", Text: "no seq"},
			{Seq: 2, Seat: "", Text: "no seat"},
			{Seq: 3, Seat: "peer", Text: strings.Repeat("x", MaxTextBytes+1)},
		},
		Notes:  []Note{{Seq: -4, Text: "bad"}, {Seq: 1, Text: "  "}},
		Drafts: []Draft{{Seat: "../../x", Text: "y"}}, DraftsChanged: true,
		Closed: &Closed{Reason: "r", SpecPath: "/etc/passwd"},
		Spec:   &SpecFile{Path: "../../outside.md", Text: "z"},
	})
	var skip *MirrorSkipError
	if !errors.As(err, &skip) || len(skip.Reasons) != 7 {
		t.Fatalf("err %v: want 7 refusals", err)
	}
	r, err := Open(cwd, "ok")
	if err != nil {
		t.Fatal(err)
	}
	if r.Config().Spec != "SPEC-ok.md" || r.Config().Room != "ok" {
		t.Errorf("config %+v: want the safe spec and the mirror's name", r.Config())
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 1 || len(st.Notes) != 0 || st.Closed == nil || st.Closed.SpecPath != "SPEC-ok.md" {
		t.Errorf("state %+v: want the one good message and a safe close", st)
	}
	entries, _ := os.ReadDir(filepath.Dir(cwd))
	for _, e := range entries {
		if strings.Contains(e.Name(), "outside") || strings.Contains(e.Name(), "evil") {
			t.Errorf("%s written outside the mirror", e.Name())
		}
	}

	// Links where the mirror writes are refused, never followed.
	linked := t.TempDir()
	if err := os.MkdirAll(filepath.Join(linked, Folder), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(linked, Folder, "ln")); err != nil {
		t.Fatal(err)
	}
	if err := ApplySnapshot(linked, Snapshot{Room: "ln", Config: cfg}); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("room folder a link: %v, want an unsafe path", err)
	}
	if err := os.Symlink(secret, filepath.Join(r.Dir(), LogFile)); err != nil {
		t.Fatal(err)
	}
	if err := ApplySnapshot(cwd, Snapshot{Room: "ok", Log: "2026-01-01T00:00:00.000Z call seat=lead\n"}); err == nil {
		t.Error("server.log a link: accepted")
	}
	if err := os.RemoveAll(DraftsDir(r.Dir())); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, DraftsDir(r.Dir())); err != nil {
		t.Fatal(err)
	}
	if err := ApplySnapshot(cwd, Snapshot{Room: "ok", Drafts: []Draft{{Seat: "lead", Text: "x"}}, DraftsChanged: true}); err == nil {
		t.Error("drafts a link: accepted")
	}
	if err := os.Symlink(outside, filepath.Join(cwd, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := ApplySnapshot(cwd, Snapshot{Room: "ok", Spec: &SpecFile{Path: "docs/SPEC.md", Text: "x"}}); err == nil {
		t.Error("spec folder a link: accepted")
	}
	data, _ := os.ReadFile(secret)
	got, _ := os.ReadDir(outside)
	if string(data) != "keep" || len(got) != 1 {
		t.Errorf("the folder outside changed: secret %q, %d entries", data, len(got))
	}
	if err := ApplySnapshot(cwd, Snapshot{Room: "ok", Log: strings.Repeat("x", mirrorMaxLog+1)}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("an oversized log part: %v", err)
	}
}

func TestWithoutPIDs(t *testing.T) {
	in := "2026-01-01T00:00:00.000Z connect seat=lead agent=\"a pid=3\" pid=42 waits=logged\nnot a line pid=1\n2026-01-01T00:00:01.000Z call seat=lead tool=post\n"
	want := "2026-01-01T00:00:00.000Z connect seat=lead agent=\"a pid=3\" waits=logged\nnot a line\n2026-01-01T00:00:01.000Z call seat=lead tool=post\n"
	if got := withoutPIDs(in); got != want {
		t.Errorf("withoutPIDs:\n%q\nwant\n%q", got, want)
	}
}

// TestSnapshotWaitWakesOnDraft checks that a parked observe call returns
// with a draft written while it waits, woken by the Notifier's drafts
// topic rather than the poll: with the poll off, it still comes back
// holding the draft, not empty at its timeout.
func TestSnapshotWaitWakesOnDraft(t *testing.T) {
	defer func(p time.Duration) { ObservePoll = p }(ObservePoll)
	ObservePoll = time.Hour
	r, _, err := Create(t.TempDir(), "drafts", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	s, err := r.SnapshotWait(ctx, Cursor{}, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Snapshot, 1)
	go func() {
		s, err := r.SnapshotWait(ctx, s.Next, 20*time.Second, n)
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	time.Sleep(50 * time.Millisecond) // parked
	if err := r.WriteDraft(Draft{Seat: SeatPeer, Text: "words in progress"}); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if !got.DraftsChanged || len(got.Drafts) != 1 || got.Drafts[0].Text != "words in progress" {
		t.Errorf("the wait returned %+v; want the draft written while it waited", got)
	}
}

// TestSnapshotWait checks that an observe call parks while nothing is new
// and returns with the change: a message and a draft (through the
// Notifier), a log line (looked at every ObservePoll), and nothing at its timeout or
// when its context ends.
func TestSnapshotWait(t *testing.T) {
	r, _, err := Create(t.TempDir(), "wait", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	s, err := r.SnapshotWait(ctx, Cursor{}, time.Minute, n)
	if err != nil || s.Config == nil {
		t.Fatalf("first call: %+v, %v; want the config at once", s, err)
	}
	c := s.Next

	changes := []struct {
		name string
		make func() error
		got  func(Snapshot) bool
	}{
		{"message", func() error {
			_, _, err := r.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: "hello"})
			return err
		}, func(s Snapshot) bool { return len(s.Messages) == 1 }},
		{
			"log line", func() error { return r.Log(EventCall, F("seat", "peer"), F("tool", WaitTool)) },
			func(s Snapshot) bool { return strings.Contains(s.Log, WaitTool) },
		},
		{
			"draft", func() error { return r.WriteDraft(Draft{Seat: SeatPeer, Text: "typing"}) },
			func(s Snapshot) bool { return s.DraftsChanged && len(s.Drafts) == 1 },
		},
	}
	for _, ch := range changes {
		done := make(chan Snapshot, 1)
		go func() {
			s, err := r.SnapshotWait(ctx, c, time.Minute, n)
			if err != nil {
				t.Error(err)
			}
			done <- s
		}()
		time.Sleep(50 * time.Millisecond) // parked
		if err := ch.make(); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-done:
			if !ch.got(s) {
				t.Fatalf("%s: woke with %+v", ch.name, s)
			}
			c = s.Next
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the call never woke", ch.name)
		}
	}
	if s, err := r.SnapshotWait(ctx, c, 100*time.Millisecond, n); err != nil || !s.Empty() || s.Next != c {
		t.Errorf("nothing new: %+v, %v; want an empty snapshot at the timeout", s, err)
	}
	short, stop := context.WithTimeout(ctx, 100*time.Millisecond)
	defer stop()
	if s, err := r.SnapshotWait(short, c, time.Minute, nil); err != nil || !s.Empty() {
		t.Errorf("context ended: %+v, %v", s, err)
	}
}
