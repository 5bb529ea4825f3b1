package room

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newRoom(t *testing.T, budget int) *Room {
	t.Helper()
	r, created, err := Create(t.TempDir(), "r1", CreateOptions{Topic: "t", Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Fatal("first Create did not report creating the room")
	}
	return r
}

func mustPost(t *testing.T, r *Room, seat, text string) Message {
	t.Helper()
	m, _, err := r.PostMessage(Post{Seat: seat, Agent: "a-" + seat, Text: text})
	if err != nil {
		t.Fatalf("post %s %q: %v", seat, text, err)
	}
	return m
}

func TestCreateNeverOverwritesRoomJSON(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := Create(cwd, "x", CreateOptions{Topic: "first", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	r, created, err := Create(cwd, "x", CreateOptions{Topic: "second", Budget: 9})
	if err != nil {
		t.Fatal(err)
	}
	if created || r.Config().Topic != "first" || r.Config().Budget != 3 {
		t.Fatalf("second Create changed the room: created=%v cfg=%+v", created, r.Config())
	}
	gi, err := os.ReadFile(filepath.Join(cwd, Folder, ".gitignore"))
	if err != nil || string(gi) != "*\n" {
		t.Fatalf(".gitignore = %q, %v", gi, err)
	}
	data, _ := os.ReadFile(filepath.Join(cwd, Folder, "x", "room.json"))
	if !strings.HasPrefix(string(data), "{\n  \"room\": \"x\",\n  \"topic\": \"first\",") || !strings.HasSuffix(string(data), "}\n") {
		t.Fatalf("room.json not in the format:\n%s", data)
	}
}

func TestTurnBudgetAndRefusals(t *testing.T) {
	r := newRoom(t, 2)
	if _, _, err := r.PostMessage(Post{Seat: SeatPeer, Text: "early"}); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("peer first: %v, want ErrNotYourTurn", err)
	}
	mustPost(t, r, SeatLead, "brief")
	_, _, err := r.PostMessage(Post{Seat: SeatLead, Text: "again"})
	var turn *NotYourTurnError
	if !errors.Is(err, ErrNotYourTurn) || !errors.As(err, &turn) || turn.Seat != SeatLead || turn.Turn != SeatPeer {
		t.Fatalf("lead twice: %v", err)
	}
	mustPost(t, r, SeatPeer, "answer")
	mustPost(t, r, SeatLead, "challenge")
	mustPost(t, r, SeatPeer, "answer 2")
	_, _, err = r.PostMessage(Post{Seat: SeatLead, Text: "over"})
	var budget *BudgetSpentError
	if !errors.Is(err, ErrBudgetSpent) || !errors.As(err, &budget) || budget.Round != 2 || budget.Budget != 2 {
		t.Fatalf("lead over budget: %v", err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Round != 2 || st.Turn != SeatLead || !st.OutOfBudget || len(st.Messages) != 4 {
		t.Fatalf("state = round %d turn %s out %v n %d", st.Round, st.Turn, st.OutOfBudget, len(st.Messages))
	}
	for i, m := range st.Messages {
		if m.Seq != i+1 {
			t.Fatalf("message %d has seq %d", i, m.Seq)
		}
	}
	if st.Messages[0].Kind != "brief" || st.Messages[1].Kind != "answer" {
		t.Fatalf("default kinds: %q %q", st.Messages[0].Kind, st.Messages[1].Kind)
	}
}

func TestPostValidation(t *testing.T) {
	r := newRoom(t, 5)
	cases := []struct {
		name string
		p    Post
		want error
	}{
		{"empty", Post{Seat: SeatLead, Text: "  \n"}, ErrEmpty},
		{"too large", Post{Seat: SeatLead, Text: strings.Repeat("x", MaxTextBytes+1)}, ErrTooLarge},
		{"bad kind", Post{Seat: SeatLead, Kind: "two\nlines", Text: "x"}, ErrBadKind},
		{"bad seat", Post{Seat: "moderator", Text: "x"}, ErrBadSeat},
	}
	for _, c := range cases {
		if _, _, err := r.PostMessage(c.p); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Text: strings.Repeat("x", MaxTextBytes)}); err != nil {
		t.Fatalf("post at the limit refused: %v", err)
	}
	st, _ := r.State()
	if len(st.Messages) != 1 {
		t.Fatalf("%d messages after refusals, want 1", len(st.Messages))
	}
}

func TestClosedRoomRefusesPostsAndSecondClose(t *testing.T) {
	r := newRoom(t, 5)
	mustPost(t, r, SeatLead, "brief")
	if _, err := r.Close(CloseOptions{Reason: "done", RequireSpec: true}); !errors.Is(err, ErrNoSpec) {
		t.Fatalf("close without spec: %v", err)
	}
	if _, err := r.WriteSpec("# Decision\n"); err != nil {
		t.Fatal(err)
	}
	c, err := r.Close(CloseOptions{Reason: "agreement reached", RequireSpec: true})
	if err != nil || c.SpecPath != "SPEC-r1.md" {
		t.Fatalf("close: %+v %v", c, err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatPeer, Text: "late"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("post after close: %v", err)
	}
	if _, err := r.Close(CloseOptions{Reason: "again"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	st, _ := r.State()
	if st.Closed == nil || st.Closed.Reason != "agreement reached" {
		t.Fatalf("closed = %+v", st.Closed)
	}
}

func TestWriteSpecCreatesFoldersAndStaysInside(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "s", CreateOptions{Budget: 1, Spec: "docs/specs/new/plan.md"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.WriteSpec("plan")
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(cwd, "docs/specs/new/plan.md") {
		t.Fatalf("spec at %s", p)
	}
	// A symlinked folder on the way out of cwd is refused.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(cwd, "out")); err != nil {
		t.Fatal(err)
	}
	r2, _, err := Create(cwd, "s2", CreateOptions{Budget: 1, Spec: "out/evil.md"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.WriteSpec("x"); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("spec through a symlink out of cwd: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "evil.md")); err == nil {
		t.Fatal("a file was written outside cwd")
	}
}

func TestSafeSpec(t *testing.T) {
	for _, in := range []string{"/etc/passwd", "../x.md", "a/../../x.md", `a\b.md`, "C:x.md", "a\x00b", ".roundtable/r/x.md", "."} {
		if got, note := SafeSpec("r", in); got != "SPEC-r.md" || note == "" {
			t.Errorf("SafeSpec(%q) = %q, %q; want the fallback with a note", in, got, note)
		}
	}
	if got, note := SafeSpec("r", "docs/./plan.md"); got != "docs/plan.md" || note != "" {
		t.Errorf("safe path changed: %q %q", got, note)
	}
}

func TestValidateName(t *testing.T) {
	good := []string{"a", "cache-design", "A.b_c-9", strings.Repeat("x", 64)}
	bad := []string{"", ".hidden", "-x", "a/b", "..", "a b", strings.Repeat("x", 65), "é", "a\x00"}
	for _, n := range good {
		if err := ValidateName(n); err != nil {
			t.Errorf("%q refused: %v", n, err)
		}
	}
	for _, n := range bad {
		if err := ValidateName(n); !errors.Is(err, ErrBadName) {
			t.Errorf("%q accepted", n)
		}
	}
}

// writeRaw writes a message file in the format, as another tool would.
func writeRaw(t *testing.T, r *Room, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.MessagesDir(), name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptFilesAreSkippedAndNamed(t *testing.T) {
	r := newRoom(t, 10)
	mustPost(t, r, SeatLead, "one")
	writeRaw(t, r, "0002-1-aaaaaa.json", `{"seq": 2, "seat": "peer", "te`)
	writeRaw(t, r, "0003-1-bbbbbb.json", `[1,2,3]`)
	writeRaw(t, r, ".tmp-123", `{"seq":9}`)
	writeRaw(t, r, "notes.txt", `hello`)
	if err := os.Mkdir(filepath.Join(r.MessagesDir(), "0004-1-cccccc.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(r.MessagesDir(), "0005-1-dddddd.json")); err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 1 || len(st.NewSkipped) != 4 {
		t.Fatalf("messages %d skipped %+v", len(st.Messages), st.NewSkipped)
	}
	// The next post takes a number above every file, readable or not.
	m := mustPost(t, r, SeatPeer, "two")
	if m.Seq != 6 {
		t.Fatalf("next seq %d, want 6", m.Seq)
	}
	st, _ = r.Refresh()
	if len(st.NewSkipped) != 0 || len(st.Skipped) != 4 {
		t.Fatalf("skipped files reported again: new %d all %d", len(st.NewSkipped), len(st.Skipped))
	}
}

func TestReadsPast9999InNumericOrder(t *testing.T) {
	r := newRoom(t, 100000)
	const n = 10500
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		seat := SeatLead
		if i%2 == 0 {
			seat = SeatPeer
		}
		at := base.Add(time.Duration(i) * time.Millisecond)
		m := Message{Seq: i, At: formatTime(at), Seat: seat, Agent: "a", Kind: DefaultKind(seat), Text: fmt.Sprint("m", i)}
		data, _ := encodeJSON(m)
		writeRaw(t, r, messageFileName(i, at, "abcdef"), string(data))
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != n {
		t.Fatalf("%d messages, want %d", len(st.Messages), n)
	}
	for i, m := range st.Messages {
		if m.Seq != i+1 {
			t.Fatalf("position %d holds seq %d (file %s)", i, m.Seq, m.File)
		}
	}
	if st.Round != n/2 || st.Turn != SeatLead {
		t.Fatalf("round %d turn %s", st.Round, st.Turn)
	}
	m := mustPost(t, r, SeatLead, "next")
	if m.Seq != n+1 || !strings.HasPrefix(m.File, "10501-") {
		t.Fatalf("new message %d in %s", m.Seq, m.File)
	}
}

func TestIncrementalRefreshParsesOnlyNewFiles(t *testing.T) {
	r := newRoom(t, 100)
	mustPost(t, r, SeatLead, "one")
	if _, err := r.Refresh(); err != nil {
		t.Fatal(err)
	}
	// Corrupt the first file in place: a reader that re-parsed it would now
	// skip it. An incremental reader keeps what it parsed.
	st, _ := r.State()
	writeRaw(t, r, st.Messages[0].File, "garbage")
	mustPost(t, r, SeatPeer, "two")
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 2 || len(st.Skipped) != 0 {
		t.Fatalf("re-read an old file: %d messages, skipped %+v", len(st.Messages), st.Skipped)
	}
}

func TestStaleTempFilesAreCleanedByTheNextWriter(t *testing.T) {
	r := newRoom(t, 10)
	stale := filepath.Join(r.MessagesDir(), tempPrefix+"dead")
	fresh := filepath.Join(r.MessagesDir(), tempPrefix+"live")
	writeRaw(t, r, filepath.Base(stale), "{}")
	writeRaw(t, r, filepath.Base(fresh), "{}")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	mustPost(t, r, SeatLead, "x")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("stale temp file left behind")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatal("fresh temp file removed")
	}
}

func TestSymlinkedRoomFolderIsRefused(t *testing.T) {
	cwd := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(cwd, Folder)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Create(cwd, "x", CreateOptions{Budget: 1}); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("Create through a symlinked .roundtable: %v", err)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 0 {
		t.Fatalf("files created outside cwd: %v", entries)
	}
}

func TestOpenMissingRoom(t *testing.T) {
	if _, err := Open(t.TempDir(), "nope"); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("Open of a missing room: %v", err)
	}
}

func TestDebateRecordKeepsRound(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "d", CreateOptions{Topic: "t", Budget: 2, Mode: ModeDebate, Agents: []string{"PM", "Architect"}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Record(Post{Seat: "PM", Agent: "mock", Kind: "turn", Text: "x", Round: 1}); err != nil {
		t.Fatal(err)
	}
	r2, err := Open(cwd, "d")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r2.State()
	if !r2.Config().IsDebate() || len(st.Messages) != 1 || st.Messages[0].Round != 1 || st.Messages[0].Seat != "PM" {
		t.Fatalf("debate room read back wrong: %+v %+v", r2.Config(), st.Messages)
	}
}

func TestSlug(t *testing.T) {
	cases := map[string]string{
		"Should we adopt GraphQL?": "should-we-adopt-graphql",
		"  --Ünïcode & émoji 🚀 ok": "n-code-moji-ok",
		"!!!":                      "",
		"Should the cache be write-through, or write-back with a WAL?": "should-the-cache-be-write-through-or",
	}
	for in, want := range cases {
		got := Slug(in)
		if got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
		if got != "" && ValidateName(got) != nil {
			t.Errorf("Slug(%q) = %q is not a valid room name", in, got)
		}
	}
}
