package debate

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// topicWords is how the mock talks about a topic: "Should we adopt GraphQL?"
// gives action "adopt GraphQL", gerund "adopting GraphQL" and thing
// "GraphQL" (or "this change" when the object is long).
type topicWords struct {
	Raw    string
	Action string
	Gerund string
	Thing  string
}

// questionPrefixes are stripped from a topic to find the proposed action.
var questionPrefixes = []string{
	"should we really ", "should we ", "should i ", "should the team ", "should our team ",
	"should our company ", "should the company ", "should they ", "shall we ", "do we ", "can we ",
	"could we ", "would it be wise to ", "is it wise to ", "is it time to ", "is it worth it to ",
	"is it a good idea to ", "is it worth ", "why not ", "we should ", "let's ", "lets ",
	"whether to ", "whether we should ", "time to ", "proposal: ", "proposal to ",
}

// knownVerbs start an imperative topic ("Migrate to Kubernetes").
var knownVerbs = map[string]bool{
	"adopt": true, "use": true, "move": true, "migrate": true, "rewrite": true, "switch": true,
	"replace": true, "build": true, "buy": true, "add": true, "remove": true, "drop": true,
	"introduce": true, "split": true, "merge": true, "ship": true, "launch": true, "deprecate": true,
	"allow": true, "require": true, "enable": true, "disable": true, "hire": true, "outsource": true,
	"keep": true, "stop": true, "start": true, "invest": true, "standardize": true,
	"consolidate": true, "upgrade": true, "self-host": true, "host": true, "support": true,
	"offer": true, "roll": true, "open-source": true, "go": true, "make": true, "run": true,
	"centralize": true, "decentralize": true, "automate": true, "ban": true, "deploy": true,
	"refactor": true, "extract": true, "retire": true, "sunset": true, "embrace": true, "try": true,
	"pilot": true, "fork": true, "cache": true, "encrypt": true, "charge": true, "price": true,
}

var (
	worthItRE = regexp.MustCompile(`(?i)^is (.+?) worth it$`)
	versusRE  = regexp.MustCompile(`(?i)^(.+?)\s+(?:vs\.?|versus|or)\s+(.+)$`)
	prepRE    = regexp.MustCompile(`(?i)^(?:to|on|onto|into|from|off|in|with|for|over|away from|up|out|back to)\s+`)
	// stateRE reads a question about how something should be, "Should the
	// cache be write-through", as its subject, verb and the rest.
	stateRE = regexp.MustCompile(`(?i)^(?:should|shall|must|can|could|would|will)\s+(.+?)\s+(be|become|stay|remain|use|have|support|run|move|go)\s+(.+)$`)
)

func parseTopic(raw string) topicWords {
	t := strings.TrimSpace(raw)
	t = strings.TrimRight(t, "?!. ")
	w := topicWords{Raw: t}
	if t == "" {
		t = "the proposal"
	}
	rest, stripped := t, false
	low := strings.ToLower(t)
	for _, p := range questionPrefixes {
		if strings.HasPrefix(low, p) {
			rest, stripped = t[len(p):], true
			break
		}
	}
	if m := worthItRE.FindStringSubmatch(rest); m != nil {
		rest, stripped = "invest in "+m[1], true
	}
	if m := stateRE.FindStringSubmatch(rest); m != nil && !stripped {
		subj, verb, obj := lowerFirst(m[1]), strings.ToLower(m[2]), m[3]
		lead, ing := "have", "having"
		switch verb {
		case "be", "become":
			lead, ing, verb = "make", "making", ""
		case "stay", "remain":
			lead, ing, verb = "keep", "keeping", ""
		}
		tail := strings.Join(strings.Fields(subj+" "+verb+" "+obj), " ")
		w.Action, w.Gerund, w.Thing = lead+" "+tail, ing+" "+tail, thingOf(subj)
		return w
	}
	first, tail, _ := strings.Cut(rest, " ")
	lowFirst := strings.ToLower(first)
	switch {
	case knownVerbs[lowFirst] || (stripped && isLowerWord(first)):
		w.Action = lowFirst
		if tail != "" {
			w.Action += " " + tail
		}
		w.Gerund = gerund(lowFirst)
		if tail != "" {
			w.Gerund += " " + tail
		}
		w.Thing = thingOf(tail)
	default:
		if m := versusRE.FindStringSubmatch(rest); m != nil && !stripped {
			w.Action = "choose " + m[1] + " over " + m[2]
			w.Gerund = "choosing " + m[1] + " over " + m[2]
			w.Thing = thingOf(m[1])
			break
		}
		obj := lowerFirst(rest)
		w.Action = "go ahead with " + obj
		w.Gerund = "going ahead with " + obj
		w.Thing = thingOf(obj)
	}
	return w
}

// thingOf names the object of an action in a few words, or "this change".
func thingOf(obj string) string {
	obj = prepRE.ReplaceAllString(strings.TrimSpace(obj), "")
	obj = strings.TrimPrefix(strings.TrimPrefix(obj, "the "), "a ")
	if obj == "" || len(strings.Fields(obj)) > 3 || utf8.RuneCountInString(obj) > 30 {
		return "this change"
	}
	return obj
}

func isLowerWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r != utf8.RuneError && unicode.IsLower(r)
}

// lowerFirst lower-cases the first letter unless the first word looks like
// a name or an acronym (a capital after the first letter).
func lowerFirst(s string) string {
	first, _, _ := strings.Cut(s, " ")
	for i, r := range first {
		if i > 0 && unicode.IsUpper(r) {
			return s
		}
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// gerund forms the -ing form of an English verb, well enough for the mock.
func gerund(v string) string {
	switch {
	case strings.HasSuffix(v, "ie"):
		return v[:len(v)-2] + "ying"
	case strings.HasSuffix(v, "e") && !strings.HasSuffix(v, "ee") && !strings.HasSuffix(v, "ye") && !strings.HasSuffix(v, "oe") && len(v) > 2:
		return v[:len(v)-1] + "ing"
	case doubles(v):
		return v + v[len(v)-1:] + "ing"
	}
	return v + "ing"
}

// doubles reports whether a short verb doubles its last consonant (stop,
// ship, plan): one vowel, ending consonant-vowel-consonant.
func doubles(v string) bool {
	if len(v) < 3 || len(v) > 5 || strings.ContainsAny(v, "-") {
		return false
	}
	vowels := 0
	for _, r := range v {
		if strings.ContainsRune("aeiou", r) {
			vowels++
		}
	}
	a, b, c := v[len(v)-3], v[len(v)-2], v[len(v)-1]
	isV := func(x byte) bool { return strings.IndexByte("aeiou", x) >= 0 }
	return vowels == 1 && !isV(a) && isV(b) && !isV(c) && strings.IndexByte("wxy", c) < 0
}
