package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// The host tried as an attacker would, against the built binary, all on
// loopback. Each attacker speaks from its own loopback address (127.0.0.2
// and up; Linux routes all of 127/8 to lo), so the limiter's count of
// the user's address, 127.0.0.1, shows what the attack cost the user.

// addrClient is an HTTP client whose connections come from the loopback
// address local. Each request may open its own connection.
func addrClient(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 10 * time.Second}
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			DialContext:         d.DialContext,
			MaxIdleConnsPerHost: 256,
		},
	}
}

// hreq is one request to the host.
type hreq struct {
	method string
	header map[string]string
	body   string
}

// do sends q to u with c and returns the status, the headers and the body.
func do(t testing.TB, c *http.Client, u string, q hreq) (int, http.Header, string) {
	t.Helper()
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	method := q.method
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for k, v := range q.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, res.Header, string(b)
}

// initSession starts a raw MCP session (2025-06-18) with token from c and
// returns its ID.
func initSession(t testing.TB, c *http.Client, u, token string) string {
	t.Helper()
	code, hdr, body := do(t, c, u, hreq{header: map[string]string{"Authorization": "Bearer " + token}, body: initBody})
	id := hdr.Get("Mcp-Session-Id")
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: HTTP %d %s", code, body)
	}
	return id
}

// inSession is a request header of session id with token.
func inSession(token, id string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
}

