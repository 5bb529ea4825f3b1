package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// errorSentence checks a refusal's body: {"error": a sentence}.
func errorSentence(t *testing.T, what, body string) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil || len(e.Error) < 20 {
		t.Fatalf("%s: body %q is not {\"error\": a sentence}", what, body)
	}
	return e.Error
}

// TestSessionRefusals: POST /api/sessions without a token, with a room's
// observer token, or from another site's page is refused with the right
// status and a sentence, and nothing is started: no room folder, no
// child process.
func TestSessionRefusals(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--room", "plans", "--topic", "Plan the cache")
	obs := h.observerToken()
	before := roomFolders(t, cwd)
	cases := []struct {
		name, token string
		hdr         map[string]string
		code        int
		says        string
	}{
		{"no token", "", nil, http.StatusUnauthorized, "token"},
		{"observer", obs, nil, http.StatusForbidden, "starter token"},
		{"wrong token", "rt_" + strings.Repeat("A", 43), nil, http.StatusUnauthorized, "not valid"},
		{"cross-site", h.starter, map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden, "Origin"},
		{"cross-site fetch", h.starter, map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden, "another site"},
	}
	for _, c := range cases {
		code, body := h.do(http.MethodPost, "/api/sessions", c.token, contractBody, c.hdr)
		if code != c.code {
			t.Fatalf("%s: %d %s, want %d", c.name, code, body, c.code)
		}
		if msg := errorSentence(t, c.name, body); !strings.Contains(msg, c.says) {
			t.Fatalf("%s: %q does not say %q", c.name, msg, c.says)
		}
	}
	if got := roomFolders(t, cwd); !reflect.DeepEqual(got, before) {
		t.Fatalf("room folders %v after the refusals, %v before", got, before)
	}
	if kids := children(t, h.cmd.Process.Pid); len(kids) > 0 {
		t.Fatalf("the host has child processes after the refusals: %v", kids)
	}

	// The observer watches its own room and no other.
	seats := 0
	st := h.readStream("/api/sessions/plans/stream", obs, "", func(e sse) bool {
		if e.Name == "seat_state" {
			seats++
		}
		return seats == 2
	})
	if st.status != http.StatusOK || len(st.events) != 3 || string(st.events[1].Data) != `{"seat":"lead","held":false}` || string(st.events[2].Data) != `{"seat":"peer","held":false}` {
		t.Fatalf("the observer's stream of its room: %d %v", st.status, names(st.events))
	}
	var s0 payload
	_ = json.Unmarshal(st.events[0].Data, &s0)
	if s0.Topic != "Plan the cache" || !reflect.DeepEqual(s0.Agents, []string{"lead", "peer"}) || s0.Rounds != 12 {
		t.Fatalf("an MCP room's session_start: %s", st.events[0].Data)
	}
	id := h.create(contractBody) // the starter may
	if code, body := h.do(http.MethodGet, "/api/sessions/"+id+"/stream", obs, "", nil); code != http.StatusForbidden {
		t.Fatalf("an observer of another room: %d %s, want 403", code, body)
	}
	if code, body := h.do(http.MethodGet, "/api/sessions/nope/stream", h.starter, "", nil); code != http.StatusNotFound {
		t.Fatalf("an unknown room: %d %s, want 404", code, body)
	} else {
		errorSentence(t, "unknown room", body)
	}
	// The list shows each token what it may watch.
	_, body := h.do(http.MethodGet, "/api/sessions", obs, "", nil)
	if !strings.Contains(body, `"id":"plans"`) || strings.Contains(body, id) {
		t.Fatalf("the observer's list: %s", body)
	}
	_, body = h.do(http.MethodGet, "/api/sessions", h.starter, "", nil)
	if !strings.Contains(body, `"id":"plans"`) || !strings.Contains(body, `"id":"`+id+`"`) {
		t.Fatalf("the starter's list: %s", body)
	}
	if code, body := h.do(http.MethodGet, "/health", "", "", nil); code != http.StatusOK || body != `{"provider":"mock","status":"ok"}`+"\n" {
		t.Fatalf("/health: %d %q", code, body)
	}
	if code, body := h.do(http.MethodGet, "/api/sessions/plans", obs, "", nil); code != http.StatusOK || !strings.Contains(body, `"topic":"Plan the cache"`) {
		t.Fatalf("the transcript: %d %s", code, body)
	}
	// The starter token holds no seat over MCP.
	if code, _ := h.do(http.MethodPost, "/mcp", h.starter, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, nil); code != http.StatusForbidden {
		t.Fatalf("the starter token on /mcp: %d, want 403", code)
	}
}

