package host

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestQuietSeatShownFree: a seat's client that goes away without ending
// its HTTP session (opencode does) has its seat shown free once the
// session is quiet for SeatQuiet (no request, no call in flight, no event
// stream open), with a disconnect line saying why; the session lives on,
// and its next call takes the seat again. A session whose event stream
// is open is there, however long it sends nothing.
func TestQuietSeatShownFree(t *testing.T) {
	_, srv, toks, r := testHost(t, Options{SeatQuiet: 300 * time.Millisecond})
	held := func(seat string) bool { return room.SeatHolder(r.Dir(), seat).Live }
	until := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("not within 10 s: %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	status := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"room_status","arguments":{}}}`

	res := post(t, srv.URL, toks[room.GrantPeer], "", initReq)
	peer := res.Header.Get("Mcp-Session-Id")
	if res := post(t, srv.URL, toks[room.GrantPeer], peer, status); res.StatusCode != http.StatusOK {
		t.Fatalf("room_status: HTTP %d", res.StatusCode)
	}
	if !held("peer") {
		t.Fatal("the peer is not held after its call")
	}
	until("the quiet peer's seat shown free", func() bool { return !held("peer") })
	log, _ := os.ReadFile(filepath.Join(r.Dir(), room.LogFile))
	if !strings.Contains(string(log), "disconnect seat=peer") || !strings.Contains(string(log), "why=quiet") {
		t.Fatalf("no quiet disconnect in server.log:\n%s", log)
	}
	if res := post(t, srv.URL, toks[room.GrantPeer], peer, status); res.StatusCode != http.StatusOK {
		t.Fatalf("the quiet session's next call: HTTP %d", res.StatusCode)
	}
	if !held("peer") {
		t.Fatal("the session's next call did not take its seat again")
	}

	// The lead keeps its event stream open: it stays held.
	res = post(t, srv.URL, toks[room.GrantLead], "", initReq)
	lead := res.Header.Get("Mcp-Session-Id")
	if res := post(t, srv.URL, toks[room.GrantLead], lead, status); res.StatusCode != http.StatusOK {
		t.Fatalf("the lead's room_status: HTTP %d", res.StatusCode)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+EndpointPath, nil)
	req.Header.Set("Authorization", "Bearer "+toks[room.GrantLead])
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", lead)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("the lead's stream: %v %v", err, stream)
	}
	go func() { _, _ = bufio.NewReader(stream.Body).ReadString(0) }()
	// The peer, quiet again, goes free meanwhile: the clock runs for both.
	until("the peer, quiet again, shown free", func() bool { return !held("peer") })
	if !held("lead") {
		t.Fatal("the lead, its event stream open, was shown free")
	}
	cancel()
	stream.Body.Close()
	until("the lead shown free once its stream closed", func() bool { return !held("lead") })
}

// TestAgentCLITakesSeatOnCall: a coding agent's CLI (named so in
// initialize) takes its seat with its first tool call, not at initialize
// nor when it lists the tools: one started where both seats' entries are
// registered opens a session for each, and the seat it does not play
// stays free for its own agent.
func TestAgentCLITakesSeatOnCall(t *testing.T) {
	_, srv, toks, r := testHost(t, Options{})
	held := func(seat string) bool { return room.SeatHolder(r.Dir(), seat).Live }
	init := strings.Replace(initReq, `"name":"t"`, `"name":"opencode"`, 1)
	sessions := map[string]string{}
	for _, seat := range []string{room.GrantLead, room.GrantPeer} {
		res := post(t, srv.URL, toks[seat], "", init)
		sessions[seat] = res.Header.Get("Mcp-Session-Id")
		if res.StatusCode != http.StatusOK || sessions[seat] == "" {
			t.Fatalf("initialize %s: HTTP %d", seat, res.StatusCode)
		}
		if res := post(t, srv.URL, toks[seat], sessions[seat], `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); res.StatusCode != http.StatusOK {
			t.Fatalf("tools/list %s: HTTP %d", seat, res.StatusCode)
		}
	}
	if held("lead") || held("peer") {
		t.Fatalf("an agent CLI's session took its seat before calling a tool: lead %v, peer %v", held("lead"), held("peer"))
	}
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"room_status","arguments":{}}}`
	if res := post(t, srv.URL, toks[room.GrantLead], sessions[room.GrantLead], call); res.StatusCode != http.StatusOK {
		t.Fatalf("room_status: HTTP %d", res.StatusCode)
	}
	if !held("lead") || held("peer") {
		t.Fatalf("after the lead's call: lead %v, peer %v; want the lead alone", held("lead"), held("peer"))
	}
}

// TestOneAgentOneSeatOverHTTP: an agent CLI whose sessions for the lead
// and the peer came over one connection (one process: Node's fetch pools
// a host's connections across its MCP servers) takes the seat it calls
// first and is refused the other, told which it plays; an agent on
// connections of its own takes the other seat.
func TestOneAgentOneSeatOverHTTP(t *testing.T) {
	// Served as roundtable host serves: its connections counted and named.
	h, addr, toks := servedHost(t, Options{}, nil)
	r := h.services["conns"].room
	srv := struct{ URL string }{"http://" + addr}
	held := func(seat string) bool { return room.SeatHolder(r.Dir(), seat).Live }
	init := strings.Replace(initReq, `"name":"t"`, `"name":"claude-code"`, 1)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"room_status","arguments":{}}}`
	// One client, one connection at a time: the agent's process.
	one := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	send := func(c *http.Client, seat, session, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+toks[seat])
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	sessions := map[string]string{}
	for _, seat := range []string{room.GrantLead, room.GrantPeer} {
		res, _ := send(one, seat, "", init)
		if sessions[seat] = res.Header.Get("Mcp-Session-Id"); res.StatusCode != http.StatusOK || sessions[seat] == "" {
			t.Fatalf("initialize %s: HTTP %d", seat, res.StatusCode)
		}
	}
	if _, body := send(one, room.GrantLead, sessions[room.GrantLead], call); strings.Contains(body, `"isError":true`) || !held("lead") {
		t.Fatalf("the lead's first call: %s (lead held %v)", body, held("lead"))
	}
	_, body := send(one, room.GrantPeer, sessions[room.GrantPeer], call)
	if !strings.Contains(body, "already plays the lead seat") || held("peer") {
		t.Fatalf("the same agent's call of the peer's tools: %s (peer held %v); want it refused", body, held("peer"))
	}
	// Another agent, on its own connection, plays the peer.
	other := &http.Client{Transport: &http.Transport{}}
	res, _ := send(other, room.GrantPeer, "", init)
	peer := res.Header.Get("Mcp-Session-Id")
	if _, body := send(other, room.GrantPeer, peer, call); strings.Contains(body, "already plays") || !held("peer") {
		t.Fatalf("another agent's call of the peer's tools: %s (peer held %v)", body, held("peer"))
	}
	log, _ := os.ReadFile(filepath.Join(r.Dir(), room.LogFile))
	if !strings.Contains(string(log), "seat_refused refused=peer plays=lead") {
		t.Errorf("server.log does not say why the peer was refused:\n%s", log)
	}
}
