package host_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestHostConversationToClosure: two seats over HTTP, through the host,
// from the brief to the close, with the official Go SDK as the client: the
// lead with an MCP session (the protocol agents' CLIs speak), the peer with
// the newest protocol (no session).
func TestHostConversationToClosure(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "cache", 3)
	h := hosttest.Start(t, "--room", "cache", "--cwd", cwd)
	if strings.Contains(h.Output(), toks[room.GrantPeer]) {
		t.Fatal("a token issued before was printed again")
	}
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoModern)

	if lt, pt := lead.Tools(), peer.Tools(); !slices.Contains(lt, "close_room") || slices.Contains(pt, "close_room") ||
		slices.Contains(pt, "write_spec") || slices.Contains(lt, "observe_room") {
		t.Fatalf("tool lists: lead %v, peer %v", lt, pt)
	}
	st := lead.Call("room_status", nil)
	if st.JSON["you_are"] != "lead" || st.JSON["your_turn"] != true {
		t.Fatalf("lead status: %s", st.Text)
	}
	parked := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	time.Sleep(300 * time.Millisecond)
	if r := lead.Call("post", map[string]any{"text": "Write-through, because reads dominate.", "kind": "brief"}); r.IsError {
		t.Fatalf("lead post: %s", r.Text)
	}
	if woke := <-parked; !strings.HasPrefix(hosttest.FirstMessageText(woke), "Write-through") {
		t.Fatalf("peer did not wake on the post: %s", woke.Text)
	}
	if r := lead.Call("post", map[string]any{"text": "twice"}); !r.IsError || !strings.Contains(r.Text, "turn") {
		t.Fatalf("lead posted out of turn: %s", r.Text)
	}
	peer.Call("post", map[string]any{"text": "No: writes dominate at src/cache.go:88.", "kind": "objection"})
	if w := lead.Call("wait_for_message", map[string]any{"timeout_seconds": 5}); !strings.HasPrefix(hosttest.FirstMessageText(w), "No: writes") {
		t.Fatalf("lead wait: %s", w.Text)
	}
	if r := peer.Call("write_spec", map[string]any{"text": "# nope"}); !r.IsError {
		t.Fatalf("peer wrote the spec: %s", r.Text)
	}
	lead.Call("post", map[string]any{"text": "Agreed: write-behind.", "kind": "decision"})
	peer.Call("post", map[string]any{"text": "Flush on commit.", "kind": "answer"})
	if r := lead.Call("write_spec", map[string]any{"text": "# Decision\n\nWrite-behind with a flush on commit.\n"}); r.IsError {
		t.Fatalf("write_spec: %s", r.Text)
	}
	closing := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	time.Sleep(300 * time.Millisecond)
	if r := lead.Call("close_room", map[string]any{"reason": "agreement reached"}); r.IsError {
		t.Fatalf("close_room: %s", r.Text)
	}
	if c := <-closing; c.JSON["closed"] != true {
		t.Fatalf("peer did not get the close: %s", c.Text)
	}
	if _, err := os.Stat(filepath.Join(cwd, "SPEC-cache.md")); err != nil {
		t.Fatal("spec not on disk:", err)
	}
	r, err := room.Open(cwd, "cache")
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, m := range s.Messages {
		seqs = append(seqs, m.Seq)
	}
	if !slices.Equal(seqs, []int{1, 2, 3, 4}) || s.Closed == nil {
		t.Fatalf("transcript %v, closed %v", seqs, s.Closed)
	}
	log := serverLog(t, cwd, "cache")
	// The lead had an MCP session, the peer (newest protocol) none: its
	// seat is its token's.
	for _, want := range []string{"connect seat=lead agent=http-test", "connect seat=peer", "transport=http remote=127.0.0.1:", "session=grant:cache/peer"} {
		if !strings.Contains(log, want) {
			t.Fatalf("server.log lacks %q:\n%s", want, log)
		}
	}
	seats, err := room.ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range seats[:2] {
		if si.Calls == 0 || !si.Connected() || si.Transport != "http" || !strings.HasPrefix(si.Remote, "127.0.0.1:") {
			t.Fatalf("seats from server.log: %+v", seats)
		}
	}
	if err := h.Stop(); err != nil {
		t.Fatalf("host exit after SIGTERM: %v", err)
	}
	if log := serverLog(t, cwd, "cache"); !strings.Contains(log, "disconnect seat=lead") || !strings.Contains(log, "why=shutdown") {
		t.Fatalf("no disconnect logged at shutdown:\n%s", log)
	}
}

