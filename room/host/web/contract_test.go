package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// seedKeys is seed 002's table of events and their payload keys.
var seedKeys = map[string][]string{
	"session_start": {"topic", "agents", "rounds"},
	"round_start":   {"round"},
	"turn_start":    {"round", "agent"},
	"token":         {"round", "agent", "text"},
	"turn_end":      {"round", "agent", "full_text"},
	"round_end":     {"round"},
	"summary":       {"text"},
	"done":          {},
	"error":         {"message"},
}

type payload struct {
	Topic    string   `json:"topic"`
	Agents   []string `json:"agents"`
	Rounds   int      `json:"rounds"`
	Round    int      `json:"round"`
	Agent    string   `json:"agent"`
	Text     string   `json:"text"`
	FullText string   `json:"full_text"`
	Message  string   `json:"message"`
}

// dropInTurn is a readStream stop that drops the stream once it has
// two tokens of a turn.
func dropInTurn() func(sse) bool {
	inTurn := 0
	return func(e sse) bool {
		switch e.Name {
		case "turn_start":
			inTurn = 0
		case "token":
			inTurn++
		}
		return inTurn == 2
	}
}

// idForm is an event ID's form: what a client had of the room (resume.go).
var idForm = regexp.MustCompile(`^[0-9]+(\.[0-9]+){10}(-[0-9]+(\.[0-9]+){7})*(_[0-9]+\.[01])*$`)

// checkContract checks a whole stream against seed 002's table: names
// and payload keys, session_start first, the nesting of rounds and turns
// in persona order, the summary, one terminal event last, IDs of the room's view,
// and every turn's tokens adding up to its full_text. It returns how many
// token events each turn had.
func checkContract(t *testing.T, evs []sse, topic string, agents []string, rounds int) []int {
	t.Helper()
	if len(evs) == 0 || evs[0].Name != "session_start" {
		t.Fatalf("the stream does not start with session_start: %v", names(evs))
	}
	for i, e := range evs {
		if !idForm.MatchString(e.ID) || len(e.ID) > 1<<10 {
			t.Fatalf("event %d (%s) has id %q", i, e.Name, e.ID)
		}
		if e.Name == "token" && e.ID == evs[i-1].ID {
			t.Fatalf("token %d has the id of the event before it, %s", i, e.ID)
		}
		want, seed := seedKeys[e.Name]
		if !seed {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(e.Data, &m); err != nil {
			t.Fatalf("event %d (%s): data %s is not a JSON object: %v", i, e.Name, e.Data, err)
		}
		got := make([]string, 0, len(m))
		for k := range m {
			got = append(got, k)
		}
		sort.Strings(got)
		w := slices.Clone(want)
		sort.Strings(w)
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("event %d (%s) has keys %v, seed 002 says %v", i, e.Name, got, w)
		}
	}
	var s0 payload
	_ = json.Unmarshal(evs[0].Data, &s0)
	if s0.Topic != topic || !reflect.DeepEqual(s0.Agents, agents) || s0.Rounds != rounds {
		t.Fatalf("session_start %s, want topic %q, agents %v, rounds %d", evs[0].Data, topic, agents, rounds)
	}
	// The seed's events alone, in the order the table's nesting says.
	var seq []sse
	for _, e := range evs[1:] {
		if _, ok := seedKeys[e.Name]; ok {
			seq = append(seq, e)
		}
	}
	i := 0
	next := func(name string) payload {
		t.Helper()
		if i >= len(seq) || seq[i].Name != name {
			t.Fatalf("seed event %d is %v, want %s; the seed's events: %v", i, at(seq, i), name, names(seq))
		}
		var p payload
		_ = json.Unmarshal(seq[i].Data, &p)
		i++
		return p
	}
	var tokens []int
	for r := 1; r <= rounds; r++ {
		if p := next("round_start"); p.Round != r {
			t.Fatalf("round_start %d, want %d", p.Round, r)
		}
		for _, a := range agents {
			if p := next("turn_start"); p.Round != r || p.Agent != a {
				t.Fatalf("turn_start %+v, want round %d agent %s", p, r, a)
			}
			var text strings.Builder
			n := 0
			for i < len(seq) && seq[i].Name == "token" {
				p := next("token")
				if p.Round != r || p.Agent != a {
					t.Fatalf("token of %s round %d inside %s's turn of round %d", p.Agent, p.Round, a, r)
				}
				text.WriteString(p.Text)
				n++
			}
			end := next("turn_end")
			if end.Round != r || end.Agent != a {
				t.Fatalf("turn_end %+v, want round %d agent %s", end, r, a)
			}
			if end.FullText == "" || text.String() != end.FullText {
				t.Fatalf("round %d, %s: the tokens add up to %q, full_text is %q", r, a, text.String(), end.FullText)
			}
			tokens = append(tokens, n)
		}
		if p := next("round_end"); p.Round != r {
			t.Fatalf("round_end %d, want %d", p.Round, r)
		}
	}
	if s := next("summary"); s.Text == "" {
		t.Fatal("the summary is empty")
	}
	next("done")
	if i != len(seq) {
		t.Fatalf("seed events after done: %v", names(seq[i:]))
	}
	if last := evs[len(evs)-1]; last.Name != "done" {
		t.Fatalf("the stream ends with %s, not done", last.Name)
	}
	return tokens
}

