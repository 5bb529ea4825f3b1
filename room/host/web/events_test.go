package web

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func feed(tr *translator, evs ...Event) []event {
	var out []event
	for _, e := range evs {
		out = tr.add(out, e)
	}
	return out
}

// lines is the events as "name data" lines.
func lines(evs []event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.name + " " + string(e.data) + "\n")
	}
	return b.String()
}

var (
	start = Event{Type: evSessionStart, Topic: "T", Agents: []string{"A"}, Rounds: 1}
	r1    = Event{Type: evRoundStart, Round: 1}
	tsA   = Event{Type: evTurnStart, Round: 1, Agent: "A"}
)

func tok(agent, text string) Event {
	return Event{Type: evToken, Round: 1, Agent: agent, Text: text}
}

func end(text string) Event {
	return Event{Type: evTurnEnd, Round: 1, Agent: "A", Text: text}
}

// TestTranslatorTurns: a turn's tokens add up to its full_text however it
// was read: streamed in pieces, read whole (a finished room: one token of
// all of it), ended after more was said than the last token (the rest as
// one token), or, should its text not extend what was sent, what was
// sent as a turn of its own (replaced) and the whole text as a new turn:
// no event takes back a token.
func TestTranslatorTurns(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []Event
		want string
	}{
		{"streamed", []Event{tok("A", "Hel"), tok("A", "lo"), end("Hello")}, `
token {"round":1,"agent":"A","text":"Hel"}
token {"round":1,"agent":"A","text":"lo"}
turn_end {"round":1,"agent":"A","full_text":"Hello"}`},
		{"whole", []Event{end("Hello <b>")}, `
token {"round":1,"agent":"A","text":"Hello \u003cb\u003e"}
turn_end {"round":1,"agent":"A","full_text":"Hello \u003cb\u003e"}`},
		{"rest", []Event{tok("A", "Hel"), end("Hello")}, `
token {"round":1,"agent":"A","text":"Hel"}
token {"round":1,"agent":"A","text":"lo"}
turn_end {"round":1,"agent":"A","full_text":"Hello"}`},
		{"rewritten", []Event{tok("A", "Hex"), end("Hello")}, `
token {"round":1,"agent":"A","text":"Hex"}
turn_end {"round":1,"agent":"A","full_text":"Hex"}
turn_meta {"round":1,"agent":"A","replaced":true}
turn_start {"round":1,"agent":"A"}
token {"round":1,"agent":"A","text":"Hello"}
turn_end {"round":1,"agent":"A","full_text":"Hello"}`},
	} {
		tr := newTranslator(false, "Moderator", nil)
		got := lines(feed(tr, append([]Event{start, r1, tsA}, c.in...)...))
		head := "session_start {\"topic\":\"T\",\"agents\":[\"A\"],\"rounds\":1}\nround_start {\"round\":1}\nturn_start {\"round\":1,\"agent\":\"A\"}"
		if want := head + c.want + "\n"; got != want {
			t.Fatalf("%s:\n%s\nwant:\n%s", c.name, got, want)
		}
	}
}

