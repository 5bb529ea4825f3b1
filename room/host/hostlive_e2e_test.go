package host_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

var (
	grantHeading = regexp.MustCompile(`^  (lead|peer) seat$|^  (observer) \(`)
	tokenLine    = regexp.MustCompile(`^    token\s+(rt_\S+)$`)
)

// printedTokens reads, from a host's output, the tokens printed for room
// name: the block from "Room NAME: new tokens" up to the line that says
// the host serves it, by grant.
func printedTokens(t *testing.T, out, name string) map[string]string {
	t.Helper()
	start := strings.Index(out, "Room "+name+": new tokens, shown this once")
	end := strings.Index(out, "roundtable host: now also serving "+name+"\n")
	if start < 0 || end < start {
		t.Fatalf("no tokens of room %s printed before it was served:\n%s", name, out)
	}
	toks := map[string]string{}
	grant := ""
	sc := bufio.NewScanner(strings.NewReader(out[start:end]))
	for sc.Scan() {
		line := sc.Text()
		if m := grantHeading.FindStringSubmatch(line); m != nil {
			grant = m[1] + m[2]
		}
		if m := tokenLine.FindStringSubmatch(line); m != nil && grant != "" {
			toks[grant] = m[1]
		}
	}
	if len(toks) != 3 {
		t.Fatalf("room %s: %d tokens printed, want 3:\n%s", name, len(toks), out[start:end])
	}
	return toks
}

