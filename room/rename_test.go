package room

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestRenameMovesTheRoomAndRefusesTakenNames(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "old-name", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: "brief"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Create(cwd, "taken", CreateOptions{Topic: "t", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "old-name", "taken"); !errors.Is(err, ErrRoomExists) {
		t.Fatalf("rename onto a taken name: %v", err)
	}
	if err := Rename(cwd, "old-name", "../x"); err == nil {
		t.Fatal("rename to an invalid name passed")
	}
	if err := Rename(cwd, "old-name", "new-name"); err != nil {
		t.Fatal(err)
	}
	nr, err := Open(cwd, "new-name")
	if err != nil {
		t.Fatal(err)
	}
	st, err := nr.State()
	if err != nil || len(st.Messages) != 1 || nr.Config().Room != "new-name" {
		t.Fatalf("renamed room: err %v msgs %d name %q", err, len(st.Messages), nr.Config().Room)
	}
	if _, err := Open(cwd, "old-name"); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("old name still opens: %v", err)
	}
}

func TestRenameRefusesALiveSeat(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "busy", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	line := time.Now().UTC().Format(TimeLayout) + " connect seat=lead agent=x pid=" + strconv.Itoa(os.Getpid()) + "\n"
	if err := os.WriteFile(filepath.Join(r.Dir(), "server.log"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "busy", "free"); !errors.Is(err, ErrSeatsConnected) {
		t.Fatalf("rename under a live seat: %v", err)
	}
	if _, err := os.Stat(r.Dir()); err != nil {
		t.Fatalf("the room moved anyway: %v", err)
	}
}

func TestRestoreUndoesTrash(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := Create(cwd, "gone", CreateOptions{Topic: "t", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	path, err := Trash(cwd, "gone", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := Restore(cwd, "/elsewhere/gone", "gone"); err == nil {
		t.Fatal("restore from outside the trash passed")
	}
	if err := Restore(cwd, path, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(cwd, "gone"); err != nil {
		t.Fatalf("restored room does not open: %v", err)
	}
	if err := Restore(cwd, path, "gone"); err == nil {
		t.Fatal("restoring twice passed")
	}
}

// TestRenameKeepsAClosedRoomWhole: a closed room renamed still finds its
// spec through its ending (closed.json names the new file), and its
// verdict moves beside the spec.
func TestRenameKeepsAClosedRoomWhole(t *testing.T) {
	cwd := t.TempDir()
	if _, err := Seed(cwd, "old", CreateOptions{Topic: "cache it", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(cwd, "old")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.WriteSpec("# The spec\n"); err != nil {
		t.Fatal(err)
	}
	closed, err := r.Close(CloseOptions{Reason: "done", RequireSpec: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.WriteVerdict("**Decision:** go\n", &closed); err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "old", "new"); err != nil {
		t.Fatal(err)
	}
	r, err = Open(cwd, "new")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil || st.Closed == nil {
		t.Fatalf("the renamed room's state: %v %+v", err, st.Closed)
	}
	if st.Closed.SpecPath != "SPEC-new.md" || st.Closed.Reason != "done" || st.Closed.At != closed.At {
		t.Fatalf("closed.json after the rename: %+v, want specPath SPEC-new.md and the rest as it was (%+v)", st.Closed, closed)
	}
	spec, err := r.ReadSpec(SpecFor(r.Config(), st.Closed))
	if err != nil || string(spec) != "# The spec\n" {
		t.Fatalf("the spec through the renamed room's ending: %q, %v", spec, err)
	}
	v, err := os.ReadFile(filepath.Join(cwd, VerdictPath(r.Config(), st.Closed)))
	if err != nil || string(v) != "**Decision:** go\n" {
		t.Fatalf("the verdict beside the renamed spec: %q, %v", v, err)
	}
	if _, err := os.Stat(filepath.Join(cwd, "SPEC-old.verdict.md")); !os.IsNotExist(err) {
		t.Fatalf("the old verdict file is still there: %v", err)
	}
}

// TestRenameRefusesARunningDebate: a room whose run a live process holds
// is not moved from under it (the home screen's R and roundtable rooms
// rename both call Rename).
func TestRenameRefusesARunningDebate(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "busy", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "busy", "free"); !errors.Is(err, ErrRunning) {
		t.Fatalf("rename of a running debate: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "busy", "free"); err != nil {
		t.Fatalf("rename once the run stopped: %v", err)
	}
}
