package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// ErrBadQuestions marks a questions file that cannot be used: it does not
// exist, or a line of it is not a question. A command line exits 2 on it.
var ErrBadQuestions = errors.New("bad questions file")

// Question is one line of a questions file.
type Question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Answer   string   `json:"answer"`
	Choices  []string `json:"choices,omitempty"`

	// gold is Answer as extracted answers are compared with it: a letter
	// for a multiple-choice question, a canonical number, or normalised
	// text.
	gold string
}

// Gold is the expected answer in the form Extract gives.
func (q Question) Gold() string { return q.gold }

// Letter is the letter of choice i (from 0): A, B, C and so on.
func Letter(i int) string { return string(rune('A' + i)) }

// maxChoices is how many choices a question may have (A to Z).
const maxChoices = 26

// LoadQuestions reads a questions file (JSONL); errors wrap
// ErrBadQuestions and name the file and line.
func LoadQuestions(path string) ([]Question, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf(`%w: %s does not exist; give --questions a JSONL file, one {"id", "question", "answer"} a line (docs/eval.md shows one)`, ErrBadQuestions, path)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadQuestions, err)
	}
	return ParseQuestions(bytes.NewReader(data), path)
}

// ParseQuestions reads questions, one JSON object a line ({"id",
// "question", "answer"} and optional "choices"); blank lines are skipped.
// name names the source in errors.
func ParseQuestions(r io.Reader, name string) ([]Question, error) {
	var qs []Question
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: %s line %d: %s", ErrBadQuestions, name, n, fmt.Sprintf(format, args...))
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, bad("not a JSON object (%v)", err)
		}
		for _, f := range []string{"id", "question", "answer"} {
			if _, ok := raw[f]; !ok {
				return nil, bad("no %q field; each line needs \"id\", \"question\" and \"answer\"", f)
			}
		}
		var q Question
		dec := json.NewDecoder(bytes.NewReader(line))
		if err := dec.Decode(&q); err != nil {
			return nil, bad("%v (id, question and answer are strings, choices an array of strings)", err)
		}
		q.ID, q.Question, q.Answer = strings.TrimSpace(q.ID), strings.TrimSpace(q.Question), strings.TrimSpace(q.Answer)
		switch {
		case q.ID == "":
			return nil, bad("the id is empty")
		case q.Question == "":
			return nil, bad("question %q is empty", q.ID)
		case q.Answer == "":
			return nil, bad("the answer of %q is empty", q.ID)
		case len(q.Choices) == 1 || len(q.Choices) > maxChoices:
			return nil, bad("%q has %d choices; give 2 to %d", q.ID, len(q.Choices), maxChoices)
		}
		if prev, dup := seen[q.ID]; dup {
			return nil, bad("id %q already used on line %d", q.ID, prev)
		}
		seen[q.ID] = n
		for i, c := range q.Choices {
			if strings.TrimSpace(c) == "" {
				return nil, bad("choice %s of %q is empty", Letter(i), q.ID)
			}
		}
		q.gold = goldOf(q)
		if q.gold == "" {
			return nil, bad("the answer %q of %q is neither a choice's letter nor a choice's text", q.Answer, q.ID)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadQuestions, name, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%w: %s has no questions", ErrBadQuestions, name)
	}
	return qs, nil
}

// goldOf is q's answer in the form Extract gives: for a multiple-choice
// question the letter (the answer is a letter, or a choice's text); else a
// canonical number when the answer is one number, else normalised text.
func goldOf(q Question) string {
	if len(q.Choices) > 0 {
		a := strings.ToUpper(strings.Trim(q.Answer, " ().:"))
		if len(a) == 1 && a[0] >= 'A' && int(a[0]-'A') < len(q.Choices) {
			return a
		}
		for i, c := range q.Choices {
			if normText(c) == normText(q.Answer) {
				return Letter(i)
			}
		}
		return ""
	}
	if n, ok := wholeNumber(q.Answer); ok {
		return n
	}
	return normText(q.Answer)
}
