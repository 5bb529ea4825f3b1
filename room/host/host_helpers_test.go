package host_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestMain builds the roundtable binary once for the tests in this package.
func TestMain(m *testing.M) { hosttest.Main(m) }

// issueTokens creates room name under cwd (budget rounds) and issues its
// tokens, as a first `roundtable host` would, and returns them by grant.
// The tests take tokens from here rather than from the host's printout,
// whose layout is another helper's.
func issueTokens(t testing.TB, cwd, name string, budget int) map[string]string {
	t.Helper()
	r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Should the cache be write-through", Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 3 {
		t.Fatalf("IssueTokens gave %d tokens, want 3", len(toks))
	}
	return toks
}

// rawPost posts body to url with the Authorization header auth ("": none)
// and returns the status, the headers and the body.
func rawPost(t *testing.T, url, auth, session string, body io.Reader) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"raw","version":"1"},"capabilities":{}}}`

// roomFiles lists what a refused call must not have written: messages,
// the close and the spec.
func roomFiles(t *testing.T, cwd, name string) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir(filepath.Join(cwd, ".roundtable", name, "messages"))
	for _, e := range entries {
		out = append(out, "messages/"+e.Name())
	}
	for _, f := range []string{filepath.Join(cwd, ".roundtable", name, "closed.json"), filepath.Join(cwd, "SPEC-"+name+".md")} {
		if _, err := os.Stat(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// serverLog is the room's server.log.
func serverLog(t *testing.T, cwd, name string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(cwd, ".roundtable", name, "server.log"))
	return string(b)
}

func callParams(name string, args map[string]any) *sdk.CallToolParams {
	return &sdk.CallToolParams{Name: name, Arguments: args}
}

// postedSeq is the seq a post's reply acknowledges.
func postedSeq(res *sdk.CallToolResult) (int, bool) {
	if res.IsError || len(res.Content) == 0 {
		return 0, false
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return 0, false
	}
	var out struct {
		Posted int `json:"posted"`
	}
	if json.Unmarshal([]byte(tc.Text), &out) != nil || out.Posted == 0 {
		return 0, false
	}
	return out.Posted, true
}
