package debate

import (
	"fmt"
	"regexp"
	"strings"
)

// Purposes of the requests a room seat played by roundtable makes
// (PlaySeat): the lead's post, the peer's post, and the lead's spec.
const (
	PurposeSeatLead Purpose = "seat-lead"
	PurposeSeatPeer Purpose = "seat-peer"
	PurposeSeatSpec Purpose = "seat-spec"
)

// mockSeat writes a room seat's post or the lead's spec, as a model given
// the seat prompt would: a first line naming the kind, then Markdown that
// answers the other seat by quoting it. info.Round is the round being
// spoken, info.Rounds the room's budget, and info.Transcript the room's
// messages (Agent is the seat).
func mockSeat(info TurnInfo) string {
	tw := parseTopic(info.Topic)
	rng := newRNG(info.Seed, info.Topic, string(info.Purpose), info.Round, len(info.Transcript))
	voice := ""
	if n := info.Speaker.Name; n != "" && n != "lead" && n != "peer" {
		voice = fmt.Sprintf(" (speaking as %s)", n)
	}
	last := lastBy(info.Transcript, "peer")
	if info.Purpose == PurposeSeatPeer {
		last = lastBy(info.Transcript, "lead")
	}
	quote := ""
	if last != nil {
		quote = pick(rng, seatQuotables(last.Text))
	}
	var b strings.Builder
	switch info.Purpose {
	case PurposeSeatSpec:
		fmt.Fprintf(&b, "# Spec: %s\n\n## Decision\n\nWe will %s, in small reversible steps, measured before each widens.\n\n", tw.Raw, tw.Action)
		b.WriteString("## Reasoning\n\nThe room argued it over ")
		// The transcript carries the host's notes too: they are not messages.
		msgs, notes := 0, 0
		for _, t := range info.Transcript {
			if t.Agent == hostNoteAgent {
				notes++
			} else {
				msgs++
			}
		}
		fmt.Fprintf(&b, "%d %s", msgs, plural(msgs, "message", "messages"))
		if notes > 0 {
			fmt.Fprintf(&b, " and %d %s from the host", notes, plural(notes, "note", "notes"))
		}
		b.WriteString(". ")
		b.WriteString("What carried it: the risk is bounded when each step can be rolled back, and the cost shows early.\n\n")
		b.WriteString("## Steps\n\n1. Write down the current behaviour as tests.\n2. Make the first, smallest change behind a switch.\n3. Measure it against the tests and the figures.\n4. Widen it, or roll back, on what the figures say.\n\n## Dissent\n\n")
		if p := lastBy(info.Transcript, "peer"); p != nil && len(seatQuotables(p.Text)) > 0 {
			fmt.Fprintf(&b, "The peer, in its own words: %q\n", pick(rng, seatQuotables(p.Text)))
		} else {
			b.WriteString("The peer never answered; there is no dissent on record.\n")
		}
		return b.String()
	case PurposeSeatPeer:
		kinds := []string{"answer", "objection", "proposal", "concession"}
		kind := kinds[(info.Round+rng.IntN(2))%len(kinds)]
		fmt.Fprintf(&b, "kind: %s\n\n", kind)
		b.WriteString(youWrote(quote, voice))
		switch kind {
		case "objection":
			fmt.Fprintf(&b, "That misses the case where %s fails halfway: what do we roll back to, and who notices?\n", tw.Gerund)
		case "proposal":
			fmt.Fprintf(&b, "A smaller first step: try %s on one path only, behind a switch, and measure it for a week.\n", tw.Gerund)
		case "concession":
			b.WriteString("The evidence is on your side there; I concede the point, with the rollback plan written down first.\n")
		default: // answer
			fmt.Fprintf(&b, "Yes, %s can work, if we write the current behaviour down as tests before anything changes.\n", tw.Gerund)
		}
		return b.String()
	default: // PurposeSeatLead: the lead's post, below
	}
	switch {
	case info.Round <= 1 || last == nil:
		fmt.Fprintf(&b, "kind: brief\n\n**The decision:** %s%s\n\n", tw.Raw, voice)
		fmt.Fprintf(&b, "Options:\n1. %s now, everywhere.\n2. %s in steps, behind a switch.\n3. Keep what we have and revisit later.\n\n", upperFirst(tw.Action), upperFirst(tw.Action))
		b.WriteString("Constraints, in order: nothing we cannot roll back, cost we can measure, and no surprise for users. I start from option 2.\n")
	case info.Round >= info.Rounds:
		fmt.Fprintf(&b, "kind: decision\n\n%sI take that into the decision: %s in steps, with the rollback written first.\n", youWrote(quote, voice), tw.Gerund)
	default:
		kind := pick(rng, []string{"challenge", "question"})
		fmt.Fprintf(&b, "kind: %s\n\n%s", kind, youWrote(quote, voice))
		if kind == "question" {
			b.WriteString("What would we measure to know that it works, and by when?\n")
		} else {
			fmt.Fprintf(&b, "Show me where that holds in the code; without evidence, %s stays a bet.\n", tw.Gerund)
		}
	}
	return b.String()
}

// lastBy is the latest turn of agent, nil when it has none.
func lastBy(ts []Turn, agent string) *Turn {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Agent == agent {
			return &ts[i]
		}
	}
	return nil
}

// youWrote opens a reply by quoting the other seat, when there is a quote.
func youWrote(quote, voice string) string {
	if quote == "" {
		return strings.TrimSpace(voice) + " "
	}
	return fmt.Sprintf("You wrote: %q.%s ", quote, voice)
}

// quotedRE is the quote a mock post opens with.
var quotedRE = regexp.MustCompile(`^(?:You wrote: ".*?"\.)?(?: \(speaking as [^)]*\))?\s*`)

// seatQuotables are the lines of a post worth quoting, leaving out the
// quote of the other seat a mock post opens with.
func seatQuotables(text string) []string {
	return quotables(quotedRE.ReplaceAllString(strings.TrimSpace(text), ""))
}
