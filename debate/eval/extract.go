package eval

import (
	"regexp"
	"strings"
)

// Kind is how a question is scored.
type Kind int

// Kinds of question.
const (
	KindNumber Kind = iota // the answer is one number
	KindChoice             // multiple choice: the answer is a letter
	KindText               // anything else: normalised text
)

// KindOf is how q is scored: choices make it KindChoice, an answer that is
// one number KindNumber, any other answer KindText.
func KindOf(q Question) Kind {
	switch {
	case len(q.Choices) > 0:
		return KindChoice
	case isNumber(q.gold):
		return KindNumber
	}
	return KindText
}

func isNumber(s string) bool {
	n, ok := wholeNumber(s)
	return ok && n == s
}

// Score extracts the answer from reply and says whether it is q's.
func Score(q Question, reply string) (answer string, correct bool) {
	answer = Extract(q, reply)
	return answer, answer != "" && answer == q.gold
}

// Extract is the answer reply gives to q, in the form of q.Gold(): a
// letter, a canonical number or normalised text; "" when none is found.
// The rule is the package doc's.
func Extract(q Question, reply string) string {
	region, fromLine := finalAnswer(reply)
	switch KindOf(q) {
	case KindChoice:
		return choiceLetter(region, q.Choices, fromLine)
	case KindNumber:
		return lastNumber(region)
	case KindText:
	}
	if !fromLine {
		region = lastLine(region)
	}
	return normText(region)
}

var (
	// answerLineRe is a line "Answer: x", "**Final answer:** x", "answer
	// - x" after the marks that start a Markdown line.
	answerLineRe = regexp.MustCompile(`(?i)^(?:final\s+)?answer\s*[*_]*\s*[:：=]\s*(.*)$`)
	boxedRe      = regexp.MustCompile(`\\boxed\s*\{`)
)

// finalAnswer is the part of reply that holds the final answer: the last
// "Answer:" line (or the line after it when it is empty), then within it
// the last \boxed{…}; with no such line the last \boxed{…} of the reply,
// else the whole reply. fromLine says an answer line or a box was found.
func finalAnswer(reply string) (region string, fromLine bool) {
	lines := strings.Split(strings.ReplaceAll(reply, "\r\n", "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimLeft(strings.TrimSpace(lines[i]), "#>*_`- \t")
		m := answerLineRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		region = strings.TrimSpace(m[1])
		if strings.Trim(region, "*_` ") == "" {
			// "Answer:" alone: the answer is on the next line that says
			// anything.
			region = ""
			for _, next := range lines[i+1:] {
				if t := strings.TrimSpace(next); t != "" {
					region = t
					break
				}
			}
		}
		if b, ok := lastBoxed(region); ok {
			region = b
		}
		return region, true
	}
	if b, ok := lastBoxed(reply); ok {
		return b, true
	}
	return reply, false
}

// lastBoxed is the content of the last \boxed{…} in s, braces balanced.
func lastBoxed(s string) (string, bool) {
	locs := boxedRe.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return "", false
	}
	start := locs[len(locs)-1][1]
	depth := 1
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[start:i], true
			}
		}
	}
	return s[start:], true // an unclosed box: what follows it
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// numberRe is a number as written: digits with commas (1,234), a decimal
// part, a minus (ASCII or U+2212). Commas that do not group thousands
// (9,99) split it: see lastNumber.
var numberRe = regexp.MustCompile(`[-−]?(?:\d[\d,]*\d|\d)(?:\.\d+)?|[-−]?\.\d+`)

// thousandsRe is an integer part grouped by thousands commas.
var thousandsRe = regexp.MustCompile(`^[-−]?\d{1,3}(?:,\d{3})+$`)

// latexSpacing are LaTeX's ways of writing a thousands separator: 1{,}234
// and 1\,234.
var latexSpacing = strings.NewReplacer("{,}", ",", `\,`, "")

// lastNumber is the last number in s, canonical; "" when there is none. A
// minus right after a letter or digit (5-3, x-2) is a hyphen, not a sign;
// commas that do not group thousands separate numbers.
func lastNumber(s string) string {
	s = latexSpacing.Replace(s)
	locs := numberRe.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return ""
	}
	lo, hi := locs[len(locs)-1][0], locs[len(locs)-1][1]
	m := s[lo:hi]
	if strings.HasPrefix(m, "-") || strings.HasPrefix(m, "−") {
		if lo > 0 && isAlnum(s[lo-1]) {
			m = strings.TrimLeft(m, "-−")
		}
	}
	whole, _, _ := strings.Cut(m, ".")
	if strings.Contains(whole, ",") && !thousandsRe.MatchString(whole) {
		m = m[strings.LastIndex(m, ",")+1:]
	}
	return canonNumber(m)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// canonNumber writes a number one way: no thousands commas, no leading
