package prompts

import (
	"strconv"
	"strings"
)

// AndList joins words as a sentence lists them: "a", "a and b", "a, b
// and c"; "" for none. The prompts, the host's instructions, the debate's
// texts and the screens all list names this way.
func AndList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Dollars writes an amount of dollars as screens, the host and the texts
// show it: "$0.0123" below a dollar, "$1.23" from there.
func Dollars(d float64) string {
	if d < 1 {
		return "$" + strconv.FormatFloat(d, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(d, 'f', 2, 64)
}