const listBody = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`

// rpcText is the isError flag and first text of a tool call's reply,
// sent as JSON or as one SSE event.
func rpcText(body string) (bool, string) {
	if i := strings.Index(body, "data: "); i >= 0 {
		body = body[i+len("data: "):]
	}
	var reply struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(body)), &reply) != nil || len(reply.Result.Content) == 0 {
		return false, ""
	}
	return reply.Result.IsError, reply.Result.Content[0].Text
}

// startPlainHost is hosttest.Start with the binary built without the race
// detector, whose shadow memory would swamp what is measured.
func startPlainHost(t testing.TB, args ...string) *hosttest.Proc {
	t.Helper()
	return hosttest.StartBin(t, hosttest.PlainBinary(t), args...)
}

// wrongToken is a well-formed token of no room.
var wrongToken = room.TokenPrefix + strings.Repeat("A", 43)

// burst fires n requests at once from c and counts the statuses; it
// returns them and how long the burst took.
func burst(t testing.TB, c *http.Client, u string, n int, q hreq) (map[int]int, time.Duration) {
	t.Helper()
	var mu sync.Mutex
	codes := map[int]int{}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			code, _, _ := do(t, c, u, q)
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	return codes, time.Since(t0)
}

// procStatus reads a field of /proc/pid/status in kB.
func procStatus(t testing.TB, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}

// resetPeak sets pid's peak RSS (VmHWM) to its RSS now.
func resetPeak(t testing.TB, pid int) {
	t.Helper()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		t.Fatalf("reset the host's peak RSS: %v", err)
	}
}

// heldBodies opens n connections from local to the host at u, each
// sending a POST with no Authorization that announces 1 MiB and sends
// all but its last byte, then holding. It returns the first status line
// word of each answer ("" when none came) once every connection has sent
// its body or been closed, and the connections, still open.
func heldBodies(t testing.TB, u, local string, n int) ([]string, []net.Conn) {
	t.Helper()
	pu, _ := url.Parse(u)
	const size = 1 << 20
	head := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", pu.Host, size)
	body := make([]byte, size-1)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 10 * time.Second}
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := d.Dial("tcp", pu.Host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		_ = c.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, head); err == nil {
			_, _ = c.Write(body) // a host that closes early cuts this short
		}
	}
	codes := make([]string, n)
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		if f := strings.Fields(line); len(f) > 1 {
			codes[i] = f[1]
		}
	}
	return codes, conns
}

// TestHostHeldBodies: 400 connections from one address, with no token,
// each sending a 1 MiB body but its last byte and holding, cost the host
// at most 8 MB (its peak RSS, from /proc); they are refused without their
// bodies being read, count against their address (its next request gets
// 429, not 401), and the user's agent at another address goes on.
func TestHostHeldBodies(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "held", 3)
	h := startPlainHost(t, "--room", "held", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	if r := lead.Call("room_status", nil); r.JSON["room"] != "held" {
		t.Fatalf("before: %s", r.Text)
	}
	pid := h.Cmd.Process.Pid
	resetPeak(t, pid)
	before := procStatus(t, pid, "VmRSS")
	codes, conns := heldBodies(t, h.URL, "127.0.0.2", 400)
	peak := procStatus(t, pid, "VmHWM")
	for _, c := range conns {
		c.Close()
	}
	counts := map[string]int{}
	for _, c := range codes {
		counts[c]++
	}
	t.Logf("RSS before %d kB, peak during %d kB; answers %v", before, peak, counts)
	if cost := peak - before; cost > 8<<10 {
		t.Fatalf("400 held bodies cost the host %d kB, over 8 MB (answers %v)", cost, counts)
	}
	if counts["401"] > 20+1 || counts["401"]+counts["429"] != 400 {
		t.Fatalf("answers %v: want at most 21 × 401 and the rest 429", counts)
	}
	code, _, body := do(t, addrClient("127.0.0.2"), h.URL, hreq{body: initBody})
	if code != http.StatusTooManyRequests || !strings.Contains(body, "wrong or missing bearer token") {
		t.Fatalf("the attacker's next request: HTTP %d %s, want 429", code, body)
	}
	if r := lead.Call("room_status", nil); r.JSON["room"] != "held" {
		t.Fatalf("the user's agent after the attack: %s", r.Text)
	}
}

// checkFlood checks a flood's statuses: at most the budget's 20 plus one
// a second of it answered 401, the rest 429.
func checkFlood(t *testing.T, what string, codes map[int]int, n int, took time.Duration) {
	t.Helper()
	allowed := 20 + int(math.Ceil(took.Seconds()))
	t.Logf("%s: %v in %s", what, codes, took)
	if codes[401] > allowed || codes[401]+codes[429] != n {
		t.Fatalf("%s: %v in %s, want at most %d × 401 and the rest 429", what, codes, took, allowed)
	}
}

// wave sends n requests from local to the host at u that all reach the
// host before any is finished: each connection sends its headers and all
// of its body but the last byte, and once every one has, the last bytes
// go. It returns the statuses ("" when none came).
func wave(t testing.TB, u, local string, n int, header map[string]string, body string) map[string]int {
	t.Helper()
	pu, _ := url.Parse(u)
	var head strings.Builder
	fmt.Fprintf(&head, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n", pu.Host, len(body))
	for k, v := range header {
		fmt.Fprintf(&head, "%s: %s\r\n", k, v)
	}
	head.WriteString("\r\n")
	first := head.String() + body[:len(body)-1]
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 10 * time.Second}
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := d.Dial("tcp", pu.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
		_ = c.SetDeadline(time.Now().Add(20 * time.Second))
		_, _ = io.WriteString(c, first)
	}
	for _, c := range conns {
		_, _ = io.WriteString(c, body[len(body)-1:]) // a host that answered already may have closed
	}
	codes := map[string]int{}
	for _, c := range conns {
		line, _ := bufio.NewReader(c).ReadString('\n')
		code := ""
		if f := strings.Fields(line); len(f) > 1 {
			code = f[1]
		}
		codes[code]++
	}
	return codes
}

// TestHostWrongTokenWaves: four waves of 200 wrong-token requests from
// one address, each wave reaching the host at once: at most 20 plus one a
// second of them are checked (401), the rest refused (429), since each
// reserves its slot when it starts.
func TestHostWrongTokenWaves(t *testing.T) {
	cwd := t.TempDir()
	issueTokens(t, cwd, "waves", 3)
	h := hosttest.Start(t, "--room", "waves", "--cwd", cwd)
	all := map[int]int{}
	t0 := time.Now()
	for range 4 {
		for code, n := range wave(t, h.URL, "127.0.0.3", 200, map[string]string{"Authorization": "Bearer " + wrongToken}, initBody) {
			c, _ := strconv.Atoi(code)
			all[c] += n
		}
	}
	checkFlood(t, "4 × 200 wrong tokens", all, 800, time.Since(t0))
}

// TestHostSessionIDBypass: a session ID the host issued does not let
// wrong tokens past the limiter: an observer's own session ID with 300
// wrong tokens gets at most 20 plus one a second 401s, the rest 429,
// while the observer, with its own token, goes on.
func TestHostSessionIDBypass(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "bypass", 3)
	h := hosttest.Start(t, "--room", "bypass", "--cwd", cwd)
	c := addrClient("127.0.0.4")
	obs := toks[room.GrantObserver]
	id := initSession(t, c, h.URL, obs)
	codes, took := burst(t, c, h.URL, 300, hreq{header: inSession(wrongToken, id), body: listBody})
	checkFlood(t, "300 wrong tokens with a seated session's ID", codes, 300, took)
	code, _, body := do(t, c, h.URL, hreq{header: inSession(obs, id), body: listBody})
	if code != http.StatusOK || !strings.Contains(body, "observe_room") {
		t.Fatalf("the observer's own session after the flood: HTTP %d %s", code, body)
	}
	// Another seat's token with the observer's session ID is a failure
	// too, not a pass.
	code, _, _ = do(t, c, h.URL, hreq{header: inSession(toks[room.GrantLead], id), body: listBody})
	if code != http.StatusTooManyRequests {
		t.Fatalf("another token with the observer's session ID from a blocked address: HTTP %d, want 429", code)
	}
}

// TestHostCrossSiteOrigin: what a web page in the user's browser can send
// to a loopback host (a text/plain POST with its Origin, an image's GET)
// is refused 403 with a sentence and not counted against the user's
// address: the user's agents, seated or new, are unaffected. An origin
// named with --allow-origin passes.
func TestHostCrossSiteOrigin(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "xsite", 3)
	h := hosttest.Start(t, "--room", "xsite", "--cwd", cwd, "--allow-origin", "https://App.example.com:443")
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	page := addrClient("127.0.0.1") // the browser, at the user's address
	post := hreq{header: map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}, body: initBody}
	image := hreq{method: http.MethodGet, header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"}}
	for i := range 60 {
		q := post
		if i%2 == 1 {
			q = image
		}
		code, _, body := do(t, page, h.URL, q)
		if code != http.StatusForbidden || !strings.Contains(body, "web pages are refused") {
			t.Fatalf("cross-site request %d: HTTP %d %s, want 403 saying why", i, code, body)
		}
	}
	// A right token from a page is refused all the same.
	code, _, body := do(t, page, h.URL, hreq{header: map[string]string{"Origin": "null", "Authorization": "Bearer " + toks[room.GrantLead]}, body: initBody})
	if code != http.StatusForbidden || !strings.Contains(body, "--allow-origin") {
		t.Fatalf("a page with the right token: HTTP %d %s, want 403 naming --allow-origin", code, body)
	}
	// Nothing counted: the seated agent and a new one go on, and a
	// request without a token is still a 401, not a 429.
	if r := lead.Call("room_status", nil); r.JSON["room"] != "xsite" {
		t.Fatalf("the seated agent: %s", r.Text)
	}
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	if r := peer.Call("room_status", nil); r.JSON["room"] != "xsite" {
		t.Fatalf("a new agent: %s", r.Text)
	}
	if code, _, body := do(t, page, h.URL, hreq{body: initBody}); code != http.StatusUnauthorized {
		t.Fatalf("no token after the page's requests: HTTP %d %s, want 401", code, body)
	}
	// The allowed origin, as a browser sends it.
	code, _, body = do(t, page, h.URL, hreq{header: map[string]string{"Origin": "https://app.example.com", "Authorization": "Bearer " + toks[room.GrantObserver]}, body: initBody})
	if code != http.StatusOK {
		t.Fatalf("the allowed origin: HTTP %d %s", code, body)
	}
	// A bad --allow-origin is refused saying what form to give.
	_, stderr, exit := hosttest.Run(t, "host", "--room", "xsite", "--cwd", cwd, "--listen", "127.0.0.1:0", "--allow-origin", "app.example.com/path")
	if exit == 0 || !strings.Contains(stderr, "scheme://host[:port]") {
		t.Fatalf("a bad --allow-origin: exit %d %s", exit, stderr)
	}
}

// TestHostDNSRebinding: on a loopback listen a Host header that is not a
// loopback name (a page that had its own name resolve to 127.0.0.1) gets
// 403 with the right token; loopback names, with or without a port, and
// --url's host pass.
func TestHostDNSRebinding(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "rebind", 3)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	hosttest.Start(t, "--room", "rebind", "--cwd", cwd, "--listen", addr, "--url", "https://rooms.example.net:9443/mcp")
	u := "http://" + addr + "/mcp"
	c := addrClient("127.0.0.1")
	auth := "Bearer " + toks[room.GrantObserver]
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1.evil.example:" + port, "localhost.evil.example", "[::2]:" + port} {
		code, _, body := do(t, c, u, hreq{header: map[string]string{"Host": host, "Authorization": auth}, body: initBody})
		if code != http.StatusForbidden || !strings.Contains(body, "DNS rebinding") {
			t.Fatalf("Host %s: HTTP %d %s, want 403", host, code, body)
		}
	}
	for _, host := range []string{"localhost:" + port, "LOCALHOST", "127.0.0.1:" + port, "127.1.2.3", "[::1]:" + port, "rooms.example.net:9443"} {
		code, _, body := do(t, c, u, hreq{header: map[string]string{"Host": host, "Authorization": auth}, body: initBody})
		if code != http.StatusOK {
			t.Fatalf("Host %s: HTTP %d %s, want 200", host, code, body)
		}
	}
}

// TestHostSessionAndStreamCaps: one token holds at most 64 sessions (the
// 65th is refused saying so, another token is not affected, and a session
// ended makes room); a GET or DELETE of a session the host never issued is
// 404; a session has one event stream, and it ends when the session does.
func TestHostSessionAndStreamCaps(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "caps", 3)
	h := hosttest.Start(t, "--room", "caps", "--cwd", cwd, "--rate-limit", "1000")
	c := addrClient("127.0.0.5")
	obs := toks[room.GrantObserver]
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = initSession(t, c, h.URL, obs)
	}
	code, _, body := do(t, c, h.URL, hreq{header: map[string]string{"Authorization": "Bearer " + obs}, body: initBody})
	if code != http.StatusTooManyRequests || !strings.Contains(body, "64 sessions") {
		t.Fatalf("the 65th session of a token: HTTP %d %s, want 429 naming the cap", code, body)
	}
	lead := initSession(t, c, h.URL, toks[room.GrantLead])
	if code, _, body := do(t, c, h.URL, hreq{method: http.MethodDelete, header: inSession(obs, ids[0])}); code != http.StatusOK {
		t.Fatalf("DELETE a session: HTTP %d %s", code, body)
	}
	initSession(t, c, h.URL, obs) // the ended session made room

	never := "rt-" + strings.Repeat("0", 32)
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		code, _, body := do(t, c, h.URL, hreq{method: m, header: inSession(obs, never)})
		if code != http.StatusNotFound || !strings.Contains(body, "initialize a new session") {
			t.Fatalf("%s of a session never issued: HTTP %d %s, want 404", m, code, body)
		}
	}
	code, _, body = do(t, c, h.URL, hreq{method: http.MethodGet, header: map[string]string{"Authorization": "Bearer " + obs, "Mcp-Protocol-Version": "2025-06-18"}})
	if code != http.StatusBadRequest || !strings.Contains(body, "Mcp-Session-Id") {
		t.Fatalf("GET without a session: HTTP %d %s, want 400", code, body)
	}

	// One stream a session; it ends when its session is deleted.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.URL, nil)
	for k, v := range inSession(toks[room.GrantLead], lead) {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := c.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the session's stream: %v %v", err, res)
	}
	defer res.Body.Close()
	code, _, body = do(t, c, h.URL, hreq{method: http.MethodGet, header: inSession(toks[room.GrantLead], lead)})
	if code != http.StatusConflict || !strings.Contains(body, "already has its event stream") {
		t.Fatalf("a second stream of a session: HTTP %d %s, want 409", code, body)
	}
	if code, _, body := do(t, c, h.URL, hreq{method: http.MethodDelete, header: inSession(toks[room.GrantLead], lead)}); code != http.StatusOK {
		t.Fatalf("DELETE the streaming session: HTTP %d %s", code, body)
	}
	if _, err := io.Copy(io.Discard, res.Body); ctx.Err() != nil {
		t.Fatalf("the stream of a deleted session was still open 30 s on (%v)", err)
	}
}

// TestHostWaitCap: one token parks at most 32 wait_for_message calls: of
// 40 sent at once (each waiting 20 s), 8 are refused at once as tool
// errors saying so, and 32 return idle.
func TestHostWaitCap(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "waits", 3)
	h := hosttest.Start(t, "--room", "waits", "--cwd", cwd, "--rate-limit", "1000")
	c := addrClient("127.0.0.6")
	obs := toks[room.GrantObserver]
	id := initSession(t, c, h.URL, obs)
	var mu sync.Mutex
	var refused, idle, other int
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wait_for_message","arguments":{"timeout_seconds":20}}}`, 10+i)
			code, _, b := do(t, c, h.URL, hreq{header: inSession(obs, id), body: body})
			isError, text := rpcText(b)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case code == http.StatusOK && isError && strings.Contains(text, "32 wait_for_message calls waiting"):
				refused++
			case code == http.StatusOK && strings.Contains(text, `"idle": true`):
				idle++
			default:
				other++
				t.Logf("wait %d: HTTP %d %.300s", i, code, b)
			}
		}()
	}
	wg.Wait()
	if refused != 8 || idle != 32 || other != 0 {
		t.Fatalf("40 waits at once: %d refused, %d idle, %d other; want 8, 32, 0", refused, idle, other)
	}
}