// TestHostMixedRoom: a local stdio seat and a remote HTTP seat share a
// room and follow the same rules; server.log tells them apart.
func TestHostMixedRoom(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "mixed", 4)
	h := hosttest.Start(t, "--room", "mixed", "--cwd", cwd)
	lead := hosttest.StartSeat(t, cwd, "mixed", "lead") // stdio
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)

	parked := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	time.Sleep(300 * time.Millisecond)
	lead.OK("post", map[string]any{"text": "Local brief."})
	if woke := <-parked; hosttest.FirstMessageText(woke) != "Local brief." {
		t.Fatalf("HTTP peer did not wake on the stdio post: %s", woke.Text)
	}
	lead.Refused("post", map[string]any{"text": "again"}, "turn")
	if r := peer.Call("post", map[string]any{"text": "Remote reply."}); r.IsError {
		t.Fatal(r.Text)
	}
	if r := peer.Call("post", map[string]any{"text": "Remote twice."}); !r.IsError {
		t.Fatalf("HTTP peer posted out of turn: %s", r.Text)
	}
	w := lead.OK("wait_for_message", map[string]any{"timeout_seconds": 5})
	if msgs := hosttest.MessagesOf(t, w); len(msgs) != 1 || msgs[0]["text"] != "Remote reply." {
		t.Fatalf("stdio lead got %v", msgs)
	}
	var stdio, remote string
	for _, line := range strings.Split(serverLog(t, cwd, "mixed"), "\n") {
		if strings.Contains(line, " connect seat=lead") {
			stdio = line
		}
		if strings.Contains(line, " connect seat=peer") {
			remote = line
		}
	}
	if stdio == "" || strings.Contains(stdio, "transport=http") || !strings.Contains(remote, "transport=http remote=127.0.0.1:") {
		t.Fatalf("connect lines: stdio %q, http %q", stdio, remote)
	}
}

// TestHostRefusals: every way in that is not allowed is refused, and
// nothing is written.
func TestHostRefusals(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "guarded", 3)
	other := issueTokens(t, cwd, "elsewhere", 3) // a room this host does not serve
	h := hosttest.Start(t, "--room", "guarded", "--cwd", cwd)

	for name, auth := range map[string]string{
		"no token":           "",
		"wrong token":        "Bearer rt_" + strings.Repeat("A", 43),
		"not bearer":         "Basic " + toks[room.GrantLead],
		"another room's":     "Bearer " + other[room.GrantLead],
		"token with a space": "Bearer " + toks[room.GrantLead] + " x",
	} {
		code, hdr, body := rawPost(t, h.URL, auth, "", strings.NewReader(initBody))
		if code != http.StatusUnauthorized || !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: %d %q %s", name, code, hdr.Get("WWW-Authenticate"), body)
		}
	}
	// A body over 1 MiB.
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"post","arguments":{"text":"` + strings.Repeat("x", 1<<20) + `"}}}`
	if code, _, body := rawPost(t, h.URL, "Bearer "+toks[room.GrantLead], "", strings.NewReader(big)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("1 MiB body: %d %s", code, body)
	}
	// A session started with the peer's token, continued with the lead's.
	code, hdr, body := rawPost(t, h.URL, "Bearer "+toks[room.GrantPeer], "", strings.NewReader(initBody))
	sid := hdr.Get("Mcp-Session-Id")
	if code != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"post","arguments":{"text":"hijack"}}}`
	if code, _, body := rawPost(t, h.URL, "Bearer "+toks[room.GrantLead], sid, strings.NewReader(call)); code != http.StatusForbidden {
		t.Errorf("session with another token: %d %s", code, body)
	}
	if code, _, body := rawPost(t, h.URL, "Bearer "+toks[room.GrantLead], "rt-00000000000000000000000000000000", strings.NewReader(call)); code != http.StatusNotFound {
		t.Errorf("unknown session: %d %s", code, body)
	}

	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	for _, tool := range []string{"write_spec", "close_room"} {
		if r := peer.Call(tool, map[string]any{"text": "# x"}); !r.IsError {
			t.Errorf("peer %s accepted: %s", tool, r.Text)
		}
	}
	obs := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantObserver], hosttest.ProtoLegacy)
	if names := obs.Tools(); !slices.Equal(sorted(names), []string{"observe_room", "read_room", "room_status", "wait_for_message"}) {
		t.Errorf("observer's tools: %v", names)
	}
	for _, tool := range []string{"post", "write_spec", "close_room"} {
		r := obs.Call(tool, map[string]any{"text": "# x", "reason": "done"})
		if !r.IsError || !strings.Contains(r.Text, "observer") {
			t.Errorf("observer %s: %v %s", tool, r.IsError, r.Text)
		}
	}
	if r := peer.Call("observe_room", nil); !r.IsError {
		t.Errorf("peer observe_room accepted: %s", r.Text)
	}
	if files := roomFiles(t, cwd, "guarded"); len(files) != 0 {
		t.Fatalf("refused calls wrote %v", files)
	}
	if strings.Contains(serverLog(t, cwd, "guarded"), "seat=observer") {
		t.Fatal("an observer was logged as a seat")
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestHostObserver: the observer reads and waits, and observe_room hands
// out what is new since its cursor, parking while nothing is.
func TestHostObserver(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "seen", 3)
	h := hosttest.Start(t, "--room", "seen", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	obs := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantObserver], hosttest.ProtoModern)

	first := obs.Call("observe_room", map[string]any{"wait_seconds": 0})
	var snap room.Snapshot
	if err := json.Unmarshal([]byte(first.Text), &snap); err != nil || snap.Config == nil || snap.Config.Room != "seen" {
		t.Fatalf("first observe_room: %v %s", err, first.Text)
	}
	waiting := obs.CallAsync("observe_room", map[string]any{"cursor": snap.Next, "wait_seconds": 30})
	time.Sleep(300 * time.Millisecond)
	lead.Call("post", map[string]any{"text": "Seen from afar."})
	got := <-waiting
	var next room.Snapshot
	if err := json.Unmarshal([]byte(got.Text), &next); err != nil || len(next.Messages) != 1 || next.Messages[0].Text != "Seen from afar." {
		t.Fatalf("observe_room after a post: %v %s", err, got.Text)
	}
	if r := obs.Call("read_room", nil); r.IsError || len(hosttest.MessagesOf(t, r.JSON)) != 1 {
		t.Fatalf("observer read_room: %s", r.Text)
	}
	if w := obs.Call("wait_for_message", map[string]any{"timeout_seconds": 1}); w.JSON["idle"] != true {
		t.Fatalf("observer wait after reading all: %s", w.Text)
	}
	if log := serverLog(t, cwd, "seen"); !strings.Contains(log, "observer_connect grant=observer") {
		t.Fatalf("observer connect not logged:\n%s", log)
	}
}