// TestTranslatorVerdictAndEnds: the moderator's streamed verdict comes as
// summary_token (outside any turn), adding up to summary.text; done and
// error carry exactly the seed's keys, the rest in events before them; an
// MCP room's close is a closed event and done.
func TestTranslatorVerdictAndEnds(t *testing.T) {
	u := &Usage{PromptTokens: 3, CompletionTokens: 4}
	tr := newTranslator(false, "Moderator", nil)
	got := lines(feed(tr, start,
		Event{Type: evToken, Round: 1, Agent: "Moderator", Text: "Go"},
		Event{Type: evSummary, Round: 1, Model: "m", Text: "Go ahead", Usage: u},
		Event{Type: evDone, Usage: u},
	))
	want := `session_start {"topic":"T","agents":["A"],"rounds":1}
summary_token {"round":1,"agent":"Moderator","text":"Go"}
summary_token {"round":1,"agent":"Moderator","text":" ahead"}
summary {"text":"Go ahead"}
verdict {"round":1,"agent":"Moderator","model":"m","usage":{"prompt_tokens":3,"completion_tokens":4}}
usage {"usage":{"prompt_tokens":3,"completion_tokens":4}}
done {}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	tr = newTranslator(false, "Moderator", nil)
	got = lines(feed(tr, Event{Type: evError, Text: "boom", Agent: "A", Round: 2}))
	want = `error_detail {"message":"boom","agent":"A","round":2}
error {"message":"boom"}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	tr = newTranslator(true, "Moderator", func() closedData { return closedData{Reason: "agreement reached", Spec: "SPEC-x.md"} })
	got = lines(feed(tr, Event{Type: evError, Text: "agreement reached"}))
	want = `closed {"reason":"agreement reached","spec":"SPEC-x.md"}
done {}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// logOf is the stream's log of evs as a hub keeps it, each event with
// its ID.
func logOf(evs ...Event) []event {
	h := newHub(newNames([]string{"", "A", "B", "Moderator"}))
	tr := newTranslator(false, "Moderator", nil)
	h.push(feed(tr, evs...), false)
	out, _, _ := h.look(0)
	return out
}

// TestResumeView: a client that had the live log up to any event and
// comes back with that event's ID gets from a log read again (turns whole,
// a note in another place, as a new host reads the room) exactly what it
// lacks: every turn's tokens then add up to its full_text, and nothing
// comes twice or is missed.
func TestResumeView(t *testing.T) {
	tsB := Event{Type: evTurnStart, Round: 1, Agent: "B", Model: "m"}
	end := func(agent, text string, seq int) Event {
		return Event{Type: evTurnEnd, Round: 1, Agent: agent, Text: text, Seq: seq}
	}
	note := Event{Type: evNote, Round: 1, From: "user", Text: "mind the cost", Seq: 1}
	rankA := Event{Type: evRanking, Round: 1, Agent: "A", Text: "FINAL RANKING: A", Ranking: []string{"B"}, Seq: 3}
	rankB := Event{Type: evRanking, Round: 1, Agent: "B", Text: "FINAL RANKING: A", Ranking: []string{"A"}, Seq: 4}
	live := logOf(start, r1, tsA, tok("A", "Héllo"), tok("A", " there"), end("A", "Héllo there", 1),
		Event{Type: evTurnStart, Round: 1, Agent: "B", Model: "m"},
		Event{Type: evActivity, Round: 1, Agent: "B", Kind: "tool", Text: "read", Line: 1},
		tok("B", "Sure"), note, tok("B", ", why"), end("B", "Sure, why not", 2),
		Event{Type: evRoundEnd, Round: 1}, rankA, rankB,
		Event{Type: evToken, Round: 1, Agent: "Moderator", Text: "Go"},
		Event{Type: evSummary, Round: 1, Text: "Go ahead", Seq: 5},
		Event{Type: evDone})
	tsA1, tsB1 := tsA, tsB
	tsA1.Seq, tsB1.Seq = 1, 2
	rebuilt := logOf(start, r1, tsA1, Event{Type: evToken, Round: 1, Agent: "A", Text: "Héllo there", Seq: 1}, end("A", "Héllo there", 1),
		note, tsB1,
		Event{Type: evActivity, Round: 1, Agent: "B", Kind: "tool", Text: "read", Line: 1, Seq: 2},
		Event{Type: evToken, Round: 1, Agent: "B", Text: "Sure, why not", Seq: 2}, end("B", "Sure, why not", 2),
		Event{Type: evRoundEnd, Round: 1}, rankA, rankB,
		Event{Type: evSummary, Round: 1, Text: "Go ahead", Seq: 5},
		Event{Type: evDone})
	ns := newNames([]string{"", "A", "B", "Moderator"})
	for _, again := range [][]event{live, rebuilt} {
		for k := range live {
			v, ok := parseView(live[k].id, ns)
			if !ok {
				t.Fatalf("ID %q does not parse", live[k].id)
			}
			got := slices.Clone(live[:k+1])
			for i := range again {
				if c, ok := v.take(&again[i]); ok {
					got = append(got, c)
				}
			}
			checkWhole(t, fmt.Sprintf("after %s (%d)", live[k].id, k), got)
		}
	}
	for _, bad := range []string{"", "3", "a.b", "1.2", "0.0.0.0.0.0.0.0.0.0.-1", "0.0.0.0.0.0.0.0.0.0.0-9.1.0.0.0.0.0.0", strings.Repeat("1", 2000)} {
		if _, ok := parseView(bad, ns); ok {
			t.Fatalf("%q parsed as an ID", bad)
		}
	}
}

// TestResumeAfterHolderFlips: a debate's run seen not yet held, then held
// (the host looked before the debate's process locked its run), is in the
// log twice; a client that had both and resumes from any later event is
// sent neither again: the resumed stream joins into the live one exactly
// (one that left before either is sent where the run stands now).
// It failed in CI as two extra run_state events (TestStreamContract).
func TestResumeAfterHolderFlips(t *testing.T) {
	tr := newTranslator(false, "Moderator", nil)
	live := feed(tr, start, r1)
	seen := map[string]room.Holder{}
	live = tr.holders(live, map[string]room.Holder{"": {Live: false}}, seen, true)
	live = tr.holders(live, map[string]room.Holder{"": {Live: true}}, seen, true)
	live = append(live, feed(tr, tsA, tok("A", "Hello"), tok("A", " there"),
		Event{Type: evTurnEnd, Round: 1, Agent: "A", Text: "Hello there", Seq: 1}, Event{Type: evDone})...)
	h := newHub(newNames([]string{"", "A", "Moderator"}))
	h.push(live, false)
	live, _, _ = h.look(0)
	if n := strings.Count(lines(live), evRunState); n != 2 {
		t.Fatalf("the log has %d run_state events, want 2:\n%s", n, lines(live))
	}
	for k := range live[:len(live)-1] {
		v, ok := parseView(live[k].id, h.names)
		if !ok {
			t.Fatalf("ID %q does not parse", live[k].id)
		}
		// The log as the client finds it, then one event more.
		rs := &resumer{v: v, ns: h.names}
		got := append(slices.Clone(live[:k+1]), rs.next(live[:len(live)-1])...)
		got = append(got, rs.next(live[len(live)-1:])...)
		// A client that left before the run was first seen is told only
		// where it stands now.
		want := live
		if k < 2 {
			want = slices.Delete(slices.Clone(live), 2, 3)
		}
		if lines(got) != lines(want) {
			t.Fatalf("resumed after %s (%d):\n%s\nwant\n%s", live[k].name, k, lines(got), lines(want))
		}
	}
	// A client that had only "not held" is told it is held now.
	v, _ := parseView(live[2].id, h.names)
	if !lacksAny(v, live[:4]) {
		t.Fatal("a client that saw the run not held was not told it is held now")
	}
}

// checkWhole checks that evs hold every turn once, its tokens adding up to
// its full_text, every note, round and verdict once, and one done last.
func checkWhole(t *testing.T, at string, evs []event) {
	t.Helper()
	var b strings.Builder
	var ends, notes, rounds, summaries, ranks []string
	verdict := ""
	for _, e := range evs {
		switch e.name {
		case evTurnStart:
			b.Reset()
		case evToken:
			b.WriteString(e.text)
		case evSummaryToken:
			verdict += e.text
		case evTurnEnd:
			var d turnEndData
			_ = json.Unmarshal(e.data, &d)
			if d.FullText != b.String() {
				t.Fatalf("%s: %s's tokens %q, its full_text %q", at, d.Agent, b.String(), d.FullText)
			}
			ends = append(ends, d.Agent)
		case evNote:
			notes = append(notes, string(e.data))
		case evRoundStart, evRoundEnd:
			rounds = append(rounds, e.name)
		case evSummary:
			summaries = append(summaries, string(e.data))
		case evRanking:
			var d rankingData
			_ = json.Unmarshal(e.data, &d)
			ranks = append(ranks, d.Agent+">"+strings.Join(d.Ranking, ","))
		}
	}
	if fmt.Sprint(ends, len(notes), rounds, len(summaries), ranks) != "[A B] 1 [round_start round_end] 1 [A>B B>A]" || verdict != "Go ahead" || evs[len(evs)-1].name != evDone {
		t.Fatalf("%s: turns %v, notes %v, rounds %v, verdict %q, last %s", at, ends, notes, rounds, verdict, evs[len(evs)-1].name)
	}
}

// TestTranslatorHolders: a seat's holder is sent when it changes (an MCP
// room's seats, a debate's run), and never after the final event.
func TestTranslatorHolders(t *testing.T) {
	tr := newTranslator(true, "Moderator", nil)
	seen := map[string]room.Holder{}
	live := room.Holder{Known: true, PID: 7, Live: true}
	got := lines(tr.holders(nil, map[string]room.Holder{"lead": live, "peer": {}}, seen, false))
	got += lines(tr.holders(nil, map[string]room.Holder{"lead": live, "peer": {}}, seen, false))
	got += lines(tr.holders(nil, map[string]room.Holder{"lead": {Known: true, PID: 7}, "peer": {}}, seen, false))
	want := `seat_state {"seat":"lead","held":true}
seat_state {"seat":"peer","held":false}
seat_state {"seat":"lead","held":false}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	tr = newTranslator(false, "Moderator", nil)
	seen = map[string]room.Holder{}
	got = lines(tr.holders(nil, map[string]room.Holder{"": live}, seen, true))
	done := feed(tr, Event{Type: evDone})
	got += lines(tr.holders(done, map[string]room.Holder{"": {}}, seen, true))
	want = `run_state {"running":true}
done {}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
