package eval

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestEvalExtractChoices(t *testing.T) {
	q := mustQuestion(t, `{"id":"c","question":"Capital of France?","choices":["Lyon","Paris","Marseille","Nice"],"answer":"B"}`)
	cases := []struct{ reply, want string }{
		{"Answer: B", "B"},
		{"Answer: b", "B"},
		{"Answer: (B)", "B"},
		{"Answer: B.", "B"},
		{"Answer: **B**", "B"},
		{"Answer: B) Paris", "B"},
		{"Answer: (B) Paris", "B"},
		{"Answer: B. Paris", "B"},
		{"Answer: Paris", "B"},                      // the choice's text
		{"Answer: paris.", "B"},                     // its text, any case
		{"Answer: The answer is (B)", "B"},          // words before
		{"Answer: option c", "C"},                   // after "option"
		{"Answer: I pick D", "D"},                   // a capital alone on the answer line
		{"Answer: E", ""},                           // beyond the choices
		{"Answer: Lyon or Paris", ""},               // two choices named: none
		{"Answer: \\boxed{C}", "C"},                 // a box
		{"Lyon is wrong.\nThe answer is (B).", "B"}, // no line: "answer is"
		{"I would say (C), not (A).", "A"},          // no line: the last capital in parentheses
		{"I am not sure.", ""},                      // a capital I in prose is not an answer
		{"Answer: I am not sure", ""},               // nor on the line when it is beyond the choices
		{"Answer: Marseille\n", "C"},                // text on the line
		{"Surely Nice.", "D"},                       // no line: the one choice named in the reply
		{"Answer:\nB", "B"},                         // the next line
		{"Choice: A\nAnswer: d", "D"},               // the Answer line wins
		{"Answer: a", "A"},                          // lower case a alone is the letter
		{"Answer: a city in France: Paris", "B"},    // an article "a" is not taken when a choice is named
	}
	for _, c := range cases {
		if got := Extract(q, c.reply); got != c.want {
			t.Errorf("Extract(%q) = %q, want %q", c.reply, got, c.want)
		}
	}
	// The expected answer may be written as the choice's text.
	q2 := mustQuestion(t, `{"id":"c","question":"?","choices":["Lyon","Paris"],"answer":" paris "}`)
	if q2.Gold() != "B" {
		t.Errorf("gold of answer \"paris\" = %q, want B", q2.Gold())
	}
}

func TestEvalExtractText(t *testing.T) {
	q := mustQuestion(t, `{"id":"t","question":"Who wrote Hamlet?","answer":"William Shakespeare"}`)
	if q.Gold() != "william shakespeare" {
		t.Fatalf("gold %q", q.Gold())
	}
	for reply, want := range map[string]bool{
		"Answer: **William  Shakespeare**.":     true,
		"It was, I think,\nwilliam shakespeare": true, // no line: the last line
		"Answer: Shakespeare":                   false,
		"Answer: William Shakespeare\nmaybe":    true,
	} {
		if _, ok := Score(q, reply); ok != want {
			t.Errorf("Score(%q) = %v, want %v", reply, ok, want)
		}
	}
}

func TestEvalScoreNumbers(t *testing.T) {
	q := mustQuestion(t, `{"id":"n","question":"?","answer":"$1,234.50"}`)
	if q.Gold() != "1234.5" || KindOf(q) != KindNumber {
		t.Fatalf("gold %q kind %v", q.Gold(), KindOf(q))
	}
	if _, ok := Score(q, "Answer: 1234.500"); !ok {
		t.Error("1234.500 is 1234.5")
	}
	if _, ok := Score(q, "Answer: 1234"); ok {
		t.Error("1234 is not 1234.5")
	}
	q2 := mustQuestion(t, `{"id":"n","question":"?","answer":"9,99"}`)
	if KindOf(q2) != KindText {
		t.Errorf("9,99 is not one number: kind %v", KindOf(q2))
	}
}

