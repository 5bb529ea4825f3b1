package prompts

import "strings"

// AndList joins words as a sentence lists them: "a", "a and b", "a, b
// and c"; "" for none. The prompts, the host's instructions, the debate's
// texts and the screens all list names this way.
func AndList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