// TestHostAllServesRoomsCreatedWhileRunning: `roundtable host --all` (the
// built binary) serves a room created under --cwd after it started: it
// prints the room's tokens with the lines to connect, as at start-up, then
// says it serves the room; the printed lead token connects (the official
// Go SDK's client), posts, and the message lands in the new room's files;
// the observer token of the new room reads but may not post; the rooms
// found at start-up keep working. Once the new room is deleted, its token
// gets 410 Gone saying what to do, and the host stops gracefully.
func TestHostAllServesRoomsCreatedWhileRunning(t *testing.T) {
	cwd := t.TempDir()
	firstToks := issueTokens(t, cwd, "first", 3)
	h := hosttest.Start(t, "--all", "--cwd", cwd)
	if strings.Contains(h.Output(), "second") {
		t.Fatalf("the host names a room that does not exist yet:\n%s", h.Output())
	}

	if _, _, err := room.Create(cwd, "second", room.CreateOptions{Topic: "Which queue", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	out := h.WaitOutput("roundtable host: now also serving second\n")
	toks := printedTokens(t, out, "second")
	block := out[strings.Index(out, "Room second: new tokens"):]
	for _, want := range []string{
		"claude mcp add --transport http roundtable-second-lead " + h.URL, "codex mcp add roundtable-second-peer --url " + h.URL,
		"ROUNDTABLE_TOKEN=" + toks[room.GrantObserver] + " roundtable watch --url " + strings.TrimSuffix(h.URL, "/mcp"),
	} {
		if !strings.Contains(block, want) {
			t.Fatalf("the new room's printout lacks %q:\n%s", want, block)
		}
	}

	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	if st := lead.Call("room_status", nil); st.JSON["you_are"] != "lead" || st.JSON["room"] != "second" {
		t.Fatalf("the new room's lead status: %s", st.Text)
	}
	if r := lead.Call("post", map[string]any{"text": "A queue per tenant.", "kind": "brief"}); r.IsError {
		t.Fatalf("post in the new room: %s", r.Text)
	}
	r, err := room.Open(cwd, "second")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 1 || st.Messages[0].Text != "A queue per tenant." || st.Messages[0].Seat != "lead" {
		t.Fatalf("the new room's messages: %+v", st.Messages)
	}
	if log := serverLog(t, cwd, "second"); !strings.Contains(log, "transport=http") {
		t.Fatalf("the new room's server.log has no HTTP connect:\n%s", log)
	}
	obs := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantObserver], hosttest.ProtoLegacy)
	if rr := obs.Call("read_room", nil); rr.IsError || !strings.Contains(rr.Text, "A queue per tenant.") {
		t.Fatalf("the new room's observer read: %s", rr.Text)
	}
	if p := obs.Call("post", map[string]any{"text": "x"}); !p.IsError {
		t.Fatalf("the new room's observer posted: %s", p.Text)
	}
	first := hosttest.ConnectHTTP(t, h.URL, firstToks[room.GrantPeer], hosttest.ProtoLegacy)
	if st := first.Call("room_status", nil); st.JSON["room"] != "first" {
		t.Fatalf("the start-up room after a room was added: %s", st.Text)
	}

	// Deleted while hosted: a clear refusal, and the host stays up.
	if err := os.RemoveAll(filepath.Join(cwd, ".roundtable", "second")); err != nil {
		t.Fatal(err)
	}
	code, _, body := rawPost(t, h.URL, "Bearer "+toks[room.GrantPeer], "", strings.NewReader(initBody))
	if code != http.StatusOK || !strings.Contains(body, `room \"second\" was deleted or renamed while this host served it`) {
		t.Fatalf("the deleted room's token: %d %q; want a JSON-RPC error saying the room is gone", code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err = lead.Session.CallTool(ctx, &sdk.CallToolParams{Name: "room_status"})
	if err == nil || !strings.Contains(err.Error(), `room "second" was deleted or renamed`) || !strings.Contains(err.Error(), "ask the room's host") {
		t.Fatalf("a session of the deleted room: %v; want the call refused saying the room is gone and what to do", err)
	}
	if st := first.Call("room_status", nil); st.JSON["room"] != "first" {
		t.Fatalf("the start-up room after a room was deleted: %s", st.Text)
	}
	if err := h.Stop(); err != nil {
		t.Fatalf("host exit: %v\n%s", err, h.Output())
	}
	if !strings.HasSuffix(h.Output(), "roundtable host: stopped\n") {
		t.Fatalf("no graceful stop:\n%s", h.Output())
	}
}

// TestHostAllWaitsForHalfCreatedRoom: a room folder without its room.json
// yet is not served and not given up on: once its room.json is written the
// host serves it. A persona debate created meanwhile is served watch-only:
// its observer's token alone.
func TestHostAllWaitsForHalfCreatedRoom(t *testing.T) {
	cwd := t.TempDir()
	issueTokens(t, cwd, "first", 3)
	h := hosttest.Start(t, "--all", "--cwd", cwd)

	half := filepath.Join(cwd, ".roundtable", "half")
	if err := os.MkdirAll(filepath.Join(half, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := room.Create(cwd, "persona", room.CreateOptions{Topic: "t", Mode: room.ModeDebate, Rounds: 2}); err != nil {
		t.Fatal(err)
	}
	// A complete room made after both: once it is served, the host has
	// looked at the half folder and the debate too.
	if _, _, err := room.Create(cwd, "marker", room.CreateOptions{Topic: "t", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	h.WaitOutput("roundtable host: now also serving persona\n")
	out := h.WaitOutput("roundtable host: now also serving marker\n")
	if strings.Contains(out, "serving half") || strings.Contains(out, "Room half") {
		t.Fatalf("the host served a half-created room:\n%s", out)
	}
	start, end := strings.Index(out, "Room persona:"), strings.Index(out, "now also serving persona")
	if start < 0 || end < start {
		t.Fatalf("no printout of the debate's token:\n%s", out)
	}
	if debate := out[start:end]; !strings.HasPrefix(debate, "Room persona: a new token") ||
		!strings.Contains(debate, "observer (a persona debate is watch-only") || strings.Contains(debate, " seat\n") {
		t.Fatalf("the debate's printout is not the observer's token alone:\n%s", debate)
	}
	if _, err := os.Stat(filepath.Join(half, room.TokensFile)); err == nil {
		t.Fatal("tokens were issued for a folder that is not a room yet")
	}

	if _, _, err := room.Create(cwd, "half", room.CreateOptions{Topic: "Finished later", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	out = h.WaitOutput("roundtable host: now also serving half\n")
	toks := printedTokens(t, out, "half")
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoModern)
	if st := peer.Call("room_status", nil); st.JSON["you_are"] != "peer" || st.JSON["room"] != "half" {
		t.Fatalf("the completed room's peer status: %s", st.Text)
	}

	// A room renamed while hosted is served under its new name with the
	// tokens it had; its old name is gone.
	markerToks := printedTokens(t, out, "marker")
	watcher := hosttest.ConnectHTTP(t, h.URL, markerToks[room.GrantObserver], hosttest.ProtoLegacy)
	if st := watcher.Call("room_status", nil); st.JSON["room"] != "marker" {
		t.Fatalf("marker's observer status: %s", st.Text)
	}
	if err := room.Rename(cwd, "marker", "renamed"); err != nil {
		t.Fatal(err)
	}
	out = h.WaitOutput("roundtable host: now also serving renamed\n")
	if !strings.Contains(out, "Room renamed: tokens issued before are not shown again") {
		t.Fatalf("the renamed room's printout:\n%s", out)
	}
	renamed := hosttest.ConnectHTTP(t, h.URL, markerToks[room.GrantLead], hosttest.ProtoLegacy)
	if st := renamed.Call("room_status", nil); st.JSON["room"] != "renamed" {
		t.Fatalf("the renamed room's lead status: %s", st.Text)
	}
	// A session begun under the old name is told to start a new one.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := watcher.Session.CallTool(ctx, &sdk.CallToolParams{Name: "room_status"})
	if err == nil || !strings.Contains(err.Error(), `room "marker" was deleted or renamed`) || !strings.Contains(err.Error(), "start a new session") {
		t.Fatalf("a session of the room's old name: %v; want the call refused saying to start a new session", err)
	}
	code, _, body := rawPost(t, h.URL, "Bearer "+markerToks[room.GrantObserver], "", strings.NewReader(initBody))
	if code != http.StatusOK {
		t.Fatalf("a new session with the renamed room's token: %d %q", code, body)
	}

	// A graceful stop treats a picked-up room as a start-up one: its
	// parked wait returns idle and its seat's disconnect is logged.
	parked := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 55})
	time.Sleep(300 * time.Millisecond)
	if err := h.Stop(); err != nil {
		t.Fatalf("host exit: %v\n%s", err, h.Output())
	}
	if w := <-parked; w.JSON["idle"] != true {
		t.Fatalf("a picked-up room's parked wait on SIGTERM: %s", w.Text)
	}
	log := serverLog(t, cwd, "half")
	for _, want := range []string{"wait_return seat=peer reason=idle", "disconnect seat=peer", "why=shutdown"} {
		if !strings.Contains(log, want) {
			t.Fatalf("the picked-up room's server.log lacks %q:\n%s", want, log)
		}
	}
}

// TestHostRoomServesOnlyItsRooms: without --all a host serves the rooms it
// was given and no room created later, whose tokens stay refused.
func TestHostRoomServesOnlyItsRooms(t *testing.T) {
	cwd := t.TempDir()
	issueTokens(t, cwd, "first", 3)
	h := hosttest.Start(t, "--room", "first", "--cwd", cwd)
	later := issueTokens(t, cwd, "later", 3)
	// Past two rescans of an --all host (room.RescanInterval).
	time.Sleep(2*room.RescanInterval + 500*time.Millisecond)
	if strings.Contains(h.Output(), "later") {
		t.Fatalf("a --room host picked up a room created later:\n%s", h.Output())
	}
	if code, _, body := rawPost(t, h.URL, "Bearer "+later[room.GrantLead], "", strings.NewReader(initBody)); code != http.StatusUnauthorized {
		t.Fatalf("a later room's token on a --room host: %d %q; want 401", code, body)
	}
	if err := h.Stop(); err != nil {
		t.Fatalf("host exit: %v\n%s", err, h.Output())
	}
}

// TestHostAllStartsWithNoRooms: `host --all` under a folder with no MCP
// room yet starts, says it serves none yet, and serves the first room
// created; --rotate with --all and no room is still refused.
func TestHostAllStartsWithNoRooms(t *testing.T) {
	cwd := t.TempDir()
	h := hosttest.Start(t, "--all", "--cwd", cwd)
	if out := h.Output(); !strings.Contains(out, "serving no rooms yet (each room created under "+cwd+" is served as it appears)") {
		t.Fatalf("the empty host's first lines:\n%s", out)
	}
	if _, _, err := room.Create(cwd, "first", room.CreateOptions{Topic: "The first room", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	out := h.WaitOutput("roundtable host: now also serving first\n")
	toks := printedTokens(t, out, "first")
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoModern)
	if st := lead.Call("room_status", nil); st.JSON["you_are"] != "lead" || st.JSON["room"] != "first" {
		t.Fatalf("the first room's lead status: %s", st.Text)
	}

	empty := t.TempDir()
	res, err := exec.Command(hosttest.Binary(), "host", "--all", "--cwd", empty, "--rotate", "peer").CombinedOutput()
	if err == nil || !strings.Contains(string(res), "there are no rooms under "+empty+" to rotate a token of") {
		t.Fatalf("--rotate with --all and no room: %v\n%s", err, res)
	}
}
