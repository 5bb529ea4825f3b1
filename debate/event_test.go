package debate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestEventJSON(t *testing.T) {
	yes := true
	u := &Usage{PromptTokens: 10, CompletionTokens: 4, Cost: 0.001}
	tests := []struct {
		ev   Event
		want string
	}{
		{
			Event{Type: EventSessionStart, Topic: "A & <B>", Agents: []string{"PM", "Arch"}, Rounds: 3, Provider: "mock"},
			`{"event":"session_start","data":{"topic":"A & <B>","agents":["PM","Arch"],"rounds":3,"provider":"mock"}}`,
		},
		{Event{Type: EventRoundStart, Round: 1}, `{"event":"round_start","data":{"round":1}}`},
		{Event{Type: EventTurnStart, Round: 1, Agent: "PM", Model: "mock"}, `{"event":"turn_start","data":{"round":1,"agent":"PM","model":"mock"}}`},
		{
			Event{Type: EventRetry, Round: 2, Agent: "PM", Text: "HTTP 503", Status: 503, Attempt: 2, Attempts: 4, Wait: 1500 * time.Millisecond},
			`{"event":"retry","data":{"round":2,"agent":"PM","reason":"HTTP 503","status":503,"attempt":2,"max_attempts":4,"wait_ms":1500}}`,
		},
		{
			Event{Type: EventRetry, Round: 1, Agent: "Moderator", Text: "a dropped connection", Attempt: 3, Attempts: 4},
			`{"event":"retry","data":{"round":1,"agent":"Moderator","reason":"a dropped connection","attempt":3,"max_attempts":4,"wait_ms":0}}`,
		},
		{Event{Type: EventToken, Round: 1, Agent: "PM", Text: " hi"}, `{"event":"token","data":{"round":1,"agent":"PM","text":" hi"}}`},
		{Event{Type: EventToken, Round: 2, Agent: "PM"}, `{"event":"token","data":{"round":2,"agent":"PM","text":""}}`},
		{
			Event{Type: EventTurnEnd, Round: 1, Agent: "PM", Text: "hi", Model: "mock", Usage: u},
			`{"event":"turn_end","data":{"round":1,"agent":"PM","full_text":"hi","model":"mock","usage":{"prompt_tokens":10,"completion_tokens":4,"cost":0.001}}}`,
		},
		{
			Event{Type: EventTurnEnd, Round: 2, Agent: "PM", Incomplete: true},
			`{"event":"turn_end","data":{"round":2,"agent":"PM","full_text":"","incomplete":true}}`,
		},
		{Event{Type: EventRoundEnd, Round: 1}, `{"event":"round_end","data":{"round":1}}`},
		{Event{Type: EventRoundEnd, Round: 2, Consensus: &yes}, `{"event":"round_end","data":{"round":2,"consensus":true}}`},
		{
			Event{Type: EventRanking, Round: 2, Agent: "PM", Model: "mock", Text: "B is best.\n\nFINAL RANKING: B, A", Ranking: []string{"Sec", "Arch"}, Usage: u},
			`{"event":"ranking","data":{"round":2,"agent":"PM","text":"B is best.\n\nFINAL RANKING: B, A","ranking":["Sec","Arch"],"model":"mock","usage":{"prompt_tokens":10,"completion_tokens":4,"cost":0.001}}}`,
		},
		{
			Event{Type: EventRanking, Round: 1, Agent: "PM", Text: "no idea", Ranking: []string{}},
			`{"event":"ranking","data":{"round":1,"agent":"PM","text":"no idea","ranking":[]}}`,
		},
		{Event{Type: EventSummary, Text: "**Decision:** go", Round: 3, Model: "mock"}, `{"event":"summary","data":{"text":"**Decision:** go","round":3,"model":"mock"}}`},
		{Event{Type: EventDone}, `{"event":"done","data":{}}`},
		{Event{Type: EventDone, Usage: &Usage{PromptTokens: 1}}, `{"event":"done","data":{"usage":{"prompt_tokens":1,"completion_tokens":0}}}`},
		{Event{Type: EventError, Text: CancelledMessage}, `{"event":"error","data":{"message":"cancelled"}}`},
		{
			Event{Type: EventError, Text: "x failed", Agent: "PM", Round: 2, Provider: "openai"},
			`{"event":"error","data":{"message":"x failed","agent":"PM","round":2,"provider":"openai"}}`,
		},
	}
	for _, tt := range tests {
		// As the headless jsonl writer does: <, > and & stay themselves.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tt.ev); err != nil {
			t.Fatalf("%s: %v", tt.ev.Type, err)
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if string(b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.ev.Type, b, tt.want)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: unmarshal: %v", tt.ev.Type, err)
		}
		if !reflect.DeepEqual(back, tt.ev) {
			t.Errorf("%s: round trip gave %+v, want %+v", tt.ev.Type, back, tt.ev)
		}
	}
}

func TestEventJSONRejectsUnknown(t *testing.T) {
	if _, err := json.Marshal(Event{Type: "nope"}); err == nil {
		t.Error("marshaled an unknown event type")
	}
	var ev Event
	for _, in := range []string{`{"event":"nope","data":{}}`, `not json`, `{"event":"token","data":[1]}`} {
		if err := json.Unmarshal([]byte(in), &ev); err == nil {
			t.Errorf("unmarshaled %s", in)
		}
	}
}
