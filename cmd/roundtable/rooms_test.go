package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// roomNames are the names `roundtable rooms` lists under cwd, from its
// --json lines, in order; every line must be a JSON object with the
// documented keys.
func roomNames(t *testing.T, cwd string) []string {
	t.Helper()
	out, stderr, code := runBin(t, "", "rooms", "--json", "--cwd", cwd)
	if code != 0 {
		t.Fatalf("rooms --json: exit %d: %s", code, stderr)
	}
	var names []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("rooms --json: a line is not a JSON object: %q: %v", sc.Text(), err)
		}
		for _, k := range []string{"name", "mode", "closed", "reason", "paused", "used", "budget", "messages", "last", "topic", "error"} {
			if _, ok := m[k]; !ok {
				t.Errorf("rooms --json: no key %q in %s", k, sc.Text())
			}
		}
		names = append(names, m["name"].(string))
	}
	return names
}

// TestRoomsCommand lists, renames, deletes and restores rooms through the
// real binary, as a person would from the shell.
func TestRoomsCommand(t *testing.T) {
	cwd := t.TempDir()
	out, stderr, code := runBin(t, "", "rooms", "--cwd", cwd)
	if code != 0 || !strings.Contains(out, "No rooms under "+cwd) || !strings.Contains(out, "roundtable tui") {
		t.Fatalf("rooms in an empty folder: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if out, _, code := runBin(t, "", "rooms", "--json", "--cwd", cwd); code != 0 || out != "" {
		t.Fatalf("rooms --json in an empty folder: exit %d, %q, want nothing", code, out)
	}

	if _, stderr, code := runBin(t, "", "debate", "--provider", "mock", "--fast", "--room", "graphql", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--cwd", cwd); code != 0 {
		t.Fatalf("debate: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runBin(t, "", "seed", "--room", "cache-design", "--topic", "Should the cache be write-through", "--budget", "4", "--cwd", cwd); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, stderr)
	}

	out, stderr, code = runBin(t, "", "rooms", "list", "--cwd", cwd)
	if code != 0 {
		t.Fatalf("rooms list: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"NAME", "graphql", "debate", "closed: complete", "1/1", "Should we adopt GraphQL", "cache-design", "MCP room", "0/4", "Should the cache be write-through"} {
		if !strings.Contains(out, want) {
			t.Errorf("rooms list: no %q in\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("rooms list: a line of %d characters:\n%s", n, l)
		}
	}
	if got := strings.Join(roomNames(t, cwd), " "); got != "cache-design graphql" {
		t.Fatalf("rooms --json: rooms %q, want the newest first: cache-design graphql", got)
	}

	_, stderr, code = runBin(t, "", "rooms", "rename", "cache-design", "cache", "--cwd", cwd)
	if code != 0 || !strings.Contains(stderr, "renamed room cache-design to cache") {
		t.Fatalf("rooms rename: exit %d: %s", code, stderr)
	}
	if got := strings.Join(roomNames(t, cwd), " "); got != "cache graphql" {
		t.Fatalf("after the rename: rooms %q, want cache graphql", got)
	}
	if r, err := room.Open(cwd, "cache"); err != nil || r.Config().Room != "cache" {
		t.Fatalf("the renamed room: %v", err)
	}

	_, stderr, code = runBin(t, "", "rooms", "delete", "cache", "--cwd", cwd)
	if code != 0 || !strings.Contains(stderr, filepath.Join(room.Folder, room.TrashFolder, "cache-")) || !strings.Contains(stderr, "roundtable rooms restore cache --cwd "+cwd) {
		t.Fatalf("rooms delete: exit %d: %s", code, stderr)
	}
	trashed, err := filepath.Glob(filepath.Join(cwd, room.Folder, room.TrashFolder, "cache-*", "room.json"))
	if err != nil || len(trashed) != 1 {
		t.Fatalf("the trash holds %v (%v), want the room", trashed, err)
	}
	if got := strings.Join(roomNames(t, cwd), " "); got != "graphql" {
		t.Fatalf("after the delete: rooms %q, want graphql", got)
	}

	_, stderr, code = runBin(t, "", "rooms", "restore", "cache", "--cwd", cwd)
	if code != 0 || !strings.Contains(stderr, "restored room cache") {
		t.Fatalf("rooms restore: exit %d: %s", code, stderr)
	}
	if got := strings.Join(roomNames(t, cwd), " "); got != "cache graphql" {
		t.Fatalf("after the restore: rooms %q, want cache graphql", got)
	}
	if _, err := os.Stat(filepath.Dir(trashed[0])); !os.IsNotExist(err) {
		t.Errorf("the restored room is still in the trash: %v", err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rooms", "delete", "nosuch"}, `no room "nosuch" under`},
		{[]string{"rooms", "restore", "nosuch"}, `no deleted room "nosuch" in the trash`},
		{[]string{"rooms", "rename", "nosuch", "other"}, `no room "nosuch" under`},
		{[]string{"rooms", "rename", "cache", "graphql"}, `"graphql"`},
		{[]string{"rooms", "delete", "../etc"}, "bad room name"},
		{[]string{"rooms", "delete"}, "needs the name of the room to delete"},
	} {
		_, stderr, code := runBin(t, "", append(c.args, "--cwd", cwd)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("roundtable %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// TestRoomsRefusesARoomInUse: a debate whose run is alive is neither
// renamed nor deleted, nor is a room with a seat connected, unless
// delete has --force.
func TestRoomsRefusesARoomInUse(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "running", room.CreateOptions{Topic: "t", Budget: 2, Mode: room.ModeDebate})
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.LockRun() // this test process runs it
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lock.Unlock() }()
	pid := strconv.Itoa(os.Getpid())
	for _, args := range [][]string{{"rooms", "delete", "running"}, {"rooms", "rename", "running", "other"}} {
		_, stderr, code := runBin(t, "", append(args, "--cwd", cwd)...)
		if code != 2 || !strings.Contains(stderr, "process "+pid+" still runs its debate") || !strings.Contains(stderr, "kill "+pid) {
			t.Errorf("roundtable %s: exit %d, %q; want exit 2 naming pid %s", strings.Join(args, " "), code, stderr, pid)
		}
	}
	if _, err := os.Stat(r.Dir()); err != nil {
		t.Fatalf("the running debate's room moved: %v", err)
	}

	seated, _, err := room.Create(cwd, "seated", room.CreateOptions{Topic: "t", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := seated.Log(room.EventConnect, room.F("seat", "peer"), room.F("agent", "codex"), room.F("pid", os.Getpid())); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runBin(t, "", "rooms", "delete", "seated", "--cwd", cwd)
	if code != 2 || !strings.Contains(stderr, "the peer seat (codex) is still connected") || !strings.Contains(stderr, "--force") {
		t.Fatalf("delete under a connected seat: exit %d, %q", code, stderr)
	}
	_, stderr, code = runBin(t, "", "rooms", "delete", "seated", "--force", "--cwd", cwd)
	if code != 0 || !strings.Contains(stderr, "deleted room seated") {
		t.Fatalf("delete --force: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(seated.Dir()); !os.IsNotExist(err) {
		t.Fatalf("delete --force left the room: %v", err)
	}
}