// zeros, no trailing zeros after the point, no point without decimals, no
// plus, ASCII minus, and no minus on zero: "1,234.50" is "1234.5", "-0" is
// "0".
func canonNumber(m string) string {
	neg := false
	if r, ok := strings.CutPrefix(m, "−"); ok {
		m, neg = r, true
	} else if r, ok := strings.CutPrefix(m, "-"); ok {
		m, neg = r, true
	}
	m = strings.ReplaceAll(m, ",", "")
	whole, frac, _ := strings.Cut(m, ".")
	whole = strings.TrimLeft(whole, "0")
	frac = strings.TrimRight(frac, "0")
	if whole == "" {
		whole = "0"
	}
	out := whole
	if frac != "" {
		out += "." + frac
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out
}

// wholeNumber reads s as one number, as an expected answer is written
// ("1,234", "$12", "12%", "-3.5", "42."); ok is false for anything else.
func wholeNumber(s string) (string, bool) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(t, ".")
	t = strings.TrimSuffix(t, "%")
	t = strings.TrimPrefix(t, "+")
	if r, ok := strings.CutPrefix(t, "-$"); ok {
		t = "-" + r
	}
	t = strings.TrimPrefix(t, "$")
	if numberRe.FindString(t) != t || t == "" {
		return "", false
	}
	if whole, _, _ := strings.Cut(t, "."); strings.Contains(whole, ",") && !thousandsRe.MatchString(whole) {
		return "", false
	}
	return canonNumber(t), true
}

var (
	soleLetterRe    = regexp.MustCompile(`^\(?([A-Za-z])\)?$`)
	leadLetterRe    = regexp.MustCompile(`^\(?([A-Za-z])[).:]\s`)
	keywordLetterRe = regexp.MustCompile(`(?i)\b(?:option|choice|letter|answer(?:\s+is)?)\s*[:\-]?\s*\(?([A-Za-z])\)?(?:[^A-Za-z]|$)`)
	parenLetterRe   = regexp.MustCompile(`\(([A-Z])\)`)
	wordLetterRe    = regexp.MustCompile(`\b([A-Z])\b`)
)

// choiceLetter is the letter of the choice s picks, or "". In order: s is
// a letter alone ("B", "(b)", "B."); s starts with one ("B. Paris", "(B)
// Paris"); the last letter after option, choice, letter or "answer is";
// the last capital letter in parentheses; s is a choice's text, or holds
// the text of one choice only; and, on an answer line, the last capital
// letter standing alone. Letters beyond the choices are not answers.
func choiceLetter(s string, choices []string, fromLine bool) string {
	in := func(l string) string {
		l = strings.ToUpper(l)
		if len(l) == 1 && int(l[0]-'A') < len(choices) {
			return l
		}
		return ""
	}
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*_`"))
	tt := strings.TrimRight(t, ".:;!,")
	if m := soleLetterRe.FindStringSubmatch(tt); m != nil {
		return in(m[1])
	}
	if m := leadLetterRe.FindStringSubmatch(t); m != nil {
		if l := in(m[1]); l != "" {
			return l
		}
	}
	if l := lastIn(keywordLetterRe.FindAllStringSubmatch(t, -1), in); l != "" {
		return l
	}
	if l := lastIn(parenLetterRe.FindAllStringSubmatch(t, -1), in); l != "" {
		return l
	}
	nt := normText(t)
	found := ""
	for i, c := range choices {
		nc := normText(c)
		if nt == nc {
			return Letter(i)
		}
		if nc != "" && containsWords(nt, nc) {
			if found != "" {
				found = "-" // more than one choice named
			} else {
				found = Letter(i)
			}
		}
	}
	if found != "" && found != "-" {
		return found
	}
	if fromLine {
		return lastIn(wordLetterRe.FindAllStringSubmatch(t, -1), in)
	}
	return ""
}

func lastIn(ms [][]string, in func(string) string) string {
	for i := len(ms) - 1; i >= 0; i-- {
		if l := in(ms[i][1]); l != "" {
			return l
		}
	}
	return ""
}

// containsWords says whether words occur in s on word boundaries.
func containsWords(s, words string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], words)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(words)
		if (a == 0 || !isAlnum(s[a-1])) && (b == len(s) || !isAlnum(s[b])) {
			return true
		}
		i = a + 1
	}
}

// normText is s compared as text: lower case, Markdown emphasis and
// surrounding punctuation and quotes gone, runs of white space one space.
func normText(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.Trim(s, " .,;:!?\"'*_()[]")
}
