package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestStreamResumesOnANewHost: an API client reads a room's stream, drops
// it inside a turn, and comes back with Last-Event-ID to a host that has
// read the room again (stopped and started, as a host that dropped an
// idle room's log after a minute does): it gets every remaining event
// once, and every turn's tokens add up to its full_text. For a persona
// debate and for an MCP room whose seats roundtable seat plays, each run
// in processes of their own.
func TestStreamResumesOnANewHost(t *testing.T) {
	for _, c := range []struct {
		name  string
		procs [][]string
	}{
		{"debate", [][]string{{"debate", "--topic", "Adopt Rust?", "--rounds", "2", "--room", "rust", "--format", "jsonl"}}},
		{"mcp room", [][]string{
			{"seat", "--room", "rust", "--seat", "lead", "--provider", "mock", "--topic", "Adopt Rust?", "--budget", "2"},
			{"seat", "--room", "rust", "--seat", "peer", "--provider", "mock"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cwd := t.TempDir()
			h := startHost(t, cwd)
			for i, args := range c.procs {
				cmd := exec.Command(binary, append(args, "--cwd", cwd)...)
				log, err := os.Create(filepath.Join(t.TempDir(), "out"))
				if err != nil {
					t.Fatal(err)
				}
				cmd.Stdout, cmd.Stderr = log, log
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
				if i == 0 {
					waitFile(t, filepath.Join(cwd, ".roundtable", "rust", "room.json"))
				}
			}
			path := "/api/sessions/rust/stream"
			served(t, h, "/api/sessions/rust")
			first := h.readStream(path, h.starter, "", dropInTurn())
			if len(first.events) == 0 {
				t.Fatalf("the stream answered %d with no event", first.status)
			}
			last := first.events[len(first.events)-1]
			if last.Name != "token" {
				t.Fatalf("the first part ends with %s, not inside a turn", last.Name)
			}
			h.stop()
			h = startHost(t, cwd)
			defer h.stop()
			served(t, h, "/api/sessions/rust")
			rest := h.readStream(path, h.starter, last.ID, nil)
			joined := append(first.events, rest.events...)
			turns := checkTurns(t, joined)

			// The room, read whole once it ended, has the very turns.
			replay := h.readStream(path, h.starter, "", nil)
			if want := checkTurns(t, replay.events); !reflect.DeepEqual(turns, want) {
				t.Fatalf("the resumed stream's turns differ from the room's:\n%q\n%q", turns, want)
			}
			if len(rest.events) == 0 || !strings.Contains(rest.events[0].Name, "token") {
				t.Fatalf("the resumed stream starts with %v, not the rest of the turn", names(rest.events))
			}
			if st := h.readStream(path, h.starter, joined[len(joined)-1].ID, nil); st.status != 204 {
				t.Fatalf("a resume after done answered %d, want 204", st.status)
			}
		})
	}
}

// checkTurns checks that each turn's tokens add up to its full_text, that
// no event of the seed's other than a token comes twice, and that one
// terminal event ends evs; it returns each turn as "agent: full_text".
func checkTurns(t *testing.T, evs []sse) []string {
	t.Helper()
	var turns []string
	var b strings.Builder
	seen := map[string]bool{}
	for i, e := range evs {
		var d payload
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("event %d (%s): %v", i, e.Name, err)
		}
		switch e.Name {
		case "turn_start":
			b.Reset()
		case "token":
			b.WriteString(d.Text)
		case "turn_end":
			if b.String() != d.FullText {
				t.Fatalf("%s's turn %d: tokens %q, full_text %q", d.Agent, len(turns)+1, b.String(), d.FullText)
			}
			turns = append(turns, d.Agent+": "+d.FullText)
		}
		if _, seed := seedKeys[e.Name]; seed && e.Name != "token" {
			k := e.Name + string(e.Data)
			if seen[k] {
				t.Fatalf("event %d came twice: %s %s", i, e.Name, e.Data)
			}
			seen[k] = true
		}
	}
	if len(evs) == 0 || evs[len(evs)-1].Name != "done" || len(turns) == 0 {
		t.Fatalf("the stream has %d turns and ends with %v", len(turns), names(evs[max(len(evs)-3, 0):]))
	}
	return turns
}

// waitFile waits for path to exist.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 30 s", path)
		}
	}
}

// served waits until the host serves path (it picks up a room made in
// its folder a moment after the room appears).
func served(t *testing.T, h *host, path string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		code, body := h.do(http.MethodGet, path, h.starter, "", nil)
		if code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %d %s after 30 s", path, code, body)
		}
	}
}