// TestSessionValidation: bad bodies are refused, 400 for what is not
// JSON, 422 for a bad field, each with a sentence naming what to fix, and
// start nothing.
func TestSessionValidation(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	cases := []struct {
		body string
		code int
		says string
	}{
		{``, http.StatusBadRequest, "empty"},
		{`{"topic":`, http.StatusBadRequest, "not valid JSON"},
		{`[1,2]`, http.StatusUnprocessableEntity, "JSON array"},
		{`{"topic":"x"} {}`, http.StatusBadRequest, "more than one"},
		{`{"rounds":2}`, http.StatusUnprocessableEntity, "topic"},
		{`{"topic":"  "}`, http.StatusUnprocessableEntity, "topic"},
		{`{"topic":"x","rounds":"2"}`, http.StatusUnprocessableEntity, "rounds"},
		{`{"topic":"x","rounds":11}`, http.StatusUnprocessableEntity, "from 1 to 10"},
		{`{"topic":"x","agents":[]}`, http.StatusUnprocessableEntity, "agents"},
		{`{"topic":"x","agents":[{"name":"A"}]}`, http.StatusUnprocessableEntity, "description"},
		{`{"topic":"x","agents":[{"name":"A","persona":"p"},{"name":"a","persona":"q"}]}`, http.StatusUnprocessableEntity, "unique"},
		{`{"topic":"x","agents":[{"name":"A","persona":"p","provider":"openrouter"}]}`, http.StatusUnprocessableEntity, "provider"},
		{`{"topic":"x","agents":[{"name":"A","persona":"p","agent":"rm -rf"}]}`, http.StatusUnprocessableEntity, "agent"},
		{`{"topic":"x","colour":"red"}`, http.StatusUnprocessableEntity, "colour"},
	}
	for _, c := range cases {
		code, body := h.do(http.MethodPost, "/api/sessions", h.starter, c.body, nil)
		if code != c.code {
			t.Fatalf("%s: %d %s, want %d", c.body, code, body, c.code)
		}
		if msg := errorSentence(t, c.body, body); !strings.Contains(msg, c.says) {
			t.Fatalf("%s: %q does not say %q", c.body, msg, c.says)
		}
	}
	if got := roomFolders(t, cwd); len(got) > 0 {
		t.Fatalf("room folders %v after bad bodies", got)
	}
}

// TestHostStopsItsDebates: a host that stops stops the debates its web API
// started, as their terminal's Ctrl-C would: the room is closed, saying
// so, and no child process is left.
func TestHostStopsItsDebates(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	id := h.create(contractBody)
	kids := children(t, h.cmd.Process.Pid)
	// Stop once the debate is under way: its first turn has begun.
	h.readStream("/api/sessions/"+id+"/stream", h.starter, "", func(e sse) bool { return e.Name == "token" })
	h.stop()
	b, err := os.ReadFile(filepath.Join(cwd, ".roundtable", id, "closed.json"))
	if err != nil {
		t.Fatalf("the stopped debate's room has no closed.json: %v", err)
	}
	if !strings.Contains(string(b), "cancelled") {
		t.Fatalf("closed.json: %s", b)
	}
	for _, pid := range kids {
		if alive(pid) {
			t.Fatalf("the debate's process %d outlived the host", pid)
		}
	}
}
