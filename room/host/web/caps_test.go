package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitClosed waits for room id's closed.json and returns it.
func waitClosed(t *testing.T, cwd, id string) string {
	t.Helper()
	path := filepath.Join(cwd, ".roundtable", id, "closed.json")
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && json.Valid(b) {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("room %s did not close within 2 minutes", id)
		}
	}
}

// startArgs are the arguments of the host's debate children (Linux; none
// elsewhere).
func startArgs(t *testing.T, h *host) [][]string {
	t.Helper()
	var out [][]string
	for _, pid := range children(t, h.cmd.Process.Pid) {
		if a := cmdline(pid); len(a) > 1 && a[1] == "debate" {
			out = append(out, a)
		}
	}
	return out
}

// TestDefaultCaps: a host given no cap flags still caps the debates its
// API starts. It says so at its start; it refuses a body asking for more
// than its default token cap (422, naming the cap), a persona naming
// another model or a coding agent (403, naming the flag that allows it),
// and starts nothing for them; a body asking for less gets its debate
// stopped there; a debate that asks nothing runs under the default cap.
func TestDefaultCaps(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	defer h.stop()
	if want := "each debate stops at 200000 tokens (--max-tokens-total); a token starts at most 6 a minute (--starts-per-minute); personas may name the model mock (--allow-models) and no coding agent (--allow-agents)"; !strings.Contains(h.output(), want) {
		t.Fatalf("the host's start does not say its caps (%q):\n%s", want, h.output())
	}
	for _, c := range []struct {
		body string
		code int
		says []string
	}{
		{`{"topic":"x","max_tokens_total":200001}`, http.StatusUnprocessableEntity, []string{"200000", "--max-tokens-total"}},
		{`{"topic":"x","max_tokens_total":0}`, http.StatusUnprocessableEntity, []string{"200000"}},
		{`{"topic":"x","agents":[{"name":"A","persona":"p","model":"openai/gpt-4o"}]}`, http.StatusForbidden, []string{"openai/gpt-4o", "mock", "--allow-models"}},
		{`{"topic":"x","agents":[{"name":"A","persona":"p","agent":"claude"}]}`, http.StatusForbidden, []string{"claude", "--allow-agents"}},
		{`{"topic":"x","agents":[{"name":"A","persona":"p","agent":"acp:codex"}]}`, http.StatusForbidden, []string{"codex", "--allow-agents"}},
	} {
		code, body := h.do(http.MethodPost, "/api/sessions", h.starter, c.body, nil)
		msg := errorSentence(t, c.body, body)
		if code != c.code {
			t.Fatalf("%s: %d %s, want %d", c.body, code, body, c.code)
		}
		for _, s := range c.says {
			if !strings.Contains(msg, s) {
				t.Fatalf("%s: %q does not say %q", c.body, msg, s)
			}
		}
	}
	if got := roomFolders(t, cwd); len(got) > 0 {
		t.Fatalf("room folders %v after refused starts", got)
	}
	// The host's own model by name is allowed.
	own := h.create(`{"topic":"Own model","rounds":1,"agents":[{"name":"A","persona":"p","model":"mock"}]}`)
	// A lower cap: the debate stops at it, with a verdict.
	low := h.create(`{"topic":"Cap it low","rounds":3,"max_tokens_total":400}`)
	if closed := waitClosed(t, cwd, low); !strings.Contains(closed, "the token budget of 400 was reached") {
		t.Fatalf("a debate asking for 400 tokens closed with %s", closed)
	}
	// No cap asked: the default one (on Linux, read from the command line
	// of the debate as it runs).
	id := h.create(`{"topic":"Default cap","rounds":2}`)
	if running := startArgs(t, h); len(running) > 0 {
		found := false
		for _, a := range running {
			if slices.Contains(a, "--room="+id) {
				found = true
				if !slices.Contains(a, "--max-tokens-total=200000") {
					t.Fatalf("the debate runs without the default cap: %q", a)
				}
			}
		}
		if !found {
			t.Logf("debate %s ended before its command line was read", id)
		}
	}
	waitClosed(t, cwd, own)
}

// TestCapsFromFlags: --max-tokens-total lowers the cap a body may ask
// for, --allow-models and --allow-agents widen what a persona may name,
// and --max-cost with the mock provider (which costs nothing) starts
// debates.
func TestCapsFromFlags(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--max-tokens-total", "5000", "--max-cost", "0.50", "--allow-models", "big-model,other", "--fast")
	defer h.stop()
	if want := "each debate stops at 5000 tokens (--max-tokens-total) or $0.5000 (--max-cost)"; !strings.Contains(h.output(), want) {
		t.Fatalf("the host's start does not say its caps (%q):\n%s", want, h.output())
	}
	code, body := h.do(http.MethodPost, "/api/sessions", h.starter, `{"topic":"x","max_tokens_total":5001}`, nil)
	if msg := errorSentence(t, "over the cap", body); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "5000") {
		t.Fatalf("a body over --max-tokens-total: %d %s", code, body)
	}
	code, body = h.do(http.MethodPost, "/api/sessions", h.starter, `{"topic":"x","max_cost":1}`, nil)
	if msg := errorSentence(t, "over the cost cap", body); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "$0.5000") {
		t.Fatalf("a body over --max-cost: %d %s", code, body)
	}
	id := h.create(`{"topic":"Mock with a cost cap","rounds":1,"agents":[{"name":"A","persona":"p","model":"big-model"},{"name":"B","persona":"q"}]}`)
	if closed := waitClosed(t, cwd, id); !strings.Contains(closed, `"complete"`) {
		t.Fatalf("a mock debate under --max-cost closed with %s", closed)
	}
}