// TestHostCutOffRequests: connections that send part of a request and go
// (or are cut off by the header timeout) fail before their token is
// checked, and count against their address like wrong tokens: after 21 of
// them the address's new sessions are refused 429 until its bucket refills,
// while the right token from another address gets in.
func TestHostCutOffRequests(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "cutoff", 3)
	h := hosttest.Start(t, "--room", "cutoff", "--cwd", cwd)
	pu, _ := url.Parse(h.URL)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.7")}, Timeout: 10 * time.Second}
	for range 21 {
		c, err := d.Dial("tcp", pu.Host)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+pu.Host+"\r\nContent-Le")
		c.Close()
	}
	// A right token does not spend from the bucket: probe with it until
	// the host has counted the closed connections.
	c := addrClient("127.0.0.7")
	lead := map[string]string{"Authorization": "Bearer " + toks[room.GrantLead]}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for range 100 {
		code, _, body := do(t, c, h.URL, hreq{header: lead, body: ping})
		if code == http.StatusTooManyRequests && strings.Contains(body, "wrong or missing bearer token") {
			if code, _, body := do(t, addrClient("127.0.0.8"), h.URL, hreq{header: lead, body: initBody}); code != http.StatusOK {
				t.Fatalf("another address: HTTP %d %s", code, body)
			}
			return
		}
		if code == http.StatusUnauthorized || code == http.StatusTooManyRequests {
			t.Fatalf("probe: HTTP %d %s", code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("21 requests cut off before their token were not counted against their address")
}