func TestEvalParseQuestions(t *testing.T) {
	good := `{"id":"a","question":"1+1?","answer":"2"}

{"id":"b","question":"Pick","choices":["x","y"],"answer":"y"}
`
	qs, err := ParseQuestions(strings.NewReader(good), "q.jsonl")
	if err != nil || len(qs) != 2 || qs[1].Gold() != "B" {
		t.Fatalf("%v %+v", err, qs)
	}
	bad := []struct{ text, want string }{
		{`{"id":"a","question":"?","answer":"1"}` + "\n" + `{"id":"a"`, "q.jsonl line 2: not a JSON object"},
		{`{"question":"?","answer":"1"}`, `line 1: no "id" field`},
		{`{"id":"a","answer":"1"}`, `line 1: no "question" field`},
		{`{"id":"a","question":"?"}`, `line 1: no "answer" field`},
		{`{"id":"a","question":"?","answer":"1"}` + "\n\n" + `{"id":"a","question":"?","answer":"2"}`, `line 3: id "a" already used on line 1`},
		{`{"id":"a","question":"?","answer":1}`, "line 1: json: cannot unmarshal number"},
		{`{"id":"a","question":"?","answer":"C","choices":["x","y"]}`, "line 1: the answer \"C\" of \"a\" is neither"},
		{`{"id":"a","question":"?","answer":"x","choices":["x"]}`, "line 1: \"a\" has 1 choices"},
		{`{"id":" ","question":"?","answer":"x"}`, "line 1: the id is empty"},
		{`[1,2]`, "line 1: not a JSON object"},
		{"\n\n", "has no questions"},
	}
	for _, c := range bad {
		_, err := ParseQuestions(strings.NewReader(c.text), "q.jsonl")
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBadQuestions) {
			t.Errorf("ParseQuestions(%q) = %v, want an ErrBadQuestions containing %q", c.text, err, c.want)
		}
	}
	if _, err := LoadQuestions("testdata/nosuch.jsonl"); !errors.Is(err, ErrBadQuestions) ||
		!strings.Contains(err.Error(), "testdata/nosuch.jsonl does not exist; give --questions a JSONL file") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestEvalParseArms(t *testing.T) {
	arms, err := ParseArms(" single, vote:05 ,debate")
	if err != nil || len(arms) != 3 || !reflect.DeepEqual(arms[1], Arm{Name: "vote:5", Kind: ArmVote, K: 5}) || arms[2].Kind != ArmDebate {
		t.Fatalf("%v %+v", err, arms)
	}
	// An arm's own models, case kept, blanks dropped; two arms of one kind
	// with other models are two arms.
	arms, err = ParseArms("Vote:3=Qwen/Qwen2.5-7B + llama3.1:8b,vote:3=gpt-4o-mini, debate = a+b+ +c")
	want := []Arm{
		{Name: "vote:3=Qwen/Qwen2.5-7B+llama3.1:8b", Kind: ArmVote, K: 3, Models: []string{"Qwen/Qwen2.5-7B", "llama3.1:8b"}},
		{Name: "vote:3=gpt-4o-mini", Kind: ArmVote, K: 3, Models: []string{"gpt-4o-mini"}},
		{Name: "debate=a+b+c", Kind: ArmDebate, Models: []string{"a", "b", "c"}},
	}
	if err != nil || !reflect.DeepEqual(arms, want) {
		t.Fatalf("%v\n got %+v\nwant %+v", err, arms, want)
	}
	for _, s := range []string{
		"", "single,single", "vote", "vote:0", "vote:x", "vote:65", "debates", "vote:5,vote:5",
		"debate=", "debate= + ", "=a", "debate=a,debate=a", "nope=a",
	} {
		if _, err := ParseArms(s); !errors.Is(err, ErrBadArms) {
			t.Errorf("ParseArms(%q) = %v, want ErrBadArms", s, err)
		}
	}
}
