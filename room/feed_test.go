package room

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// debateRoom is a debate room of two personas with names a file system
// would not take as they are.
func debateRoom(t *testing.T, cwd, name string) *Room {
	t.Helper()
	r, _, err := Create(cwd, name, CreateOptions{Topic: "t", Budget: 2, Mode: ModeDebate, Personas: []PersonaInfo{
		{Name: "Dr. Ada/Lovelace", Persona: "x"}, {Name: "Zoë 李", Persona: "y"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// next reads the feed's next event, failing after a generous while.
func next(t *testing.T, f *Feed) FeedEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ev, err := f.Next(ctx)
	if err != nil {
		t.Fatalf("no feed event: %v", err)
	}
	return ev
}

// feedOf starts following r, until the test ends.
func feedOf(t *testing.T, r *Room) *Feed {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f, err := r.Feed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func TestFeedSnapshotThenEveryChangeInOrder(t *testing.T) {
	cwd := t.TempDir()
	r := debateRoom(t, cwd, "fed")
	a, b := "Dr. Ada/Lovelace", "Zoë 李"
	if _, err := r.Record(Post{Seat: a, Agent: "m", Kind: "turn", Text: "before", Round: 1}); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDraft(Draft{Seat: b, Agent: "m", Text: "half"}); err != nil {
		t.Fatal(err)
	}
	// The writer is another Room value on the same folder, as another
	// process would be.
	w, err := Open(cwd, "fed")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := r.Feed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	snap := f.Snapshot()
	if len(snap.State.Messages) != 1 || len(snap.Drafts) != 1 || snap.Drafts[0].Text != "half" || snap.Config.Room != "fed" {
		t.Fatalf("snapshot %+v", snap)
	}

	at := time.Now().UTC().Truncate(time.Millisecond)
	if err := w.WriteDraft(Draft{Seat: b, Agent: "m", StartedAt: at, Text: "half a thought"}); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, f); ev.Kind != FeedDraft || ev.Draft.Seat != b || ev.Draft.Text != "half a thought" || !ev.Draft.StartedAt.Equal(at) {
		t.Fatalf("event %+v, want b's draft", ev)
	}
	// A turn ends: its message, then its draft gone.
	if _, err := w.Record(Post{Seat: b, Agent: "m", Kind: "turn", Text: "half a thought.", Round: 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.ClearDraft(b); err != nil {
		t.Fatal(err)
	}
	ev := next(t, f)
	if ev.Kind != FeedMessage || ev.Message.Seq != 2 || ev.Message.Seat != b {
		t.Fatalf("event %+v, want message 2", ev)
	}
	if ev := next(t, f); ev.Kind != FeedDraft || !ev.DraftGone || ev.Draft.Seat != b {
		t.Fatalf("event %+v, want b's draft gone", ev)
	}
	if _, err := w.AddNote(NoteFromUser, "mind the users", 1); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, f); ev.Kind != FeedNote || ev.Note.Text != "mind the users" || ev.Note.AfterSeq != 2 {
		t.Fatalf("event %+v, want the note", ev)
	}
	if _, err := w.Close(CloseOptions{Reason: "complete"}); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, f); ev.Kind != FeedClosed || ev.Closed == nil || ev.Closed.Reason != "complete" {
		t.Fatalf("event %+v, want the close", ev)
	}
	// Nothing more: Next waits until its context ends.
	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	defer stop()
	if ev, err := f.Next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("after the close: %+v, %v", ev, err)
	}
}

// feedWriterEnv makes the test binary a writer process for
// TestFeedFollowsAWriterInAnotherProcess: "cwd|room".
const feedWriterEnv = "ROOM_FEED_WRITER"

func init() {
	spec := os.Getenv(feedWriterEnv)
	if spec == "" {
		return
	}
	cwd, name, _ := strings.Cut(spec, "|")
	if err := feedWriter(cwd, name); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// feedWriter streams a turn into the room as a debate's run does: the
// draft growing, then (once the reader says go) the message, the draft
// removed, and the close.
func feedWriter(cwd, name string) error {
	r, err := Open(cwd, name)
	if err != nil {
		return err
	}
	seat := r.Config().Seats()[0]
	text := ""
	for i := range 20 {
		text += fmt.Sprintf("word%d ", i)
		if err := r.WriteDraft(Draft{Seat: seat, Agent: "m", Text: text}); err != nil {
			return err
		}
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(cwd, "go")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return errors.New("the reader never said go")
		}
	}
	if _, err := r.Record(Post{Seat: seat, Agent: "m", Kind: "turn", Text: text, Round: 1}); err != nil {
		return err
	}
	if err := r.ClearDrafts(); err != nil {
		return err
	}
	_, err = r.Close(CloseOptions{Reason: "complete"})
	return err
}

func TestFeedFollowsAWriterInAnotherProcess(t *testing.T) {
	cwd := t.TempDir()
	r := debateRoom(t, cwd, "remote")
	f := feedOf(t, r)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), feedWriterEnv+"="+cwd+"|remote")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seat := r.Config().Seats()[0]
	final := ""
	for i := range 20 {
		final += fmt.Sprintf("word%d ", i)
	}
	var kinds []FeedKind
	last := ""
	for {
		ev := next(t, f)
		kinds = append(kinds, ev.Kind)
		if ev.Kind == FeedDraft && !ev.DraftGone {
			if ev.Draft.Seat != seat || !strings.HasPrefix(final, ev.Draft.Text) || len(ev.Draft.Text) <= len(last) {
				t.Fatalf("draft %+v after %q", ev.Draft, last)
			}
			last = ev.Draft.Text
			if last == final {
				if err := os.WriteFile(filepath.Join(cwd, "go"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if ev.Kind == FeedMessage && ev.Message.Text != final {
			t.Fatalf("message %+v", ev.Message)
		}
		if ev.Kind == FeedClosed {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("writer: %v\n%s", err, stderr.String())
	}
	// The drafts came (coalesced as the reader keeps up), then the
	// message, the draft gone, the close.
	n := len(kinds)
	if n < 4 || kinds[n-3] != FeedMessage || kinds[n-2] != FeedDraft || kinds[n-1] != FeedClosed || last != final {
		t.Fatalf("events %v, last draft %q", kinds, last)
	}
}

// TestFeedSeatHolders: the feed says who holds a seat as it changes: a
// player taking it, letting it go, and one that dies, whose lock the
// kernel frees without a word (the feed polls the holders it saw live).
func TestFeedSeatHolders(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "held", CreateOptions{Topic: "t", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	reader, err := Open(cwd, "held")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f, err := reader.Feed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if h := f.Snapshot().Holders[SeatLead]; h.Live {
		t.Fatalf("the lead is held before anyone took it: %+v", h)
	}
	next := func(want string) Holder {
		t.Helper()
		for {
			ev, err := f.Next(ctx)
			if err != nil {
				t.Fatalf("waiting for %s: %v", want, err)
			}
			if ev.Kind == FeedHolder && ev.HolderOf == SeatLead {
				return ev.Holder
			}
		}
	}
	lock, err := r.LockSeat(SeatLead)
	if err != nil {
		t.Fatal(err)
	}
	if h := next("the lead taken"); !h.Live || h.PID != os.Getpid() {
		t.Fatalf("the lead taken reads %+v", h)
	}
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	if h := next("the lead let go"); h.Live {
		t.Fatalf("the lead let go reads %+v", h)
	}
	// A holder that dies: a process named in the lock file, then killed.
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }()
	if err := writeHolder(holderFile(seatLockFile(r.Dir(), SeatLead)), sleeper.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if h := next("the lead held by another process"); !h.Live || h.PID != sleeper.Process.Pid {
		t.Fatalf("the lead held by another process reads %+v", h)
	}
	_ = sleeper.Process.Kill()
	_ = sleeper.Wait()
	if h := next("the holder dead"); h.Live {
		t.Fatalf("the dead holder reads %+v", h)
	}
}

// TestFeedNeverClosesBeforeTheLastMessage: a message posted just before
// the room closes comes before the close, even when the feed's watch has
// not yet taken in the message's file when it reads closed.json (a reader
// that stops at the close would lose it: a debate's verdict).
func TestFeedNeverClosesBeforeTheLastMessage(t *testing.T) {
	cwd := t.TempDir()
	for i := range 30 {
		name := fmt.Sprintf("r%d", i)
		w, _, err := Create(cwd, name, CreateOptions{Topic: "t", Budget: 2})
		if err != nil {
			t.Fatal(err)
		}
		reader, err := Open(cwd, name)
		if err != nil {
			t.Fatal(err)
		}
		f := feedOf(t, reader)
		mustPost(t, w, SeatLead, "the last word")
		if _, err := w.Close(CloseOptions{Reason: "done"}); err != nil {
			t.Fatal(err)
		}
		var got []FeedKind
		for ev := next(t, f); ; ev = next(t, f) {
			got = append(got, ev.Kind)
			if ev.Kind == FeedClosed {
				break
			}
		}
		if !slices.Contains(got, FeedMessage) {
			t.Fatalf("room %d: the close came before the message posted before it: %v", i, got)
		}
	}
}