func names(evs []sse) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Name
	}
	return out
}

func at(evs []sse, i int) string {
	if i >= len(evs) {
		return "the end"
	}
	return evs[i].Name + " " + string(evs[i].Data)
}

// seedView is a stream as a seed 002 client keeps it: its events but the
// tokens, each turn's text, and the summary.
func seedView(evs []sse) []string {
	var out []string
	for _, e := range evs {
		if _, ok := seedKeys[e.Name]; ok && e.Name != "token" {
			out = append(out, e.Name+" "+string(e.Data))
		}
	}
	return out
}

const contractBody = `{"topic":"Should we adopt Rust?","rounds":2,"agents":[{"name":"Ann","persona":"a careful skeptic"},{"name":"Bob","persona":"an eager optimist"}]}`

// TestStreamContract: a client posts a session and reads its stream with
// a plain net/http client: seed 002's names, keys, order and one terminal
// event, tokens adding up to full_text, heartbeats; a client dropped in
// the middle of a turn resumes with Last-Event-ID and its two parts join
// into exactly the unbroken stream; the finished room replays, from the
// same host and from a new one.
func TestStreamContract(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	id := h.create(contractBody)
	path := "/api/sessions/" + id + "/stream"
	agents := []string{"Ann", "Bob"}

	var whole stream
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		whole = h.readStream(path, h.starter, "", nil)
	}()
	// The second client drops once it has two tokens of a turn.
	first := h.readStream(path, h.starter, "", dropInTurn())
	last := first.events[len(first.events)-1]
	if last.Name != "token" {
		t.Fatalf("the first part ends with %s, not inside a turn", last.Name)
	}
	rest := h.readStream(path, h.starter, last.ID, nil)
	wg.Wait()

	tokens := checkContract(t, whole.events, "Should we adopt Rust?", agents, 2)
	if slices.Max(tokens) < 2 {
		t.Fatalf("no turn streamed: tokens per turn %v", tokens)
	}
	if !slices.ContainsFunc(whole.events, func(e sse) bool { return e.Name == "run_state" && string(e.Data) == `{"running":true}` }) {
		t.Fatalf("no run_state says the debate runs: %v", names(whole.events))
	}
	if whole.heartbeats == 0 {
		t.Fatal("no heartbeat in the stream (every 100 ms here)")
	}
	joined := append(slices.Clone(first.events), rest.events...)
	if !reflect.DeepEqual(joined, whole.events) {
		t.Fatalf("the resumed stream differs from the unbroken one: %d+%d events against %d\n%s", len(first.events), len(rest.events), len(whole.events), firstDiff(joined, whole.events))
	}
	checkContract(t, joined, "Should we adopt Rust?", agents, 2)

	// The finished room replays; a client that had it all is told 204.
	again := h.readStream(path, h.starter, "", nil)
	if !reflect.DeepEqual(again.events, whole.events) {
		t.Fatal("the replay from the same host differs from the live stream")
	}
	if st := h.readStream(path, h.starter, whole.events[len(whole.events)-1].ID, nil); st.status != http.StatusNoContent {
		t.Fatalf("a resume after done answered %d, want 204", st.status)
	}
	// The debate's output went to its room, never to the host's stdout.
	if log, err := os.ReadFile(filepath.Join(cwd, ".roundtable", id, "debate.log")); err != nil || !strings.Contains(string(log), `"event":"done"`) {
		t.Fatalf("debate.log: %v %.200q", err, log)
	}
	if strings.Contains(h.output(), `"event"`) {
		t.Fatalf("the debate's output reached the host's stdout:\n%s", h.output())
	}
	h.stop()

	h2 := startHost(t, cwd)
	replay := h2.readStream(path, h2.starter, "", nil)
	checkContract(t, replay.events, "Should we adopt Rust?", agents, 2)
	if !reflect.DeepEqual(seedView(replay.events), seedView(whole.events)) {
		t.Fatalf("the replay of the finished room differs from the live stream:\n%v\n%v", seedView(replay.events), seedView(whole.events))
	}
}

// firstDiff shows where two streams part: the events around the first
// that differs, in each.
func firstDiff(a, b []sse) string {
	i := 0
	for i < len(a) && i < len(b) && reflect.DeepEqual(a[i], b[i]) {
		i++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "first difference at event %d\n", i)
	for j := max(0, i-3); j < i+5; j++ {
		fmt.Fprintf(&sb, "%3d  got  %s  id=%s\n     want %s  id=%s\n", j, at(a, j), idAt(a, j), at(b, j), idAt(b, j))
	}
	return sb.String()
}

func idAt(evs []sse, i int) string {
	if i >= len(evs) {
		return ""
	}
	return evs[i].ID
}