// TestMaxCostRefusedWithoutACost: a host whose provider reports no cost
// refuses --max-cost at its start (exit 2, saying what to use), rather
// than starting a debate that fails.
func TestMaxCostRefusedWithoutACost(t *testing.T) {
	// A host that does not refuse serves until it is stopped: the
	// deadline ends it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "host", "--all", "--listen", "127.0.0.1:0", "--cwd", t.TempDir(),
		"--max-cost", "1", "--provider", "ollama", "--base-url", "http://127.0.0.1:1/v1")
	out, err := cmd.CombinedOutput()
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	if err == nil || code != 2 || !strings.Contains(string(out), "--max-tokens-total") {
		t.Fatalf("--max-cost with a provider that reports no cost: exit %d, %s", code, out)
	}
}

// TestStartsPerMinute: one token starts at most --starts-per-minute
// debates a minute; the next is refused with 429, a Retry-After of whole
// seconds and a sentence naming the flag, and starts nothing. A refused
// body spends no start.
func TestStartsPerMinute(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--starts-per-minute", "2", "--fast")
	defer h.stop()
	if code, _ := h.do(http.MethodPost, "/api/sessions", h.starter, `{"rounds":1}`, nil); code != http.StatusUnprocessableEntity {
		t.Fatalf("a body without a topic: %d, want 422", code)
	}
	h.create(`{"topic":"One","rounds":1}`)
	h.create(`{"topic":"Two","rounds":1}`)
	req, _ := http.NewRequest(http.MethodPost, h.base+"/api/sessions", strings.NewReader(`{"topic":"Three","rounds":1}`))
	req.Header.Set("Authorization", "Bearer "+h.starter)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	b := string(raw)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a third start in a minute: %d %s, want 429", resp.StatusCode, b)
	}
	ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 60 {
		t.Fatalf("Retry-After %q, want whole seconds from 1 to 60", resp.Header.Get("Retry-After"))
	}
	if msg := errorSentence(t, "third start", b); !strings.Contains(msg, "--starts-per-minute") || !strings.Contains(msg, "retry in") {
		t.Fatalf("the refusal %q does not say what to do", msg)
	}
	if got := roomFolders(t, cwd); len(got) != 2 {
		t.Fatalf("room folders %v, want the 2 debates started", got)
	}
}

// TestBadTopicsAre4xx: a topic longer than a debate takes is refused with
// a 4xx stating the limit, never a 500, from just over it to the body's
// limit; a topic at the limit starts.
func TestBadTopicsAre4xx(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--fast")
	defer h.stop()
	for _, n := range []int{2001, 4000, 65_000, 65_536} {
		body, _ := json.Marshal(map[string]any{"topic": strings.Repeat("a", n), "rounds": 1})
		code, resp := h.do(http.MethodPost, "/api/sessions", h.starter, string(body), nil)
		if code != http.StatusUnprocessableEntity && code != http.StatusRequestEntityTooLarge {
			t.Fatalf("a topic of %d characters: %d %s, want 422 or 413", n, code, resp)
		}
		if msg := errorSentence(t, "long topic", resp); !strings.Contains(msg, "2000 characters") && !strings.Contains(msg, "2000 a debate takes") {
			t.Fatalf("a topic of %d characters: %q does not state the limit", n, msg)
		}
	}
	if got := roomFolders(t, cwd); len(got) > 0 {
		t.Fatalf("room folders %v after long topics", got)
	}
	// 2,000 characters of three bytes each: over 2,000 bytes, within the
	// limit, which counts characters.
	body, _ := json.Marshal(map[string]any{"topic": strings.Repeat("€", 2000), "rounds": 1})
	waitClosed(t, cwd, h.create(string(body)))
}

// goType matches what names a Go type or the decoder in an error.
var goType = regexp.MustCompile(`\b(web|main|debate|room|json)\.[A-Za-z]|createRequest|agentRequest|debateRequest|Go (struct|value)|\bjson: |\[\]`)

// TestErrorsNameNoGoType: the refusals of malformed bodies say what is
// wrong in the body's terms (JSON, its fields), never a Go type.
func TestErrorsNameNoGoType(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	defer h.stop()
	for _, body := range []string{
		`[1,2]`, `"text"`, `42`, `true`, `null x`, `{"topic":1}`, `{"topic":"x","rounds":2.5}`,
		`{"topic":"x","rounds":1e40}`, `{"topic":"x","agents":{}}`, `{"topic":"x","agents":[1]}`,
		`{"topic":"x","agents":[{"name":1}]}`, `{"topic":"x","max_cost":"lots"}`, `{"topic":"x","max_tokens_total":-1}`,
		`{"topic":"x",}`, `{"topic":"x"`, `{`, `{"topic":"x","unknown":1}`, "\xff",
	} {
		code, resp := h.do(http.MethodPost, "/api/sessions", h.starter, body, nil)
		if code < 400 || code >= 500 {
			t.Fatalf("%q: %d %s, want a 4xx", body, code, resp)
		}
		if msg := errorSentence(t, body, resp); goType.MatchString(msg) {
			t.Fatalf("%q: the refusal %q names a Go type", body, msg)
		}
	}
}
