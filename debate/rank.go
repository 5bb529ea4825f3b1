package debate

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/roundtable-dev/roundtable/room"
)

// The peer ranking (Config.Rank), after llm-council's: once the rounds
// are over, each persona ranks the others' final turns, shown without
// their names, and the moderator reads the rankings, de-anonymised, with
// each persona's mean position, before the verdict. Unlabelled, a ranking
// judges the arguments rather than their authors; shuffled per ranker,
// the order shown gives nothing away either.

// Ranking is one persona's ranking of the others' final turns.
type Ranking struct {
	Agent string // the ranker
	Round int    // the last round held
	Model string // the ranker's model label
	Text  string // the ranker's whole reply
	// Order is the others, by name, best first: the letters its reply's
	// FINAL RANKING line gave, de-anonymised. Empty when no ranking
	// could be read from the reply.
	Order []string
}

// RankStanding is one persona's place in the panel's rankings.
type RankStanding struct {
	Name string
	// Mean is the persona's mean position over the rankings that placed
	// it, 1 being first: lower is better. 0 when none did.
	Mean float64
	// Rankers counts the rankings that placed it.
	Rankers int
}

// AggregateRankings is each of names' standing in rankings, best first:
// by mean position, ties in the order of names (speaking order), and
// those no ranking placed last. A name a ranking gives that is not in
// names is left out.
func AggregateRankings(rankings []Ranking, names []string) []RankStanding {
	out := make([]RankStanding, len(names))
	at := make(map[string]int, len(names))
	sums := make([]int, len(names))
	for i, n := range names {
		out[i].Name = n
		at[n] = i
	}
	for _, rk := range rankings {
		for pos, n := range rk.Order {
			if i, ok := at[n]; ok {
				sums[i] += pos + 1
				out[i].Rankers++
			}
		}
	}
	for i := range out {
		if out[i].Rankers > 0 {
			out[i].Mean = float64(sums[i]) / float64(out[i].Rankers)
		}
	}
	slices.SortStableFunc(out, func(a, b RankStanding) int {
		if a.Rankers == 0 || b.Rankers == 0 {
			return cmp.Compare(b.Rankers, a.Rankers) // the unplaced last
		}
		return cmp.Compare(a.Mean, b.Mean)
	})
	return out
}

// ResponseLabel is how a ranking request names the i-th turn it shows:
// "Response A" for 0.
func ResponseLabel(i int) string { return "Response " + responseLetter(i) }

func responseLetter(i int) string { return string(rune('A' + i)) }

// maxRanked is the most turns a ranking request shows: one a letter.
const maxRanked = 26

// rankMarker starts the line that gives a ranking, in lower case.
const rankMarker = "final ranking"

// rankSkip are the words a ranking line may carry around its letters.
var rankSkip = map[string]bool{
	"response": true, "responses": true, "then": true, "and": true,
	"followed": true, "by": true, "finally": true,
}

// ParseRanking reads the ranking a reply gives of n responses lettered A,
// B, …: the letters after its last line "FINAL RANKING:" that names any
// (or, when that line names none, on the lines right below it, as a
// numbered list), best first, as indexes (0 for A). It tolerates Markdown,
// any case, "Response C" for C, numbering, and separators of commas, ">",
// "→" or spaces; a letter repeated or past n is dropped, and a chunk's
// words after the first that is no letter are commentary. nil when the
// reply gives no ranking that can be read.
func ParseRanking(reply string, n int) []int {
	n = min(max(n, 0), maxRanked)
	lines := strings.Split(reply, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.ToLower(lines[i])
		at := strings.LastIndex(line, rankMarker)
		if at < 0 {
			continue
		}
		var got []int
		seen := make([]bool, n)
		add := func(s string) int {
			k := 0
			for _, idx := range rankLetters(s) {
				if idx < n && !seen[idx] {
					seen[idx] = true
					got = append(got, idx)
					k++
				}
			}
			return k
		}
		add(line[at+len(rankMarker):])
		if len(got) == 0 {
			// "FINAL RANKING:" alone, the order listed below it.
			for _, next := range lines[i+1 : min(len(lines), i+4+n)] {
				if add(strings.ToLower(next)) == 0 && len(got) > 0 {
					break
				}
			}
		}
		if len(got) > 0 {
			return got
		}
	}
	return nil
}

