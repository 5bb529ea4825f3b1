package room

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// listFixture writes rooms of every state under a new folder: an open MCP
// room, a closed debate, a closed MCP room with a long reason, an open
// debate nobody runs, a paused debate, a room with a long name, a topic
// with an escape sequence, and a room that cannot be read.
func listFixture(t *testing.T, now time.Time) string {
	t.Helper()
	cwd := t.TempDir()
	at := func(d time.Duration) string { return now.Add(-d).Format(TimeLayout) }
	listRoom(t, cwd, Config{Room: "cache-design", Topic: "Should the cache be write-through", Budget: 8}, now.Add(-2*time.Hour), []Message{
		{At: at(90 * time.Minute), Seat: SeatLead, Kind: "brief", Text: "b"},
		{At: at(time.Minute), Seat: SeatPeer, Kind: "answer", Text: "a"},
	}, "", time.Time{})
	listRoom(t, cwd, Config{Room: "graphql", Topic: "Should we adopt GraphQL", Budget: 1, Mode: ModeDebate, Rounds: 2}, now.Add(-3*time.Hour), []Message{
		{At: at(3 * time.Hour), Seat: "PM", Text: "x", Round: 1},
		{At: at(3 * time.Hour), Seat: "PM", Text: "y", Round: 2},
	}, "complete: the budget of $1 was spent", now.Add(-150*time.Minute))
	listRoom(t, cwd, Config{Room: "agreed", Topic: "Old decision", Budget: 4}, now.AddDate(-1, 0, 0), nil,
		"agreement reached on every point after a long talk", now.AddDate(-1, 0, 1))
	listRoom(t, cwd, Config{Room: "killed", Topic: "Nobody runs me", Mode: ModeDebate, Rounds: 3}, now.Add(-4*time.Hour), []Message{
		{At: at(4 * time.Hour), Seat: "PM", Text: "x", Round: 1},
	}, "", time.Time{})
	listRoom(t, cwd, Config{Room: "waiting", Topic: strings.Repeat("A very long topic that goes on ", 5), Mode: ModeDebate, Rounds: 3}, now.Add(-5*time.Hour), []Message{
		{At: at(5 * time.Hour), Seat: "PM", Text: "x", Round: 1},
	}, "", time.Time{})
	writeJSONFile(t, filepath.Join(Dir(cwd, "waiting"), PauseFile), Pause{Round: 1, At: at(5 * time.Hour)})
	long := "should-we-move-the-nightly-jobs-from-20261201-111447"
	listRoom(t, cwd, Config{Room: long, Topic: "Move the nightly jobs", Budget: 2}, now.Add(-6*time.Hour), nil, "", time.Time{})
	listRoom(t, cwd, Config{Room: "evil", Topic: "Move to \x1b[31mKubernetes\x1b]52;c;aGk=\x07 now\nplease", Budget: 2}, now.Add(-7*time.Hour), nil, "", time.Time{})
	writeJSONFile(t, filepath.Join(cwd, Folder, "broken", "messages", ".keep"), nil)
	if err := os.WriteFile(filepath.Join(cwd, Folder, "broken", "room.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(Dir(cwd, "broken"), now.Add(-8*time.Hour), now.Add(-8*time.Hour)); err != nil {
		t.Fatal(err)
	}
	return cwd
}

func TestWriteList(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	cwd := listFixture(t, now)
	rooms, err := ListRooms(cwd)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteList(&buf, rooms, now, ListWidth); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > ListWidth {
			t.Errorf("a line is %d wide, over %d:\n%s", w, ListWidth, l)
		}
		if l != strings.TrimRight(l, " ") {
			t.Errorf("trailing spaces: %q", l)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("an escape sequence from a topic reached the output:\n%q", out)
	}
	fields := func(l string) string { return strings.Join(strings.Fields(l), " ") }
	// Each room: its row, then its topic indented. Newest activity first.
	want := [][2]string{
		{"NAME KIND STATE ROUNDS MSGS LAST", "  TOPIC"},
		{"cache-design MCP room open 1/8 2 Nov 30 13:59", "  Should the cache be write-through"},
		{"graphql debate closed: complete 2/2 2 Nov 30 11:30", "  Should we adopt GraphQL"},
		{"killed debate open: not running 1/3 1 Nov 30 10:00", "  Nobody runs me"},
		{"waiting debate paused: not running 1/3 1 Nov 30 09:00", "  A very long topic that goes on A very long topic that goes on A very long top…"},
		{"should-we-move-the-nightly-jobs-from-20261201-111447", "MCP room open 0/2 0 Nov 30 08:00"},
		{"evil MCP room open 0/2 0 Nov 30 07:00", "  Move to ␛[31mKubernetes␛]52;c;aGk=␇ now please"},
		{"broken ? unreadable - - Nov 30 06:00", "    cannot read it: room.json"},
		{"agreed MCP room closed: agreement re… 0/4 0 Dec 01 2025", "  Old decision"},
	}
	i := 0
	for _, w := range want {
		for i < len(lines) && fields(lines[i]) != w[0] {
			i++
		}
		if i+1 >= len(lines) {
			t.Fatalf("no row %q in order:\n%s", w[0], out)
		}
		next := lines[i+1]
		if strings.HasPrefix(w[1], " ") {
			if !strings.HasPrefix(next, w[1]) {
				t.Errorf("under %q: %q, want it to start %q", w[0], next, w[1])
			}
		} else if fields(next) != w[1] || !strings.HasPrefix(next, " ") {
			t.Errorf("under the long name: %q, want the rest of its row %q", next, w[1])
		}
		i += 2
	}
	// The columns line up: every row's KIND starts where the header's does.
	col := strings.Index(lines[0], "KIND")
	for _, l := range lines {
		for _, kind := range []string{"MCP room", "debate "} {
			if k := strings.Index(l, kind); k >= 0 && !strings.HasPrefix(l, "  ") && k != col {
				t.Errorf("KIND at column %d, header's at %d:\n%s\n%s", k, col, lines[0], l)
			}
		}
	}
	if !strings.Contains(out, "not valid JSON") {
		t.Errorf("the unreadable room's error is not shown whole:\n%s", out)
	}

	// The usual endings are shown whole, only a longer reason is cut.
	for _, reason := range []string{"budget spent", "output closed", "cancelled"} {
		if got := listState(Listing{Summary: Summary{Closed: true, Reason: reason}}); got != "closed: "+reason {
			t.Errorf("a room closed with %q shows %q", reason, got)
		}
	}

	buf.Reset()
	if err := WriteList(&buf, nil, now, ListWidth); err != nil || buf.Len() != 0 {
		t.Errorf("no rooms: %q %v, want nothing", buf.String(), err)
	}
}

// TestWriteListLocalTime: the last activity is shown in now's location.
// TestWriteListNarrow: on a terminal narrower than the table (60
// columns), each room is a block: its name, its facts broken between
// them, its topic cut to fit, and why it could not be read; no line is
// wider than the terminal (before: the 80-column table, soft-wrapped by
// the terminal into a jumble).
func TestWriteListNarrow(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	rooms, err := ListRooms(listFixture(t, now))
	if err != nil {
		t.Fatal(err)
	}
	var wide, at80, narrow bytes.Buffer
	if err := WriteList(&wide, rooms, now, 0); err != nil {
		t.Fatal(err)
	}
	if err := WriteList(&at80, rooms, now, 80); err != nil {
		t.Fatal(err)
	}
	if at80.String() != wide.String() {
		t.Errorf("at 80 columns the list is not the table a pipe gets:\n%s", at80.String())
	}
	if err := WriteList(&narrow, rooms, now, 60); err != nil {
		t.Fatal(err)
	}
	out := narrow.String()
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if w := ansi.StringWidth(l); w > 60 && strings.Contains(strings.TrimSpace(l), " ") {
			t.Errorf("a line is %d wide, over 60 (only a word too long for a line may be): %q", w, l)
		}
	}
	for _, want := range []string{
		"cache-design\n  MCP room · open · 1/8 rounds · 2 messages · Nov 30 13:59\n  Should the cache be write-through\n",
		"killed\n  debate · open: not running · 1/3 rounds · 1 messages\n  Nov 30 10:00\n  Nobody runs me\n",
		"agreed\n  MCP room\n  closed: agreement reached on every point after a long talk\n  0/4 rounds · 0 messages · Dec 01  2025\n  Old decision\n",
		"broken\n  ? · unreadable · Nov 30 06:00\n    cannot read it: room.json",
		"  A very long topic that goes on A very long topic that goe…\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the narrow list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NAME") || strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("a header or an escape sequence in the narrow list:\n%q", out)
	}
}

