package host_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Fixed tokens, shaped as room.IssueTokens makes them, so the golden
// files are stable.
var printTokens = map[string]string{
	room.GrantLead:     "rt_LeadLeadLeadLeadLeadLeadLeadLeadLeadLeadLea",
	room.GrantPeer:     "rt_Peer-Peer_PeerPeerPeerPeerPeerPeerPeerPeer",
	room.GrantObserver: "rt_ObserverObserverObserverObserverObserver",
}

func pick(grants ...string) map[string]string {
	m := map[string]string{}
	for _, g := range grants {
		m[g] = printTokens[g]
	}
	return m
}

// TestHostInstructionsGolden snapshots what roundtable host prints for a
// room: every token on the first start, one after a rotation, none later.
func TestHostInstructionsGolden(t *testing.T) {
	cases := []struct {
		name, url, room string
		tokens          map[string]string
	}{
		{"first-host", "http://127.0.0.1:8765", "cache-design", pick(room.GrantLead, room.GrantPeer, room.GrantObserver)},
		{"rotated-peer", "https://build.example.com:8765/mcp", "cache-design", pick(room.GrantPeer)},
		{"rotated-observer", "https://build.example.com:8765/", "cache-design", pick(room.GrantObserver)},
		{"none-new", "http://127.0.0.1:8765", "cache-design", map[string]string{}},
		{"odd-room-name", "http://[::1]:9000", "Q4.release_plan-for-the-whole-team", pick(room.GrantLead, room.GrantPeer, room.GrantObserver)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			host.RoomInstructions(&b, c.url, room.Config{Room: c.room}, c.tokens)
			golden := filepath.Join("testdata", "hostprint", c.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestHostInstructionsGolden -update to write it)", err)
			}
			if b.String() != string(want) {
				t.Fatalf("Instructions changed; got:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}

// shellArgs splits line into words as /bin/sh does, so the test checks
// what a pasted line really runs.
func shellArgs(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("/bin/sh", "-c", `set -- `+line+`; for a in "$@"; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatalf("sh cannot read %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// runPrinted runs a printed line with /bin/sh, a stub roundtable first
// in PATH, and returns the ROUNDTABLE_TOKEN the stub saw and its
// arguments.
func runPrinted(t *testing.T, line string) (env, argv string) {
	t.Helper()
	dir := t.TempDir()
	stub := "#!/bin/sh\nprintf '%s\\n' \"$ROUNDTABLE_TOKEN\"\nprintf '%s ' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "roundtable"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "ROUNDTABLE_TOKEN=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", line, err)
	}
	env, argv, _ = strings.Cut(string(out), "\n")
	return env, argv
}

// labeled finds the text of the line labeled label after the line that
// starts the grant's block.
func labeled(t *testing.T, out, grantLine, label string) string {
	t.Helper()
	_, block, ok := strings.Cut(out, grantLine+"\n")
	if !ok {
		t.Fatalf("no %q block in:\n%s", grantLine, out)
	}
	block, _, _ = strings.Cut(block, "\n\n")
	for line := range strings.SplitSeq(block, "\n") {
		if f := strings.TrimSpace(line); strings.HasPrefix(f, label+" ") {
			return strings.TrimSpace(strings.TrimPrefix(f, label))
		}
	}
	t.Fatalf("no %q line in the %q block:\n%s", label, grantLine, block)
	return ""
}

// TestHostInstructionsCommands reads each printed command as a shell
// would and checks its arguments against the clients' syntax: the seat is
// reached at the /mcp endpoint with its own token, the observer watches
// the host's address, and no seat line carries another grant's token.
func TestHostInstructionsCommands(t *testing.T) {
	if _, err := exec.LookPath("/bin/sh"); err != nil {
		t.Fatal("the test needs /bin/sh")
	}
	for _, url := range []string{"http://127.0.0.1:8765", "http://127.0.0.1:8765/mcp", "http://127.0.0.1:8765/mcp/"} {
		var b bytes.Buffer
		host.RoomInstructions(&b, url, room.Config{Room: "cache-design"}, printTokens)
		out := b.String()
		const endpoint = "http://127.0.0.1:8765/mcp"
		for _, seat := range []string{room.GrantLead, room.GrantPeer} {
			tok := printTokens[seat]
			name := "roundtable-cache-design-" + seat
			block := "  " + seat + " seat"
			if got := labeled(t, out, block, "token"); got != tok {
				t.Fatalf("%s token line is %q", seat, got)
			}
			header := []string{name, endpoint, "--header", "Authorization: Bearer " + tok}
			for label, want := range map[string][]string{
				"Claude Code": append([]string{"claude", "mcp", "add", "--transport", "http"}, header...),
				"Gemini CLI":  append([]string{"env", "GEMINI_CLI_TRUST_WORKSPACE=true", "gemini", "mcp", "add", "--transport", "http", "--trust"}, header...),
				// Qwen Code reads "url" as the old SSE transport: its own
				// command writes httpUrl, trusted, in the project.
				"Qwen Code": append([]string{"qwen", "mcp", "add", "--scope", "project", "--transport", "http", "--trust"}, header...),
			} {
				cli := want[0]
				line := labeled(t, out, block, label)
				if got := shellArgs(t, line); !slices.Equal(got, want) {
					t.Fatalf("%s line %q runs %q", cli, line, got)
				}
				if !strings.Contains(line, `--header "Authorization: Bearer `+tok+`"`) {
					t.Fatalf("%s line %q does not quote the header as the docs do", cli, line)
				}
			}
			// Qwen leaves a project's server pending until approved.
			_, rest, _ := strings.Cut(out, labeled(t, out, block, "Qwen Code")+"\n")
			approve, _, _ := strings.Cut(strings.TrimSpace(rest), "   (")
			if got := shellArgs(t, approve); !slices.Equal(got, []string{"qwen", "mcp", "approve", name}) {
				t.Fatalf("qwen approve line %q runs %q", approve, got)
			}
			oc := labeled(t, out, block, "opencode")
			if got := shellArgs(t, oc); !slices.Equal(got, []string{"opencode", "mcp", "add", name, "--url", endpoint, "--header", "Authorization=Bearer " + tok}) {
				t.Fatalf("opencode line %q runs %q", oc, got)
			}
			export := shellArgs(t, labeled(t, out, block, "Codex"))
			env := "ROUNDTABLE_CACHE_DESIGN_" + strings.ToUpper(seat) + "_TOKEN"
			if !slices.Equal(export, []string{"export", env + "=" + tok}) {
				t.Fatalf("codex export runs %q", export)
			}
			_, rest, _ = strings.Cut(out, "export "+env+"="+tok+"\n")
			codexLine, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
			if got := shellArgs(t, codexLine); !slices.Equal(got, []string{"codex", "mcp", "add", name, "--url", endpoint, "--bearer-token-env-var", env}) {
				t.Fatalf("codex line %q runs %q", codexLine, got)
			}
			var doc struct {
				MCPServers map[string]struct {
					Type    string            `json:"type"`
					URL     string            `json:"url"`
					Headers map[string]string `json:"headers"`
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(labeled(t, out, block, "JSON")), &doc); err != nil {
				t.Fatalf("JSON line of %s: %v", seat, err)
			}
			e, ok := doc.MCPServers[name]
			if len(doc.MCPServers) != 1 || !ok || e.Type != "http" || e.URL != endpoint || e.Headers["Authorization"] != "Bearer "+tok {
				t.Fatalf("JSON entry of %s is %+v", seat, doc)
			}
		}
		watch := labeled(t, out, "  observer (reads and waits; cannot post, write the spec or close)", "watch")
		// The token is in the environment, not in argv (ps shows argv to
		// every user).
		if got := shellArgs(t, watch); !slices.Equal(got, []string{"ROUNDTABLE_TOKEN=" + printTokens[room.GrantObserver], "roundtable", "watch", "--url", "http://127.0.0.1:8765"}) {
			t.Fatalf("watch line %q runs %q", watch, got)
		}
		if env, argv := runPrinted(t, watch); env != printTokens[room.GrantObserver] || strings.Contains(argv, "rt_") {
			t.Fatalf("watch line %q gives roundtable ROUNDTABLE_TOKEN=%q and argv %q; want the token in the environment only", watch, env, argv)
		}
		// The observer's token gives no seat: it appears on its own
		// lines only, each seat's token only in its own block.
		if n := strings.Count(out, printTokens[room.GrantObserver]); n != 2 {
			t.Fatalf("the observer token appears %d times, want 2 (token, watch):\n%s", n, out)
		}
		for _, seat := range []string{room.GrantLead, room.GrantPeer} {
			if n := strings.Count(out, printTokens[seat]); n != 7 {
				t.Fatalf("the %s token appears %d times, want 7 (token, claude, export, gemini, qwen, opencode, JSON):\n%s", seat, n, out)
			}
		}
	}
}

// TestHostInstructionsRealTokens prints tokens made by IssueTokens and
// checks they come out whole and verify as their grant.
func TestHostInstructionsRealTokens(t *testing.T) {
	r, _, err := room.Create(t.TempDir(), "real", room.CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	host.RoomInstructions(&b, "http://127.0.0.1:8765", room.Config{Room: "real"}, toks)
	ts, err := room.NewTokenSet([]*room.Room{r})
	if err != nil {
		t.Fatal(err)
	}
	for g, tok := range toks {
		if !strings.Contains(b.String(), "token        "+tok+"\n") {
			t.Fatalf("the %s token is not printed whole:\n%s", g, b.String())
		}
		if got, ok := ts.Verify(tok); !ok || got.Grant != g {
			t.Fatalf("the printed %s token gives %+v %v", g, got, ok)
		}
	}
	if strings.Contains(b.String(), "not shown again") {
		t.Fatalf("all three are new, yet some are said to be kept:\n%s", b.String())
	}
}
