package app

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// closedPort is a local TCP port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

// flat is a screen's text with its line breaks and runs of spaces as one
// space, so a sentence wrapped over lines reads whole.
func flat(screen string) string {
	var b strings.Builder
	for _, l := range strings.Split(screen, "\n") {
		b.WriteString(strings.Trim(l, " │"))
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestE2EUnreachableServerInTheForm: the new-debate form, started
// against an Ollama that is not running, says so in a sentence in the
// form, not inside a column, and creates no room.
func TestE2EUnreachableServerInTheForm(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	port := closedPort(t)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 80, Height: 30, Dir: cwd, Env: e2eEnv(t)},
		bin, "tui", "--provider", "ollama", "--base-url", "http://127.0.0.1:"+port+"/v1")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("n")
	s.WaitFor("New persona debate", 15*time.Second)
	s.SendKeys("-l", "Should we split the monolith?")
	s.SendKeys("C-s")
	want := "Ollama at http://127.0.0.1:" + port + " is not answering: start it with `ollama serve`, or choose another provider."
	screen := s.WaitUntil("the sentence in the form", func(screen string) bool { return strings.Contains(flat(screen), want) }, 15*time.Second)
	if !strings.Contains(screen, "New persona debate") || strings.Contains(screen, "dial tcp") || strings.Contains(screen, "╭─ Product Manager") {
		t.Errorf("the failure is not shown in the form alone:\n%s", screen)
	}
	if _, err := os.Stat(filepath.Join(cwd, room.Folder)); err == nil {
		entries, _ := os.ReadDir(filepath.Join(cwd, room.Folder))
		if len(entries) > 0 {
			t.Errorf("a debate that could not start left rooms: %v", entries)
		}
	}
	s.SendKeys("C-c")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestE2EUnreachableServerWithTopic: with --topic, a debate that cannot
// start comes back as the form, filled in, with the sentence.
func TestE2EUnreachableServerWithTopic(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	port := closedPort(t)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 36, Dir: t.TempDir(), Env: e2eEnv(t)},
		bin, "tui", "--topic", "Move to Kubernetes", "--provider", "ollama", "--base-url", "http://127.0.0.1:"+port+"/v1")
	want := "Ollama at http://127.0.0.1:" + port + " is not answering: start it with `ollama serve`, or choose another provider."
	screen := s.WaitUntil("the form with the sentence", func(screen string) bool { return strings.Contains(flat(screen), want) }, 15*time.Second)
	if !strings.Contains(screen, "New persona debate") || !strings.Contains(screen, "Move to Kubernetes") || !strings.Contains(screen, "ollama") {
		t.Errorf("the form is not filled in from the command line:\n%s", screen)
	}
	s.SendKeys("C-c")
	s.ExitStatus(10 * time.Second)
}

// TestE2ERetryInTheColumnHeader: a server speaking OpenAI's streaming
// wire format answers the first request with HTTP 429 and Retry-After; the
// column of the persona waiting says so in its header, then the debate
// goes on to its verdict.
func TestE2ERetryInTheColumnHeader(t *testing.T) {
	var chats atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		if chats.Add(1) == 1 {
			w.Header().Set("Retry-After", "3")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i, part := range []string{"Fine", ", ship", " it."} {
			finish := "null"
			if i == 2 {
				finish = `"stop"`
			}
			d, _ := json.Marshal(part)
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":%s}]}\n\n", d, finish)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	env := append(e2eEnv(t), "ROUNDTABLE_PROVIDER=")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 40, Dir: t.TempDir(), Env: env},
		bin, "tui", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m")
	screen := s.WaitUntil("the retry in the column header", func(screen string) bool {
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, "╭─") && strings.Contains(l, "Product Manager · retrying after HTTP 429 · attempt 2/4") {
				return true
			}
		}
		return false
	}, 15*time.Second)
	if strings.Contains(screen, "✗ failed") {
		t.Fatalf("the debate failed:\n%s", screen)
	}
	screen = s.WaitFor("✓ verdict in", 30*time.Second)
	if strings.Contains(screen, "retrying") {
		t.Errorf("the retry is still shown after the reply:\n%s", screen)
	}
	s.SendKeys("q") // back to the home screen
	s.WaitFor("m MCP room", 10*time.Second)
	s.SendKeys("q")
	s.ExitStatus(10 * time.Second)
}

// TestE2ESameRoomAsHeadless: the same settings give the same room whether
// the debate runs headless or in the TUI: the same room.json (but its name
// and time) and the same messages.
func TestE2ESameRoomAsHeadless(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	persona := filepath.Join(cwd, "panel.toml")
	if err := os.WriteFile(persona, []byte("[[persona]]\nname = \"Cost Optimizer\"\npersona = \"a finance-minded reviewer\"\nstance = \"against\"\n\n[moderator]\npersona = \"a blunt CTO\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{
		"--topic", "Should we adopt GraphQL", "--rounds", "2", "--fast", "--seed", "7", "--personas", "panel.toml",
		"--agent", "Skeptic=someone who doubts every plan", "--stop-on-consensus", "--max-tokens", "300",
	}
	headless := exec.Command(bin, append([]string{"debate", "--room", "headless", "--format", "jsonl"}, args...)...)
	headless.Dir = cwd
	headless.Env = append(os.Environ(), e2eEnv(t)...)
	if out, err := headless.CombinedOutput(); err != nil {
		t.Fatalf("headless: %v\n%s", err, out)
	}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 160, Height: 48, Dir: cwd, Env: e2eEnv(t)},
		append([]string{bin, "tui", "--room", "screen"}, args...)...)
	s.WaitFor("✓ verdict in", 30*time.Second)
	s.SendKeys("q") // back to the home screen
	s.WaitFor("m MCP room", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Fatalf("tui exit status %d", code)
	}

	read := func(name string) (map[string]any, []room.Message) {
		t.Helper()
		r, err := room.Open(cwd, name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(r.Dir(), "room.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := json.Unmarshal(data, &cfg); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"room", "createdAt", "spec"} {
			if _, ok := cfg[k]; !ok {
				t.Fatalf("room.json has no %q: %s", k, data)
			}
			delete(cfg, k)
		}
		st, err := r.State()
		if err != nil {
			t.Fatal(err)
		}
		if st.Closed == nil || st.Closed.Reason != "complete" {
			t.Fatalf("room %s closed %+v", name, st.Closed)
		}
		return cfg, st.Messages
	}
	hc, hm := read("headless")
	sc, sm := read("screen")
	if !reflect.DeepEqual(hc, sc) {
		t.Errorf("room.json differs:\nheadless %v\nscreen   %v", hc, sc)
	}
	if len(hm) != len(sm) || len(hm) == 0 {
		t.Fatalf("%d messages headless, %d from the screen", len(hm), len(sm))
	}
	for i := range hm {
		a, b := hm[i], sm[i]
		if a.Seat != b.Seat || a.Agent != b.Agent || a.Kind != b.Kind || a.Round != b.Round || a.Text != b.Text {
			t.Errorf("message %d differs:\nheadless %+v\nscreen   %+v", i, a, b)
		}
	}
}