func TestWriteListLocalTime(t *testing.T) {
	cwd := t.TempDir()
	utc := time.Date(2026, 3, 4, 23, 30, 0, 0, time.UTC)
	listRoom(t, cwd, Config{Room: "r", Topic: "t", Budget: 2}, utc, nil, "", time.Time{})
	rooms, err := ListRooms(cwd)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tokyo := time.FixedZone("JST", 9*3600)
	if err := WriteList(&buf, rooms, utc.In(tokyo), ListWidth); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Mar 05 08:30") {
		t.Errorf("23:30 UTC shown in UTC+9: want Mar 05 08:30:\n%s", buf.String())
	}
}

func TestWriteListJSON(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	cwd := listFixture(t, now)
	rooms, err := ListRooms(cwd)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteListJSON(&buf, rooms); err != nil {
		t.Fatal(err)
	}
	keys := "abandoned budget closed error last messages mode name paused reason topic used"
	got := map[string]map[string]any{}
	var order []string
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a line is not one JSON object: %q: %v", sc.Text(), err)
		}
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		if s := strings.Join(ks, " "); s != keys {
			t.Errorf("keys %s, want %s", s, keys)
		}
		name, _ := m["name"].(string)
		got[name] = m
		order = append(order, name)
	}
	if len(order) != 8 || order[0] != "cache-design" || order[7] != "agreed" {
		t.Fatalf("rooms in order %v", order)
	}
	g := got["graphql"]
	if g["mode"] != "debate" || g["closed"] != true || g["reason"] != "complete: the budget of $1 was spent" || g["used"] != 2.0 || g["budget"] != 2.0 || g["messages"] != 2.0 || g["last"] != "2026-11-30T11:30:00Z" || g["error"] != "" {
		t.Errorf("graphql: %v", g)
	}
	if c := got["cache-design"]; c["mode"] != "mcp" || c["closed"] != false || c["topic"] != "Should the cache be write-through" || c["used"] != 1.0 {
		t.Errorf("cache-design: %v", c)
	}
	if k := got["killed"]; k["abandoned"] != true || k["paused"] != false {
		t.Errorf("killed: %v", k)
	}
	if w := got["waiting"]; w["paused"] != true {
		t.Errorf("waiting: %v", w)
	}
	if e := got["evil"]; e["topic"] != "Move to \x1b[31mKubernetes\x1b]52;c;aGk=\x07 now\nplease" {
		t.Errorf("evil's topic is not given as it is: %q", e["topic"])
	}
	if b := got["broken"]; !strings.Contains(b["error"].(string), "not valid JSON") {
		t.Errorf("broken: %v", b)
	}
	if strings.Contains(buf.String(), "\x1b") {
		t.Error("a raw escape in the JSON")
	}
}

