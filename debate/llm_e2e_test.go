//go:build llm

package debate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// These tests run against llama.cpp's llama-server serving a tiny real model
// (make e2e-llm starts it and sets ROUNDTABLE_LLM_URL). Its tokens come
// from a real model behind a real server that nobody here wrote.

func llmURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("ROUNDTABLE_LLM_URL")
	if u == "" {
		t.Fatal("ROUNDTABLE_LLM_URL is not set: run these tests with make e2e-llm")
	}
	return u
}

func runBin(t *testing.T, bin, cwd string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = cwd
	cmd.Env = cleanEnv(t)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), exitCode(err)
}

func parseJSONL(t *testing.T, s string) []Event {
	t.Helper()
	var evs []Event
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func TestLLMDebateJSONL(t *testing.T) {
	url := llmURL(t)
	bin := buildBinary(t)
	cwd := t.TempDir()
	out, errOut, code := runBin(t, bin, cwd, "debate", "--topic", "Should the licence grant cover patents",
		"--provider", "ollama", "--base-url", url, "--model", "tiny", "--rounds", "2", "--max-tokens", "48",
		"--format", "jsonl", "--room", "llm")
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errOut)
	}
	evs := parseJSONL(t, out)
	cfg := Config{Topic: "Should the licence grant cover patents", Personas: DefaultPersonas(), Rounds: 2}
	checkInvariants(t, evs, cfg)
	var turns int
	var sum Usage
	for _, ev := range evs {
		switch ev.Type {
		case EventTurnEnd:
			turns++
			if ev.Usage == nil || ev.Usage.CompletionTokens == 0 || ev.Usage.PromptTokens == 0 {
				t.Fatalf("turn of %s round %d reports no usage: %+v", ev.Agent, ev.Round, ev.Usage)
			}
			if strings.TrimSpace(ev.Text) == "" {
				t.Fatalf("empty turn from %s", ev.Agent)
			}
			sum.Add(*ev.Usage)
		case EventSummary:
			if ev.Usage != nil {
				sum.Add(*ev.Usage)
			}
		default:
		}
	}
	last := evs[len(evs)-1]
	if turns != 6 || last.Type != EventDone || last.Usage == nil {
		t.Fatalf("%d turns, last %s usage %+v", turns, last.Type, last.Usage)
	}
	if last.Usage.CompletionTokens != sum.CompletionTokens || last.Usage.PromptTokens != sum.PromptTokens {
		t.Fatalf("total usage %+v, turns add up to %+v", *last.Usage, sum)
	}
	r, err := room.Open(cwd, "llm")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 7 || st.Messages[6].Seat != room.SeatModerator || st.Closed == nil || st.Closed.Reason != ReasonComplete {
		t.Fatalf("saved room: %d messages, closed %+v", len(st.Messages), st.Closed)
	}
	md, errOut, code := runBin(t, bin, cwd, "transcript", "--room", "llm")
	if code != 0 || !strings.Contains(md, "Should the licence grant cover patents") || !strings.Contains(md, "Security Reviewer") {
		t.Fatalf("transcript exit %d: %s\n%s", code, errOut, md)
	}
	t.Logf("%d events, usage %+v", len(evs), *last.Usage)
}

func TestLLMServerNotStarted(t *testing.T) {
	llmURL(t)
	bin := buildBinary(t)
	cwd := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf("http://%s", l.Addr())
	l.Close()
	_, errOut, code := runBin(t, bin, cwd, "debate", "--topic", "x", "--provider", "ollama", "--base-url", dead+"/v1", "--model", "tiny", "--rounds", "1")
	want := "roundtable: Ollama at " + dead + " is not answering: start it with `ollama serve`, or choose another provider\n"
	if code != 1 || errOut != want {
		t.Fatalf("exit %d, stderr %q, want %q", code, errOut, want)
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Fatalf("a debate against a dead server created %v", entries)
	}
}

func TestLLMWrongModel(t *testing.T) {
	url := llmURL(t)
	bin := buildBinary(t)
	cwd := t.TempDir()
	_, errOut, code := runBin(t, bin, cwd, "debate", "--topic", "x", "--provider", "ollama", "--base-url", url, "--model", "no-such-model", "--rounds", "1")
	if code != 1 || !strings.Contains(errOut, `"no-such-model"`) || !strings.Contains(errOut, "tiny") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestLLMServerKilledMidTurn starts a private llama-server, kills it with
// SIGKILL once the first persona has streamed some tokens, and checks the
// debate ends with one clear error and keeps the partial turn.
func TestLLMServerKilledMidTurn(t *testing.T) {
	llmURL(t)
	server, model := os.Getenv("ROUNDTABLE_LLAMA_SERVER"), os.Getenv("ROUNDTABLE_LLM_MODEL")
	if server == "" || model == "" {
		t.Fatal("ROUNDTABLE_LLAMA_SERVER and ROUNDTABLE_LLM_MODEL must be set (make e2e-llm sets them)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv := exec.Command(server, "-m", model, "--alias", "tiny", "--host", "127.0.0.1", "--port", fmt.Sprint(port),
		"-c", "4096", "-np", "1", "-t", "1", "--override-kv", "llama.context_length=int:4096")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d/v1", port)
	waitHealthy(t, fmt.Sprintf("127.0.0.1:%d", port))

	bin := buildBinary(t)
	cwd := t.TempDir()
	cmd := exec.Command(bin, "debate", "--topic", "Should the licence grant cover patents", "--provider", "ollama",
		"--base-url", url, "--model", "tiny", "--rounds", "1", "--max-tokens", "3000", "--format", "jsonl", "--room", "killed")
	cmd.Dir, cmd.Env = cwd, cleanEnv(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var evs []Event
	tokens, killed := 0, false
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
		if ev.Type == EventToken && strings.TrimSpace(ev.Text) != "" {
			tokens++
		}
		if tokens == 20 && !killed {
			_ = srv.Process.Signal(syscall.SIGKILL)
			killed = true
		}
	}
	code := exitCode(cmd.Wait())
	if !killed {
		t.Fatalf("the server finished before 20 tokens; events %d", len(evs))
	}
	last := evs[len(evs)-1]
	if code != 1 || last.Type != EventError || !strings.Contains(last.Text, "Product Manager") || !strings.Contains(last.Text, "ollama") {
		t.Fatalf("exit %d, last event %s %q\nstderr %s", code, last.Type, last.Text, errb.String())
	}
	r, err := room.Open(cwd, "killed")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	if len(st.Messages) != 1 || st.Messages[0].Kind != KindIncomplete || st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, ReasonFailed) {
		t.Fatalf("saved %d messages (%+v), closed %+v", len(st.Messages), st.Messages, st.Closed)
	}
	t.Logf("error after %d tokens: %s", tokens, last.Text)
}

func waitHealthy(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			fmt.Fprintf(c, "GET /health HTTP/1.0\r\n\r\n")
			buf := make([]byte, 64)
			n, _ := c.Read(buf)
			c.Close()
			if strings.Contains(string(buf[:n]), " 200 ") {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("llama-server at %s not healthy within 60 s", addr)
}
