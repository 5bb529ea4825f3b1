package debate

import (
	"fmt"
	"strings"

	"github.com/roundtable-dev/roundtable/prompts"
)

// standing is where one persona ended up, read from the transcript.
type standing struct {
	p            Persona
	v            *voice
	first, last  int
	lastTurn     *Turn
	lastReason   string
	spoke        bool
	hasPositions bool
}

func standings(info TurnInfo) []standing {
	out := make([]standing, 0, len(info.Personas))
	for _, p := range info.Personas {
		s := standing{p: p, v: voiceFor(p), first: posConditional, last: posConditional}
		for i := range info.Transcript {
			t := &info.Transcript[i]
			if !spokeAs(t.Agent, p.Name) {
				continue
			}
			class, reason, ok := parsePosition(t.Text)
			if !ok {
				class, reason, ok = kindPosition(*t)
			}
			if ok && !s.hasPositions {
				s.first = class
			}
			if ok {
				s.hasPositions = true
				s.last, s.lastReason = class, reason
			}
			s.spoke, s.lastTurn = true, t
		}
		out = append(out, s)
	}
	return out
}

// kindPosition reads a position from an MCP room's message kind, where
// the text states none in the mock's words: a decision or a proposal
// supports going ahead on its terms, a concession supports it, an
// objection opposes; the reason is the message's last quotable
// sentence, past a quote of the other seat. Other kinds (brief,
// challenge, question, answer, pass) state none.
func kindPosition(t Turn) (class int, reason string, ok bool) {
	switch strings.ToLower(t.Kind) {
	case "decision", "proposal":
		class = posConditional
	case "concession", "agreement":
		class = posSupport
	case "objection":
		class = posOppose
	default:
		return posConditional, "", false
	}
	if q := seatQuotables(t.Text); len(q) > 0 {
		reason = q[len(q)-1]
	}
	return class, reason, true
}

// spokeAs reports whether a turn of agent (a persona's name, or an MCP
// room's "lead (claude-code), brief", "lead, brief" with no agent label)
// was spoken by the persona or seat name.
func spokeAs(agent, name string) bool {
	return agent == name || strings.HasPrefix(agent, name+" (") || strings.HasPrefix(agent, name+", ")
}

// mockConsensus answers the check after a round: consensus when everyone
// spoke in that round and nobody opposes.
func mockConsensus(info TurnInfo) string {
	for _, s := range standings(info) {
		if !s.spoke || s.lastTurn.Round != info.Round {
			return fmt.Sprintf("CONTINUE\n%s has not spoken in round %d.", s.p.Name, info.Round)
		}
		if s.last == posOppose {
			return fmt.Sprintf("CONTINUE\n%s still opposes: “%s”.", s.p.Name, s.lastReason)
		}
	}
	return "CONSENSUS\nNobody opposes any more, and the remaining conditions fit in one plan."
}

// mockVerdict writes the moderator's verdict from the transcript, in the
// structure the moderator prompt asks of a model.
func mockVerdict(info TurnInfo) string {
	tw := parseTopic(info.Topic)
	ss := standings(info)
	var support, cond, oppose, unstated []standing
	for _, s := range ss {
		switch {
		case !s.hasPositions:
			// Said nothing the moderator reads as a position (an MCP
			// room's seats whose kinds state none, a persona that never
			// spoke): counted as such, never as a condition.
			unstated = append(unstated, s)
		case s.last == posSupport:
			support = append(support, s)
		case s.last == posOppose:
			oppose = append(oppose, s)
		default:
			cond = append(cond, s)
		}
	}
	n := len(ss)
	var b strings.Builder

	action := upperFirst(tw.Action)
	stated := n - len(unstated)
	switch {
	case stated == 0:
		fmt.Fprintf(&b, "**Decision:** No call yet on whether to %s: nobody stated a position in so many words, so the transcript is the record to decide from.\n\n", tw.Action)
	case len(oppose) == 0 && len(cond) == 0:
		fmt.Fprintf(&b, "**Decision:** %s: start now with the smallest slice the panel described, and measure it.\n\n", action)
	case len(oppose) == 0:
		fmt.Fprintf(&b, "**Decision:** %s as a time-boxed pilot under the conditions below; widen it only once they are met.\n\n", action)
	case 2*len(oppose) < n:
		fmt.Fprintf(&b, "**Decision:** %s only as a limited pilot, and only after %s's blocking concerns have answers.\n\n", action, names(oppose))
	default:
		fmt.Fprintf(&b, "**Decision:** Do not %s yet; revisit once the blocking concerns below have answers.\n\n", tw.Action)
	}

	conf := "Medium"
	switch {
	case 2*len(unstated) >= n:
		conf = "Low"
	case len(oppose) == 0 && len(support) >= len(cond):
		conf = "High"
	case 2*len(oppose) >= n:
		conf = "Low"
	}
	fmt.Fprintf(&b, "**Confidence:** %s. %s\n\n", conf, tally(len(support), len(cond), len(oppose), len(unstated), n))

	b.WriteString("### Where they agreed\n")
	agreed := agreements(info.Transcript, 3)
	for _, s := range append(append([]standing{}, support...), cond...) {
		if len(agreed) >= 4 {
			break
		}
		if s.lastReason != "" {
			agreed = append(agreed, fmt.Sprintf("- %s can accept it: “%s”.", s.p.Name, s.lastReason))
		}
	}
	switch {
	case len(agreed) > 0:
	case stated == 0:
		agreed = append(agreed, "- Nothing stated in so many words: no participant gave a position to agree on.")
	default:
		agreed = append(agreed, "- Little: every participant held a different line to the end.")
	}
	b.WriteString(strings.Join(agreed, "\n"))
	b.WriteString("\n\n### Dissent\n")
	writeDissent(&b, ss, oppose)

	b.WriteString("\n\n### Risks\n")
	b.WriteString(strings.Join(risks(ss, oppose, cond, 3), "\n"))

	b.WriteString("\n\n### Next steps\n")
	step := 1
	if 2*len(oppose) >= n && len(oppose) > 0 {
		fmt.Fprintf(&b, "%d. %s: write down what would change your position, so the next review has a target.\n", step, names(oppose))
		step++
	}
	for _, s := range ss {
		next := s.v.nextStep
		if !s.hasPositions {
			next = "say where you stand, and what would change your mind."
		}
		fmt.Fprintf(&b, "%d. %s: %s\n", step, s.p.Name, next)
		step++
	}
	if stated == 0 {
		fmt.Fprintf(&b, "%d. Everyone: decide from the transcript and the spec; a verdict needs positions to weigh.", step)
		return b.String()
	}
	fmt.Fprintf(&b, "%d. Everyone: reconvene with real numbers once the first slice has run; this verdict is revisited then.", step)
	return b.String()
}