// TestInUse: a room is in use while a seat is connected or a live process
// holds its run lock, and free once neither.
func TestInUse(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "busy", CreateOptions{Topic: "t", Budget: 3, Mode: ModeDebate})
	if err != nil {
		t.Fatal(err)
	}
	if err := InUse(cwd, "busy"); err != nil {
		t.Fatalf("a room nobody is in: %v", err)
	}
	if err := InUse(cwd, "missing"); err != nil {
		t.Fatalf("a room that is not there: %v", err)
	}
	if err := InUse(cwd, "../x"); !errors.Is(err, ErrBadName) {
		t.Fatalf("a bad name: %v", err)
	}

	l, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	err = InUse(cwd, "busy")
	var in *InUseError
	if !errors.As(err, &in) || in.RunPID != os.Getpid() || !errors.Is(err, ErrRunning) || errors.Is(err, ErrSeatsConnected) {
		t.Fatalf("a debate this process runs: %v", err)
	}
	if want := "process " + strconv.Itoa(os.Getpid()) + " still runs its debate"; !strings.Contains(err.Error(), want) {
		t.Errorf("%q does not say %q", err, want)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}

	holder := exec.Command("sleep", "60")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill(); _ = holder.Wait() }()
	line := time.Now().UTC().Format(TimeLayout) + " connect seat=peer agent=codex pid=" + strconv.Itoa(holder.Process.Pid) + "\n"
	if err := os.WriteFile(filepath.Join(r.Dir(), LogFile), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	err = InUse(cwd, "busy")
	if !errors.Is(err, ErrSeatsConnected) || errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "the peer seat (codex) is still connected") {
		t.Fatalf("a connected seat: %v", err)
	}
	_ = holder.Process.Kill()
	_ = holder.Wait()
	if err := InUse(cwd, "busy"); err != nil {
		t.Fatalf("the seat's process is gone: %v", err)
	}
}