// rankLetters is the letters (0 for a) a piece of a ranking line names, in
// order: in each chunk between separators, its one-letter words up to
// the first other word; numbers and rankSkip words pass.
func rankLetters(s string) []int {
	var out []int
	chunks := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ';' || r == '>' || r == '→' || r == '|' || r == '\n'
	})
	for _, chunk := range chunks {
		words := strings.FieldsFunc(chunk, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for _, w := range words {
			if rankSkip[w] || strings.Trim(w, "0123456789") == "" {
				continue
			}
			if len(w) != 1 || w[0] < 'a' || w[0] > 'z' {
				break // commentary: "C is the clearest"
			}
			out = append(out, int(w[0]-'a'))
		}
	}
	return out
}

// ballot is what one persona is asked to rank: the others' final turns in
// a shuffled order, names[i] having written turns[i], shown as
// ResponseLabel(i).
type ballot struct {
	names []string
	turns []Turn
}

// newBallot is the ballot of persona ranker (its index in speaking order):
// the other personas' latest complete turns in transcript, in an order
// drawn from the seed and the ranker, so the position a turn is shown at
// says nothing of who wrote it, and the same debate shows the same.
func newBallot(cfg Config, ranker int, transcript []Turn) ballot {
	final := map[string]Turn{}
	for _, t := range transcript {
		if !t.Note && !t.Incomplete {
			final[t.Agent] = t
		}
	}
	var b ballot
	for i, p := range cfg.Personas {
		t, ok := final[p.Name]
		if i == ranker || !ok || len(b.names) == maxRanked {
			continue
		}
		// The turn as the ranker sees it: its words, not who wrote them.
		b.names = append(b.names, p.Name)
		b.turns = append(b.turns, Turn{Round: t.Round, Text: t.Text, Truncated: t.Truncated})
	}
	rng := newRNG(cfg.Seed, "rank", ranker)
	rng.Shuffle(len(b.names), func(i, j int) {
		b.names[i], b.names[j] = b.names[j], b.names[i]
		b.turns[i], b.turns[j] = b.turns[j], b.turns[i]
	})
	return b
}

// order is the persona names the reply's ranking gives, best first; empty
// (not nil) when it gives none.
func (b ballot) order(reply string) []string {
	out := []string{}
	for _, i := range ParseRanking(reply, len(b.names)) {
		out = append(out, b.names[i])
	}
	return out
}

// rankAll has each persona, in speaking order, rank the others' final
// turns (Config.Rank), after the last round (and its pause) or the round
// the moderator found consensus after, before the verdict. A debate
// stopped by a budget goes to the verdict without it (stopForBudget), and
// once a budget is spent here the rankings stop, the verdict reading
// those given. A ranking already in the room (a resumed debate's) is not
// asked again.
func (r *run) rankAll() error {
	if !r.cfg.Rank {
		return nil
	}
	done := map[string]bool{}
	for _, rk := range r.rankings {
		done[rk.Agent] = true
	}
	for i, p := range r.cfg.Personas {
		if done[p.Name] {
			continue
		}
		if BudgetReached(r.cfg, r.total) != "" {
			return nil
		}
		b := newBallot(r.cfg, i, r.transcript)
		if len(b.names) == 0 {
			continue // nobody else spoke: nothing to rank
		}
		if err := r.rank(p, b); err != nil {
			return err
		}
	}
	return nil
}

// rank asks p for its ranking of b and sends it whole as a ranking event.
// Its retries and its agent's activity are not shown: a ranking has no
// turn to show them in.
func (r *run) rank(p Persona, b ballot) error {
	info := r.info(PurposeRank, p, r.held, false)
	info.Ranked = b.turns
	req := Request{Messages: rankMessages(info), Model: p.Model, Info: info}
	text, usage, err := r.ask(p, req, false, false)
	if err != nil {
		return err
	}
	model := ModelLabel(r.p, p)
	rk := Ranking{Agent: p.Name, Round: r.held, Model: model, Text: text, Order: b.order(text)}
	r.rankings = append(r.rankings, rk)
	if !r.send(Event{Type: EventRanking, Round: rk.Round, Agent: rk.Agent, Model: model, Text: text, Ranking: rk.Order, Usage: &usage}) {
		return errCancelled
	}
	return nil
}

// rankingOf is the ranking a room's ranking message (room.KindRanking)
// holds; its order kept to personas, other than the ranker, each once
// (rankOrder).
func rankingOf(m room.Message, personas []string) Ranking {
	return Ranking{Agent: m.Seat, Round: m.Round, Model: m.Agent, Text: m.Text, Order: rankOrder(m.Ranking, personas, m.Seat)}
}

// rankOrder is a ranking's order as a room holds it, kept to the names in
// personas other than the ranker, each once, so a hand-edited or hostile
// room puts nobody else in a table; empty, not nil, when none is left.
func rankOrder(order, personas []string, ranker string) []string {
	out := []string{}
	for _, n := range order {
		if n != ranker && slices.Contains(personas, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
