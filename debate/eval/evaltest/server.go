// Package evaltest holds a scripted model for testing evals: a server
// speaking OpenAI's streaming chat-completions format whose replies are a
// function, given by the test, of the request.
package evaltest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is a chat request as the script sees it.
type Request struct {
	Model  string
	System string // the first system message
	User   string // the last user message
	// Read are the turns of a debate transcript in the user message
	// ("### Name (round n)" headings), each with the answer its last
	// "Answer:" line gives.
	Read []Turn
	// Responses are the replies shown to a ranking request ("### Response
	// A" headings), in the order shown, each with Agent "Response A"… and
	// the answer its last "Answer:" line gives.
	Responses []Turn
	// Messages are every message's content, in order.
	Messages []string
}

// Turn is one turn read in a transcript.
type Turn struct {
	Agent  string
	Round  int
	Answer string
}

// Usage is what a reply reports in its usage chunk; Cost, in dollars,
// only when above 0 (as OpenRouter's usage accounting does).
type Usage struct {
	Prompt, Completion int
	Cost               float64
}

// Script answers a request: the reply's text and its usage.
type Script func(r Request) (reply string, u Usage)

// Server is the scripted model at /v1/chat/completions (and a model list
// at /v1/models naming Models).
type Server struct {
	*httptest.Server
	script Script

	mu      sync.Mutex
	noUsage bool
	models  []string
	fail    func(r Request) int
	reqs    []Request
	open    map[net.Conn]bool // the connections not closed yet (Drain)
}

// SetNoUsage makes the server send no usage chunk, as some servers do not.
func (s *Server) SetNoUsage(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noUsage = v
}

// SetModels sets the models /v1/models lists; by default "scripted".
func (s *Server) SetModels(models ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = models
}

// SetFail sets a function that, when it returns a status, answers the
// request with it instead of the script.
func (s *Server) SetFail(fail func(r Request) int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = fail
}

// New starts a Server running script, closed when the test ends.
func New(t testing.TB, script Script) *Server {
	t.Helper()
	s := &Server{script: script, models: []string{"scripted"}, open: map[net.Conn]bool{}}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Config.ConnState = s.track
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// track keeps the set of connections not closed yet.
func (s *Server) track(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateNew:
		s.open[c] = true
	case http.StateClosed, http.StateHijacked:
		delete(s.open, c)
	case http.StateActive, http.StateIdle:
		// still open
	}
}

// Drain closes every connection to the server and waits, up to timeout,
// until each is closed, the request it carried (if any) answered; it
// reports whether they all were. After a client killed mid-run, what it
// had sent is then in Requests, and nothing of it can arrive later.
func (s *Server) Drain(timeout time.Duration) bool {
	s.CloseClientConnections()
	for deadline := time.Now().Add(timeout); ; time.Sleep(5 * time.Millisecond) {
		s.mu.Lock()
		n := len(s.open)
		s.mu.Unlock()
		if n == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// BaseURL is the base URL to give a provider: the server's /v1.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests are the chat requests answered so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

var (
	headingRe  = regexp.MustCompile(`(?m)^### (.+) \(round (\d+)\)$`)
	responseRe = regexp.MustCompile(`(?m)^### (Response [A-Z])$`)
	answerRe   = regexp.MustCompile(`(?mi)^\W*answer\W*:\s*(.*)$`)
)

// ParseTranscript reads the turns of a transcript in text.
func ParseTranscript(text string) []Turn { return parseHeadings(text, headingRe) }

// ParseResponses reads the replies a ranking request shows ("### Response
// A" headings); their Round is 0.
func ParseResponses(text string) []Turn { return parseHeadings(text, responseRe) }

// parseHeadings reads the sections of text under headings matching re:
// its first group the agent, its second (if any) the round.
func parseHeadings(text string, re *regexp.Regexp) []Turn {
	var out []Turn
	locs := re.FindAllStringSubmatchIndex(text, -1)
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := text[l[1]:end]
		t := Turn{Agent: text[l[2]:l[3]]}
		if len(l) > 4 {
			t.Round, _ = strconv.Atoi(text[l[4]:l[5]])
		}
		if ms := answerRe.FindAllStringSubmatch(body, -1); len(ms) > 0 {
			t.Answer = strings.Trim(strings.TrimSpace(ms[len(ms)-1][1]), "*. ")
		}
		out = append(out, t)
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	models, noUsage, fail := s.models, s.noUsage, s.fail
	s.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		var list struct {
			Data []map[string]string `json:"data"`
		}
		for _, m := range models {
			list.Data = append(list.Data, map[string]string{"id": m, "object": "model"})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions"):
		http.NotFound(w, r)
		return
	}
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{Model: body.Model}
	for _, m := range body.Messages {
		req.Messages = append(req.Messages, m.Content)
		switch m.Role {
		case "system":
			if req.System == "" {
				req.System = m.Content
			}
		case "user":
			req.User = m.Content
		}
	}
	req.Read = ParseTranscript(req.User)
	req.Responses = ParseResponses(req.User)
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if fail != nil {
		if code := fail(req); code != 0 {
			http.Error(w, `{"error":{"message":"scripted failure"}}`, code)
			return
		}
	}
	reply, u := s.script(req)
	w.Header().Set("Content-Type", "text/event-stream")
	// The reply in two pieces, cut in the middle, as a model streams.
	half := len(reply) / 2
	for _, piece := range []string{reply[:half], reply[half:]} {
		writeData(w, map[string]any{
			"object": "chat.completion.chunk", "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": piece}, "finish_reason": nil}},
		})
	}
	writeData(w, map[string]any{
		"object": "chat.completion.chunk", "model": body.Model,
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}},
	})
	if !noUsage {
		usage := map[string]any{"prompt_tokens": u.Prompt, "completion_tokens": u.Completion, "total_tokens": u.Prompt + u.Completion}
		if u.Cost > 0 {
			usage["cost"] = u.Cost
		}
		writeData(w, map[string]any{"object": "chat.completion.chunk", "model": body.Model, "choices": []any{}, "usage": usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func writeData(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "data: %s\n\n", b)
}