func TestLatestTrashed(t *testing.T) {
	cwd := t.TempDir()
	if _, err := LatestTrashed(cwd, "cache"); !errors.Is(err, ErrNoRoom) || !strings.Contains(err.Error(), "which is empty") {
		t.Fatalf("no trash: %v", err)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	trash := func(name, topic string, when time.Time) string {
		t.Helper()
		if _, _, err := Create(cwd, name, CreateOptions{Topic: topic, Budget: 2}); err != nil {
			t.Fatal(err)
		}
		p, err := Trash(cwd, name, when)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	trash("cache", "first", at)
	trash("cache", "second", at.Add(time.Hour))
	newest := trash("cache", "third", at.Add(time.Hour)) // the same second: -2
	// Rooms whose names start like it, or end in a stamp, are not it.
	trash("cache-design", "other", at.Add(2*time.Hour))
	trash("cache-20260304T050607Z", "stamped", at.Add(3*time.Hour))
	if err := os.MkdirAll(filepath.Join(cwd, Folder, TrashFolder, "cache-junk"), 0o755); err != nil {
		t.Fatal(err)
	}

	got, err := LatestTrashed(cwd, "cache")
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != newest || !strings.HasSuffix(newest, "-2") || got.Name != "cache" || !got.At.Equal(at.Add(time.Hour)) {
		t.Fatalf("newest copy of cache: %+v, want %s", got, newest)
	}
	if err := Restore(cwd, got.Path, "cache"); err != nil {
		t.Fatal(err)
	}
	r, err := Open(cwd, "cache")
	if err != nil || r.Config().Topic != "third" {
		t.Fatalf("restored the wrong copy: %v %+v", err, r)
	}
	if got, err := LatestTrashed(cwd, "cache-20260304T050607Z"); err != nil || !strings.Contains(got.Path, "cache-20260304T050607Z-20260304T080607Z") {
		t.Errorf("a name ending in a stamp: %+v %v", got, err)
	}

	_, err = LatestTrashed(cwd, "nosuch")
	var none *NotTrashedError
	if !errors.As(err, &none) || !errors.Is(err, ErrNoRoom) {
		t.Fatalf("a name never trashed: %v", err)
	}
	if want := `no deleted room "nosuch" in the trash ` + filepath.Join(cwd, Folder, TrashFolder) + "; it holds cache, cache-20260304T050607Z, cache-design"; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if _, err := LatestTrashed(cwd, "../x"); !errors.Is(err, ErrBadName) {
		t.Errorf("a bad name: %v", err)
	}
}
