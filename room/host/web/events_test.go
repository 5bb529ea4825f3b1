package web

import (
	"encoding/json"
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

// view is the events as "name data" lines.
func view(evs []event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.id() + " " + e.name + " " + string(e.data) + "\n")
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
2.3 token {"round":1,"agent":"A","text":"Hel"}
2.5 token {"round":1,"agent":"A","text":"lo"}
3.0 turn_end {"round":1,"agent":"A","full_text":"Hello"}`},
		{"whole", []Event{end("Hello <b>")}, `
2.9 token {"round":1,"agent":"A","text":"Hello \u003cb\u003e"}
3.0 turn_end {"round":1,"agent":"A","full_text":"Hello \u003cb\u003e"}`},
		{"rest", []Event{tok("A", "Hel"), end("Hello")}, `
2.3 token {"round":1,"agent":"A","text":"Hel"}
2.5 token {"round":1,"agent":"A","text":"lo"}
3.0 turn_end {"round":1,"agent":"A","full_text":"Hello"}`},
		{"rewritten", []Event{tok("A", "Hex"), end("Hello")}, `
2.3 token {"round":1,"agent":"A","text":"Hex"}
3.0 turn_end {"round":1,"agent":"A","full_text":"Hex"}
4.0 turn_meta {"round":1,"agent":"A","replaced":true}
5.0 turn_start {"round":1,"agent":"A"}
5.5 token {"round":1,"agent":"A","text":"Hello"}
6.0 turn_end {"round":1,"agent":"A","full_text":"Hello"}`},
	} {
		tr := newTranslator(false, "Moderator", nil)
		got := view(feed(tr, append([]Event{start, r1, tsA}, c.in...)...))
		head := "0.0 session_start {\"topic\":\"T\",\"agents\":[\"A\"],\"rounds\":1}\n1.0 round_start {\"round\":1}\n2.0 turn_start {\"round\":1,\"agent\":\"A\"}"
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
	got := view(feed(tr, start,
		Event{Type: evToken, Round: 1, Agent: "Moderator", Text: "Go"},
		Event{Type: evSummary, Round: 1, Model: "m", Text: "Go ahead", Usage: u},
		Event{Type: evDone, Usage: u},
	))
	want := `0.0 session_start {"topic":"T","agents":["A"],"rounds":1}
0.2 summary_token {"round":1,"agent":"Moderator","text":"Go"}
0.8 summary_token {"round":1,"agent":"Moderator","text":" ahead"}
1.0 summary {"text":"Go ahead"}
2.0 verdict {"round":1,"agent":"Moderator","model":"m","usage":{"prompt_tokens":3,"completion_tokens":4}}
3.0 usage {"usage":{"prompt_tokens":3,"completion_tokens":4}}
4.0 done {}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	tr = newTranslator(false, "Moderator", nil)
	got = view(feed(tr, Event{Type: evError, Text: "boom", Agent: "A", Round: 2}))
	want = `0.0 error_detail {"message":"boom","agent":"A","round":2}
1.0 error {"message":"boom"}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	tr = newTranslator(true, "Moderator", func() closedData { return closedData{Reason: "agreement reached", Spec: "SPEC-x.md"} })
	got = view(feed(tr, Event{Type: evError, Text: "agreement reached"}))
	want = `0.0 closed {"reason":"agreement reached","spec":"SPEC-x.md"}
1.0 done {}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestResumePosition: what a client at an ID has not had: the events
// after it, and a token it stands inside cut to the bytes it lacks (a log
// read with other pieces, as a new host reads a room).
func TestResumePosition(t *testing.T) {
	tr := newTranslator(false, "Moderator", nil)
	evs := feed(tr, start, r1, tsA, tok("A", "Héllo"), tok("A", " there"), end("Héllo there"))
	resume := func(id string) string {
		p, ok := parseID(id)
		if !ok {
			t.Fatalf("%q does not parse", id)
		}
		var b strings.Builder
		for i := range evs {
			if c, ok := evs[i].after(p); ok {
				var d struct{ Text string }
				_ = json.Unmarshal(c.data, &d)
				b.WriteString(c.name + ":" + d.Text + " ")
			}
		}
		return b.String()
	}
	for id, want := range map[string]string{
		"0.0":  "round_start: turn_start: token:Héllo token: there turn_end: ",
		"2.0":  "token:Héllo token: there turn_end: ",
		"2.6":  "token: there turn_end: ",
		"2.3":  "token:llo token: there turn_end: ",
		"2.9":  "token:ere turn_end: ",
		"2.12": "turn_end: ",
		"3.0":  "",
	} {
		if got := resume(id); got != want {
			t.Fatalf("after %s: %q, want %q", id, got, want)
		}
	}
	for _, bad := range []string{"", "3", "a.b", "-1.0", "1.-2", "1.2.3"} {
		if _, ok := parseID(bad); ok {
			t.Fatalf("%q parsed as an ID", bad)
		}
	}
}

// TestTranslatorHolders: a seat's holder is sent when it changes (an MCP
// room's seats, a debate's run), and never after the final event.
func TestTranslatorHolders(t *testing.T) {
	tr := newTranslator(true, "Moderator", nil)
	seen := map[string]room.Holder{}
	live := room.Holder{Known: true, PID: 7, Live: true}
	got := view(tr.holders(nil, map[string]room.Holder{"lead": live, "peer": {}}, seen, false))
	got += view(tr.holders(nil, map[string]room.Holder{"lead": live, "peer": {}}, seen, false))
	got += view(tr.holders(nil, map[string]room.Holder{"lead": {Known: true, PID: 7}, "peer": {}}, seen, false))
	want := `0.0 seat_state {"seat":"lead","held":true}
1.0 seat_state {"seat":"peer","held":false}
2.0 seat_state {"seat":"lead","held":false}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	tr = newTranslator(false, "Moderator", nil)
	seen = map[string]room.Holder{}
	got = view(tr.holders(nil, map[string]room.Holder{"": live}, seen, true))
	done := feed(tr, Event{Type: evDone})
	got += view(tr.holders(done, map[string]room.Holder{"": {}}, seen, true))
	want = `0.0 run_state {"running":true}
1.0 done {}
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
