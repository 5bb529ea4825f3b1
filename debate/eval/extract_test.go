package eval

import (
	"strings"
	"testing"
)

func mustQuestion(t *testing.T, line string) Question {
	t.Helper()
	qs, err := ParseQuestions(strings.NewReader(line), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return qs[0]
}

func TestEvalExtractNumbers(t *testing.T) {
	q := mustQuestion(t, `{"id":"n","question":"How many?","answer":"1234"}`)
	cases := []struct{ reply, want string }{
		{"Answer: 1234", "1234"},
		{"Answer: 1,234", "1234"},
		{"Answer: $1,234.00", "1234"},
		{"Answer: 1234.", "1234"},
		{"We add 1000 and 234.\n\n**Answer:** **1234**", "1234"},
		{"## Final answer: 1234 apples", "1234"},
		{"Answer:\n\n1234\n", "1234"},
		{"I first thought 12, then 1234.\nAnswer: 99\nWait, no.", "99"}, // the Answer line wins over later prose
		{"Answer: 5\nAnswer: 1234", "1234"},                             // the last Answer line
		{"so the total is \\boxed{1234}.", "1234"},                      // LaTeX box, no Answer line
		{"Answer: \\boxed{\\frac{1}{2}} is not 7 or 1234", "2"},         // a box inside the line wins; its last number
		{"The result is 12% of 50, that is 6.", "6"},                    // no Answer line: the last number
		{"Answer: 12%", "12"},                                           // percent sign
		{"Answer: -3.5", "-3.5"},                                        // negative decimal
		{"Answer: −3.50", "-3.5"},                                       // Unicode minus, trailing zero
		{"Answer: 10-12", "12"},                                         // a hyphen, not a sign
		{"Answer: 007", "7"},                                            // leading zeros
		{"Answer: -0", "0"},                                             // no negative zero
		{"I cannot tell.", ""},                                          // no number
		{"", ""},                                                        // nothing at all
		{"answer = 42", "42"},                                           // lower case, equals sign
		{"> Answer: 3 + 4 = **7**.", "7"},                               // quoted, bold
		{"Answer: .5", "0.5"},                                           // no leading digit
		{"Answer: 1,234,567", "1234567"},                                // several groups
		{"The answer: 12 items at $3 each\nAnswer: 36 (12 × 3)", "3"},   // the rule is the last number, even here
		{"\\boxed{41} was wrong; \\boxed{42}", "42"},                    // the last box
		{"Answer: \\boxed{1{,}234}", "1234"},                            // LaTeX's {,} thousands comma
		{"Answer: \\boxed{1\\,234}", "1234"},                            // LaTeX's thin space
		{"Steps: 5-3=2\nAnswer: 2", "2"},                                // prose before the line is ignored
		{"Answer: forty-two", ""},                                       // words are not numbers
		{"Answer: 3.14.", "3.14"},                                       // trailing period after decimals
		{"ANSWER: +8", "8"},                                             // plus sign, capitals
		{"text\r\nAnswer: 1234\r\n", "1234"},                            // CRLF
		{"Answer: 1234\n\nAnswer:", ""},                                 // an empty last Answer line with nothing after
		{"Answer:  \n  \n 77 \n", "77"},                                 // the answer on the line after
		{"The answer is 1234, final.", "1234"},                          // no Answer line, last number
		{"Therefore 2 + 2 = 4. So we have 1 answer", "1"},               // last number in the whole reply
		{"Answer: x-2 where x is 5", "5"},                               // hyphen after a letter
		{"answer: 9,99", "99"},                                          // not a thousands group: two numbers
		{"Answer: 1,2345", "2345"},                                      // not a thousands group either
		{"Answer: 2024-01-05", "5"},                                     // a date: its last number
		{"Answer: $-12", "-12"},                                         // dollar then minus
		{"Answer: -$12", "12"},                                          // minus before the dollar is not read
		{"Answer: 12.", "12"},                                           // trailing period
		{"Answer: 12.0", "12"},                                          // trailing zero decimal
		{"Answer: 0.50", "0.5"},                                         // trailing zero
		{"Answer: **1234**\n\nHope this helps!", "1234"},                // closing prose
		{"Answer: `1234`", "1234"},                                      // code span
		{"* Answer: 1234", "1234"},                                      // list item
		{"Answer:1234", "1234"},                                         // no space
		{"Final Answer: 1234", "1234"},                                  // final answer
		{"My answer: 5. Answer: 1234", "1234"},                          // no line starts with Answer: the last number
		{"answer\uff1a 1234", "1234"},                                   // full-width colon
		{"Answer: 1 234", "234"},                                        // a space is not a thousands separator
		{"Answer: 12e3", "3"},                                           // no exponent notation
		{"Answer: Ⅻ", ""},                                               // no roman numerals
		{strings.Repeat("1 ", 1000) + "Answer: 1234", "1234"},           // long reply
		{"Answer: 1234\n" + strings.Repeat("more 5 ", 10), "1234"},      // numbers after the line do not count
		{"answer: the number of apples is 1234", "1234"},                // words in the line
		{"Answer: (1234)", "1234"},                                      // parentheses
		{"Answer: 1234 dollars.", "1234"},                               // unit after
		{"Answer: -1,234.5", "-1234.5"},                                 // all at once
		{"__Answer__: 1234", "1234"},                                    // underscores
		{"Answer - 1234", "1234"},                                       // a dash is no colon: the last number; a minus before a space is no sign
	}
	for _, c := range cases {
		got := Extract(q, c.reply)
		if got != c.want {
			t.Errorf("Extract(%q) = %q, want %q", c.reply, got, c.want)
		}
	}
}