// TestHostSessionsIsolated: two sessions of one seat each have their own
// idea of what they were shown.
func TestHostSessionsIsolated(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "twice", 3)
	h := hosttest.Start(t, "--room", "twice", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	a := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	b := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	lead.Call("post", map[string]any{"text": "one"})
	for _, s := range []*hosttest.SDKSeat{a, b} {
		if r := s.Call("read_room", nil); len(hosttest.MessagesOf(t, r.JSON)) != 1 {
			t.Fatalf("session read_room: %s", r.Text)
		}
	}
	if r := a.Call("read_room", nil); len(hosttest.MessagesOf(t, r.JSON)) != 0 {
		t.Fatalf("a session was shown a message twice: %s", r.Text)
	}
}

var tokenRe = regexp.MustCompile(`rt_[A-Za-z0-9_-]{43}`)

// TestHostPrintsTokensOnce: a room's first host prints one token per grant
// (whatever the layout of the lines around them), each opens its seat, and
// a second start prints none and says how to rotate.
func TestHostPrintsTokensOnce(t *testing.T) {
	cwd := t.TempDir()
	h := hosttest.Start(t, "--room", "fresh", "--cwd", cwd, "--topic", "printed once")
	// The rooms' tokens; the host's own starter token (web API) follows them.
	rooms, starter, _ := strings.Cut(h.Output(), "Starter token (")
	if n := len(tokenRe.FindAllString(starter, -1)); n != 1 {
		t.Fatalf("%d starter tokens printed, want 1:\n%s", n, h.Output())
	}
	found := map[string]bool{}
	for _, tok := range tokenRe.FindAllString(rooms, -1) {
		found[tok] = true
	}
	if len(found) != 3 {
		t.Fatalf("%d distinct tokens printed, want 3:\n%s", len(found), h.Output())
	}
	seats := map[string]bool{}
	for tok := range found {
		s := hosttest.ConnectHTTP(t, h.URL, tok, hosttest.ProtoModern)
		r := s.Call("room_status", nil)
		seats[r.JSON["you_are"].(string)] = true
		if r.JSON["topic"] != "printed once" {
			t.Fatalf("room_status: %s", r.Text)
		}
	}
	if !seats["lead"] || !seats["peer"] || !seats["observer"] {
		t.Fatalf("the printed tokens open %v", seats)
	}
	b, _ := os.ReadFile(filepath.Join(cwd, ".roundtable", "fresh", room.TokensFile))
	for tok := range found {
		if strings.Contains(string(b), tok) {
			t.Fatal("tokens.json holds a plain token")
		}
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	again := hosttest.Start(t, "--room", "fresh", "--cwd", cwd)
	if out, _, _ := strings.Cut(again.Output(), "Starter token ("); tokenRe.MatchString(out) || !strings.Contains(out, "--rotate") {
		t.Fatalf("second start:\n%s", out)
	}
}