// tally says how the panel ended up, in words, for example "Of the three
// participants, two support it outright and one opposes" for a panel of
// three with one dissenter.
func tally(support, cond, oppose, unstated, n int) string {
	var parts []string
	if support > 0 {
		parts = append(parts, number(support)+" "+plural(support, "supports it outright", "support it outright"))
	}
	if cond > 0 {
		parts = append(parts, number(cond)+" "+plural(cond, "supports it with conditions", "support it with conditions"))
	}
	if oppose > 0 {
		parts = append(parts, number(oppose)+" "+plural(oppose, "opposes", "oppose"))
	}
	if unstated > 0 {
		parts = append(parts, number(unstated)+" stated no position")
	}
	if len(parts) == 0 {
		return ""
	}
	if n == 1 {
		return "The only participant " + strings.TrimPrefix(parts[0], "one ") + "."
	}
	return fmt.Sprintf("Of the %s participants, %s.", number(n), prompts.AndList(parts))
}

func number(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func names(ss []standing) string {
	ns := make([]string, len(ss))
	for i, s := range ss {
		ns[i] = s.p.Name
	}
	return prompts.AndList(ns)
}

// agreements are the sentences of the transcript where a speaker agreed
// with another, as bullets, at most n.
func agreements(ts []Turn, n int) []string {
	var out []string
	for _, t := range ts {
		for _, para := range strings.Split(t.Text, "\n\n") {
			if len(out) >= n {
				return out
			}
			if strings.HasPrefix(para, "I agree with ") || strings.Contains(para, " has it right: ") {
				out = append(out, fmt.Sprintf("- %s (round %d): %s", t.Agent, t.Round, strings.TrimSpace(para)))
			}
		}
	}
	return out
}

// writeDissent quotes the dissenter's own position line; with no one
// opposing, the strongest remaining reservation.
func writeDissent(b *strings.Builder, ss, oppose []standing) {
	if len(oppose) > 0 {
		for i, s := range oppose {
			if i > 0 {
				b.WriteString("\n\n")
			}
			fmt.Fprintf(b, "> “%s” (%s, round %d)", s.lastReason, s.p.Name, s.lastTurn.Round)
			if d := demandLine(s.lastTurn.Text); d != "" {
				fmt.Fprintf(b, "\n>\n> “%s”", d)
			}
		}
		return
	}
	var most *standing
	for i := range ss {
		s := &ss[i]
		if !s.spoke || s.lastReason == "" {
			continue
		}
		if most == nil || s.last < most.last || (s.last == most.last && s.first < most.first) {
			most = s
		}
	}
	if most == nil {
		b.WriteString("None recorded.")
		return
	}
	fmt.Fprintf(b, "No one opposed by the end. The strongest reservation came from %s:\n\n> “%s” (%s, round %d)",
		most.p.Name, most.lastReason, most.p.Name, most.lastTurn.Round)
}

// demandLine is a turn's "What I won't accept" sentence, if it has one.
func demandLine(text string) string {
	for _, para := range strings.Split(text, "\n\n") {
		if i := strings.Index(para, "What I won't accept:"); i >= 0 {
			return strings.TrimSpace(para[i:])
		}
	}
	return ""
}

// risks are the concerns the dissenters and the conditional voices raised
// in their last turns, attributed, at most n.
func risks(ss, oppose, cond []standing, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, group := range [][]standing{oppose, cond, ss} {
		for _, s := range group {
			if s.lastTurn == nil {
				continue
			}
			for _, line := range strings.Split(s.lastTurn.Text, "\n") {
				if len(out) >= n {
					return out
				}
				l, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
				if !ok || seen[l] {
					continue
				}
				seen[l] = true
				out = append(out, fmt.Sprintf("- %s (%s)", l, s.p.Name))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, "- None named in the debate; that is itself a risk.")
	}
	return out
}
