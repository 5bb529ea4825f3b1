package host_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// debateRoom creates a persona debate's room under cwd, as `roundtable
// debate` does.
func debateRoom(t *testing.T, cwd, name string) *room.Room {
	t.Helper()
	r, _, err := room.Create(cwd, name, room.CreateOptions{
		Topic: "Tabs or spaces", Mode: room.ModeDebate, Agents: []string{"Ada", "Linus"}, Rounds: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var observerToken = regexp.MustCompile(`(?m)^  observer \(a persona debate is watch-only[^\n]*\n    token\s+(rt_\S+)$`)

// TestHostServesDebateToObservers: `roundtable host --room` on a persona
// debate serves it watch-only: the printout has the observer's token
// alone, saying the debate is watch-only, and no seat's line; the
// observer's observe_room gives the debate's room.json, and a persona's
// draft written while a call waits comes back in that call's reply (the
// wait wakes on the draft, not at its timeout).
func TestHostServesDebateToObservers(t *testing.T) {
	cwd := t.TempDir()
	r := debateRoom(t, cwd, "panel")
	h := hosttest.Start(t, "--room", "panel", "--cwd", cwd)
	out := h.Output()
	m := observerToken.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no watch-only observer token printed for the debate:\n%s", out)
	}
	for _, unwanted := range []string{"lead seat", "peer seat", "claude mcp add", "codex mcp add"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("the debate's printout offers a seat (%q):\n%s", unwanted, out)
		}
	}
	if !strings.Contains(out, "ROUNDTABLE_TOKEN="+m[1]+" roundtable watch --url") {
		t.Errorf("no watch line for the debate's observer:\n%s", out)
	}

	// The turn began before the watcher came: its draft is in the first
	// reply, and the words after it come as the turn goes on.
	began := time.Now()
	if err := r.WriteDraft(room.Draft{Seat: "Ada", Text: "Tabs", StartedAt: began}); err != nil {
		t.Fatal(err)
	}
	obs := hosttest.ConnectHTTP(t, h.URL, m[1], hosttest.ProtoModern)
	first := obs.Call("observe_room", map[string]any{"wait_seconds": 0})
	var snap room.Snapshot
	if err := json.Unmarshal([]byte(first.Text), &snap); err != nil || snap.Config == nil || !snap.Config.IsDebate() || len(snap.Drafts) != 1 {
		t.Fatalf("first observe_room of the debate: %v %s", err, first.Text)
	}
	waiting := obs.CallAsync("observe_room", map[string]any{"cursor": snap.Next, "wait_seconds": 30})
	time.Sleep(300 * time.Millisecond) // parked
	if err := r.WriteDraft(room.Draft{Seat: "Ada", Text: "Tabs, because", StartedAt: began}); err != nil {
		t.Fatal(err)
	}
	got := <-waiting
	var next room.Snapshot
	if err := json.Unmarshal([]byte(got.Text), &next); err != nil || !next.DraftsChanged || len(next.Drafts) != 1 || next.Drafts[0].Text != "Tabs, because" {
		t.Fatalf("observe_room waiting when a draft was written: %v %s; want the draft in its reply", err, got.Text)
	}
	for _, tool := range []string{"room_status", "read_room"} {
		if res := obs.Call(tool, nil); res.IsError {
			t.Errorf("the debate's observer calling %s: %s", tool, res.Text)
		}
	}
	if res := obs.Call("post", map[string]any{"text": "Let me in."}); !res.IsError {
		t.Errorf("the debate's observer posted: %s", res.Text)
	}
	if err := h.Stop(); err != nil {
		t.Fatalf("host exit: %v\n%s", err, h.Output())
	}
}

// TestHostRefusesSeatOfDebate: a seat's token of a debate (one found in
// its tokens.json, written before the room held a debate) is refused at
// initialize with a sentence saying the debate is watch-only and how to
// watch it; --rotate lead on a debate is a usage error saying the same.
func TestHostRefusesSeatOfDebate(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "panel", 3)
	// The room becomes a debate under the same tokens.json.
	cfgPath := filepath.Join(cwd, ".roundtable", "panel", "room.json")
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["mode"], cfg["agents"], cfg["rounds"] = room.ModeDebate, []string{"Ada", "Linus"}, 1
	if data, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}

	h := hosttest.Start(t, "--room", "panel", "--cwd", cwd)
	for _, g := range []string{room.GrantLead, room.GrantPeer} {
		code, _, body := rawPost(t, h.URL, "Bearer "+toks[g], "", strings.NewReader(initBody))
		if code == http.StatusOK && !strings.Contains(body, `"error"`) || !strings.Contains(body, "persona debate") || !strings.Contains(body, "roundtable watch --url") {
			t.Errorf("initialize with the %s token of a debate: %d %s; want it refused saying the debate is watch-only", g, code, body)
		}
	}
	obs := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantObserver], hosttest.ProtoModern)
	if r := obs.Call("observe_room", map[string]any{"wait_seconds": 0}); r.IsError {
		t.Errorf("the debate's observer: %s", r.Text)
	}
	if err := h.Stop(); err != nil {
		t.Fatalf("host exit: %v\n%s", err, h.Output())
	}

	res, err := exec.Command(hosttest.Binary(), "host", "--room", "panel", "--cwd", cwd, "--rotate", "lead").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(res), "persona debate") || !strings.Contains(string(res), "roundtable watch --url") {
		t.Errorf("--rotate lead on a debate: %v\n%s; want exit 2 saying it is watch-only", err, res)
	}
}
