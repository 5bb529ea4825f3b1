package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
)

// Report is what a run found. Every figure in it can be recomputed from
// the per-item records of its arms.
type Report struct {
	Questions int    `json:"questions"`
	Personas  int    `json:"personas,omitempty"`
	Rounds    int    `json:"rounds,omitempty"`
	Stopped   string `json:"stopped,omitempty"` // why the run stopped before the end
	// UnfinishedTokens are the tokens of calls made for items that did
	// not finish (the run stopped or a call failed first): spent, but in
	// no item, arm or figure. A rerun over the same --out asks those items
	// again.
	UnfinishedTokens int         `json:"unfinished_tokens,omitempty"`
	Arms             []ArmResult `json:"arms"`
	Pairs            []Pair      `json:"pairs"`
	// Debates are what happened inside each debate arm (debate, rank,
	// stances), in the order of Arms.
	Debates []Debate `json:"debates,omitempty"`
	// Budgets compare each debate arm with the vote curve.
	Budgets []Budget `json:"equal_budget,omitempty"`
}

// ArmResult is one arm over the questions it finished.
type ArmResult struct {
	Name             string   `json:"name"`
	Models           []string `json:"models"`
	Items            int      `json:"items"`
	Correct          int      `json:"correct"`
	Accuracy         float64  `json:"accuracy"`
	CILow            float64  `json:"ci_low"`
	CIHigh           float64  `json:"ci_high"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	Tokens           int      `json:"tokens"`
	TokensPerItem    float64  `json:"tokens_per_question"`
	Calls            int      `json:"calls"`
	// EstimatedCalls counts the calls whose tokens are our estimate;
	// Estimated says there is one.
	EstimatedCalls int  `json:"estimated_calls"`
	Estimated      bool `json:"estimated"`
	// Cost sums the items' costs in dollars (the provider's, or priced
	// by --prices); 0 when nothing gave one.
	Cost    float64 `json:"cost,omitempty"`
	Results []Item  `json:"results"`

	arm Arm
}

// Pair is the paired exact McNemar test of two arms on the questions both
// finished: B the first got right and the second wrong, C the reverse.
type Pair struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Items int     `json:"items"`
	AOnly int     `json:"a_right_b_wrong"`
	BOnly int     `json:"a_wrong_b_right"`
	P     float64 `json:"p_value"`
}

// Debate is what happened inside a debate arm's debates.
type Debate struct {
	Arm   string `json:"arm"`
	Kind  string `json:"kind"` // debate, rank or stances
	Items int    `json:"items"`
	// Oracle counts the questions where some persona's first-round answer
	// was right.
	Oracle int `json:"oracle"`
	// Moderator counts the questions the moderator (the debate's answer)
	// got right; LastMajority those the last round's majority got right.
	Moderator      int         `json:"moderator_right"`
	LastMajority   int         `json:"last_round_majority_right"`
	OracleAccuracy float64     `json:"oracle_accuracy"`
	Rounds         []RoundStat `json:"rounds"`
	// Changed and ToMajority sum the rounds': Conformity is their ratio.
	Changed    int     `json:"changed"`
	ToMajority int     `json:"to_majority"`
	Conformity float64 `json:"conformity"`
	// Rank is the rank arm's peer rankings, summed; nil for the others.
	Rank *RankStat `json:"rank,omitempty"`
}

// RankStat sums a rank arm's peer rankings.
type RankStat struct {
	// Rankings counts the rankings asked for, Unread those with no
	// readable FINAL RANKING line (they count for nothing).
	Rankings int `json:"rankings"`
	Unread   int `json:"unread"`
	// Ranked counts the questions some ranking placed a persona on;
	// TopRight those where the top-ranked persona (best mean position,
	// ties to the first) gave the right final answer.
	Ranked   int `json:"ranked"`
	TopRight int `json:"top_ranked_right"`
	// RightShown counts the readable rankings that were shown a right
	// reply, RightFirst those of them that put a right reply first.
	RightShown int `json:"rankings_shown_a_right_reply"`
	RightFirst int `json:"rankings_right_first"`
}

// RoundStat is one round of the debates, summed over questions.
type RoundStat struct {
	Round int `json:"round"`
	// Right counts the personas' right answers; MajorityRight the
	// questions whose round majority was right.
	Right         int `json:"right"`
	MajorityRight int `json:"majority_right"`
	// From round 2: answers that went from right to wrong and from wrong
	// to right since the round before.
	RightToWrong int `json:"right_to_wrong"`
	WrongToRight int `json:"wrong_to_right"`
	// Changed counts the personas whose answer changed since the round
	// before, ToMajority those of them whose new answer is the majority of
	// the round before (the one they had just read).
	Changed    int     `json:"changed"`
	ToMajority int     `json:"to_majority"`
	Conformity float64 `json:"conformity"`
}

// Budget compares a debate arm with the vote curve at the arm's tokens
// per question.
type Budget struct {
	Arm            string  `json:"arm"`
	DebateTokens   float64 `json:"debate_tokens_per_question"`
	DebateAccuracy float64 `json:"debate_accuracy"`
	// InRange: the debate's tokens fall within the vote arms'; only then
	// is VoteAccuracy read off the curve, between Below and Above.
	InRange      bool    `json:"in_range"`
	VoteAccuracy float64 `json:"vote_accuracy,omitempty"`
	Below        string  `json:"below,omitempty"`
	Above        string  `json:"above,omitempty"`
	// Curve is the vote arms' points, single as vote:1.
	Curve []Point `json:"curve"`
}

func buildReport(opt Options, results [][]*Item) *Report {
	rep := &Report{Questions: len(opt.Questions), Pairs: []Pair{}}
	for a, arm := range opt.Arms {
		ar := ArmResult{Name: arm.Name, arm: arm, Results: []Item{}}
		ar.Models = armModels(opt, arm)
		for _, it := range results[a] {
			if it == nil {
				continue
			}
			ar.Results = append(ar.Results, *it)
		}
		ar.tally()
		rep.Arms = append(rep.Arms, ar)
		if arm.IsDebate() {
			rep.Personas, rep.Rounds = opt.Personas, opt.Rounds
			d := DebateStats(ar.Results)
			d.Arm, d.Kind = arm.Name, arm.Kind
			if arm.Kind == ArmRank {
				rs := RankStats(ar.Results)
				d.Rank = &rs
			}
			rep.Debates = append(rep.Debates, d)
		}
	}
	rep.Pairs = Pairs(rep.Arms)
	rep.Budgets = EqualBudget(rep.Arms)
	return rep
}

// armModels names the models an arm asks, in the order it gives them out.
func armModels(opt Options, arm Arm) []string {
	n := 1
	switch arm.Kind {
	case ArmVote:
		n = arm.K
	case ArmDebate, ArmRank, ArmStances:
		n = opt.Personas
	}
	ms := arm.Models
	if len(ms) == 0 {
		ms = opt.Models
	}
	if len(ms) == 0 {
		return []string{opt.Provider.Model()}
	}
	return ms[:min(n, len(ms))]
}

// tally sums an arm's items.
func (ar *ArmResult) tally() {
	ar.Items, ar.Correct, ar.PromptTokens, ar.CompletionTokens, ar.Tokens, ar.Calls, ar.EstimatedCalls = len(ar.Results), 0, 0, 0, 0, 0, 0
	ar.Cost = 0
	for _, it := range ar.Results {
		ar.Cost += it.Cost
		if it.Correct {
			ar.Correct++
		}
		ar.PromptTokens += it.PromptTokens
		ar.CompletionTokens += it.CompletionTokens
		ar.Tokens += it.Tokens
		ar.Calls += it.Calls
		ar.EstimatedCalls += it.EstimatedCalls
	}
	ar.Accuracy, ar.TokensPerItem = 0, 0
	if ar.Items > 0 {
		ar.Accuracy = float64(ar.Correct) / float64(ar.Items)
		ar.TokensPerItem = float64(ar.Tokens) / float64(ar.Items)
	}
	ar.CILow, ar.CIHigh = Wilson(ar.Correct, ar.Items)
	ar.Estimated = ar.EstimatedCalls > 0
}

// Pairs tests each pair of arms on the questions both finished.
func Pairs(arms []ArmResult) []Pair {
	out := []Pair{}
	for i := range arms {
		for j := i + 1; j < len(arms); j++ {
			right := map[string]bool{}
			for _, it := range arms[j].Results {
				right[it.ID] = it.Correct
			}
			p := Pair{A: arms[i].Name, B: arms[j].Name}
			for _, it := range arms[i].Results {
				bRight, ok := right[it.ID]
				if !ok {
					continue
				}
				p.Items++
				switch {
				case it.Correct && !bRight:
					p.AOnly++
				case !it.Correct && bRight:
					p.BOnly++
				}
			}
			p.P = McNemar(p.AOnly, p.BOnly)
			out = append(out, p)
		}
	}
	return out
}

// DebateStats reads the oracle, the flips and the conformity off a debate
// arm's items (their Rounds and Expected).
func DebateStats(items []Item) Debate {
	d := Debate{Items: len(items), Rounds: []RoundStat{}}
	for _, it := range items {
		if it.Correct {
			d.Moderator++
		}
		if len(it.Rounds) == 0 {
			continue
		}
		if m := Majority(it.Rounds[len(it.Rounds)-1]); m != "" && m == it.Expected {
			d.LastMajority++
		}
		for _, a := range it.Rounds[0] {
			if a != "" && a == it.Expected {
				d.Oracle++
				break
			}
		}
		for r, answers := range it.Rounds {
			for len(d.Rounds) <= r {
				d.Rounds = append(d.Rounds, RoundStat{Round: len(d.Rounds) + 1})
			}
			rs := &d.Rounds[r]
			if m := Majority(answers); m != "" && m == it.Expected {
				rs.MajorityRight++
			}
			var prev []string
			var prevMajority string
			if r > 0 {
				prev = it.Rounds[r-1]
				prevMajority = Majority(prev)
			}
			for p, a := range answers {
				right := a != "" && a == it.Expected
				if right {
					rs.Right++
				}
				if prev == nil || p >= len(prev) {
					continue
				}
				wasRight := prev[p] != "" && prev[p] == it.Expected
				switch {
				case wasRight && !right:
					rs.RightToWrong++
				case !wasRight && right:
					rs.WrongToRight++
				}
				if a != prev[p] {
					rs.Changed++
					if a != "" && a == prevMajority {
						rs.ToMajority++
					}
				}
			}
		}
	}
	for i := range d.Rounds {
		rs := &d.Rounds[i]
		rs.Conformity = ratio(rs.ToMajority, rs.Changed)
		d.Changed += rs.Changed
		d.ToMajority += rs.ToMajority
	}
	d.Conformity = ratio(d.ToMajority, d.Changed)
	d.OracleAccuracy = ratio(d.Oracle, d.Items)
	return d
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// EqualBudget compares each debate arm (debate, rank, stances) with the
// curve of the vote arms (single counting as vote:1) at the arm's tokens
// per question; nil without a debate arm or a vote arm.
func EqualBudget(arms []ArmResult) []Budget {
	var debates []*ArmResult
	var curve []Point
	for i, a := range arms {
		switch {
		case a.Items == 0:
		case a.arm.IsDebate():
			debates = append(debates, &arms[i])
		case a.arm.Kind == ArmSingle || a.arm.Kind == ArmVote:
			curve = append(curve, Point{Arm: a.Name, Tokens: a.TokensPerItem, Accuracy: a.Accuracy})
		}
	}
	if len(debates) == 0 || len(curve) == 0 {
		return nil
	}
	var out []Budget
	for _, deb := range debates {
		b := Budget{Arm: deb.Name, DebateTokens: deb.TokensPerItem, DebateAccuracy: deb.Accuracy, Curve: curve}
		acc, lo, hi, ok := Interpolate(curve, deb.TokensPerItem)
		if ok {
			b.InRange, b.VoteAccuracy, b.Below, b.Above = true, acc, lo.Arm, hi.Arm
		}
		out = append(out, b)
	}
	return out
}

// RankStats sums the peer rankings of a rank arm's items (their
// Rankings, Positions, last round and Expected).
func RankStats(items []Item) RankStat {
	var rs RankStat
	for _, it := range items {
		if len(it.Rounds) == 0 {
			continue
		}
		last := it.Rounds[len(it.Rounds)-1]
		if top := TopRanked(it.Positions); top >= 0 && top < len(last) {
			rs.Ranked++
			if last[top] != "" && last[top] == it.Expected {
				rs.TopRight++
			}
		}
		for _, rk := range it.Rankings {
			rs.Rankings++
			if rk.Unread {
				rs.Unread++
				continue
			}
			right := func(name string) bool {
				for j, a := range last {
					if PanelistName(j) == name {
						return a != "" && a == it.Expected
					}
				}
				return false
			}
			shown := false
			for j, a := range last {
				if PanelistName(j) != rk.By && a != "" && a == it.Expected {
					shown = true
				}
			}
			if shown {
				rs.RightShown++
				if len(rk.Order) > 0 && right(rk.Order[0]) {
					rs.RightFirst++
				}
			}
		}
	}
	return rs
}

// WriteJSON writes rep as indented JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteMarkdown writes rep for a reader: the arms, the paired tests, the
// debate's inside, the equal-budget line, and the chart of accuracy
// against tokens (TextChart) in a text block.
func (rep *Report) WriteMarkdown(w io.Writer) error { return rep.WriteMarkdownIn(w, 0) }

// WriteMarkdownIn is WriteMarkdown for a terminal of cols columns: its
// chart is narrowed to fit (TextChartIn); cols 0 is WriteMarkdown.
func (rep *Report) WriteMarkdownIn(w io.Writer, cols int) error {
	var b strings.Builder
	b.WriteString("# Eval\n\n")
	b.WriteString(rep.summary() + "\n")
	if rep.Stopped != "" {
		fmt.Fprintf(&b, "\n**Stopped before the end** (%s): the figures cover the questions each arm finished.\n", rep.Stopped)
	}
	if rep.UnfinishedTokens > 0 {
		fmt.Fprintf(&b, "\n%s\n", rep.unfinishedNote())
	}
	b.WriteString("\n## Arms\n\n")
	rep.armsTable().markdown(&b)
	if len(rep.Pairs) > 0 {
		b.WriteString("\n## Paired tests (exact McNemar)\n\n")
		rep.pairsTable().markdown(&b)
	}
	for i := range rep.Debates {
		d := &rep.Debates[i]
		b.WriteString("\n## " + d.title() + "\n\n")
		for _, line := range d.lines() {
			b.WriteString(line + "\n")
		}
		if t := d.roundsTable(); t != nil {
			b.WriteString("\n")
			t.markdown(&b)
		}
	}
	if len(rep.Budgets) > 0 {
		b.WriteString("\n## Equal budget\n\n")
		for _, bud := range rep.Budgets {
			b.WriteString(bud.line() + "\n")
		}
	}
	if chart := rep.TextChartIn(cols); chart != "" {
		b.WriteString("\n## Accuracy against tokens\n\n```text\n" + chart + "```\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// summary is the report's first sentence.
func (rep *Report) summary() string {
	s := fmt.Sprintf("%d questions", rep.Questions)
	var names []string
	for _, d := range rep.Debates {
		names = append(names, d.Arm)
	}
	switch len(names) {
	case 0:
	case 1:
		s += fmt.Sprintf("; the %s arm: %d personas × %d rounds, then the moderator's answer", names[0], rep.Personas, rep.Rounds)
	default:
		s += fmt.Sprintf("; the %s arms: %d personas × %d rounds, then the moderator's answer", strings.Join(names, ", "), rep.Personas, rep.Rounds)
	}
	return s + "."
}

// table is a table of the report, its cells as written.
type table struct {
	Head []string
	Rows [][]string
}

// markdown writes t as a Markdown table; an empty cell is "| |".
func (t *table) markdown(b *strings.Builder) {
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			if c == "" {
				b.WriteString(" |")
				continue
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	row(t.Head)
	b.WriteString(strings.Repeat("| --- ", len(t.Head)) + "|\n")
	for _, r := range t.Rows {
		row(r)
	}
}

func (rep *Report) armsTable() *table {
	t := &table{Head: []string{"arm", "models", "accuracy", "95 % CI", "tokens", "tokens per question", "estimated?"}}
	costs := false
	for _, a := range rep.Arms {
		costs = costs || a.Cost > 0
	}
	if costs {
		t.Head = append(t.Head, "cost")
	}
	for _, a := range rep.Arms {
		est := "no"
		switch {
		case a.EstimatedCalls == a.Calls && a.Calls > 0:
			est = "yes"
		case a.EstimatedCalls > 0:
			est = fmt.Sprintf("%d of %d calls", a.EstimatedCalls, a.Calls)
		}
		acc, ci, per := fmt.Sprintf("%d/%d = %s", a.Correct, a.Items, pct(a.Accuracy)), pct(a.CILow)+"–"+pct(a.CIHigh), fmt.Sprintf("%.1f", a.TokensPerItem)
		if a.Items == 0 {
			// No question finished (a run stopped early): no figure, rather
			// than a 0 % that reads as every answer wrong.
			acc, ci, per = "no question finished", "–", "–"
		}
		t.Rows = append(t.Rows, []string{
			a.Name, strings.Join(a.Models, ", "), acc, ci,
			fmt.Sprintf("%d (%d prompt + %d completion)", a.Tokens, a.PromptTokens, a.CompletionTokens), per, est,
		})
		if costs {
			row := &t.Rows[len(t.Rows)-1]
			*row = append(*row, debate.FormatDollars(a.Cost))
		}
	}
	return t
}

func (rep *Report) pairsTable() *table {
	t := &table{Head: []string{"A", "B", "questions", "A right, B wrong", "A wrong, B right", "p"}}
	for _, p := range rep.Pairs {
		pv := fmt.Sprintf("%.4g", p.P)
		if p.Items == 0 {
			pv = "–" // no question both finished: nothing to test
		}
		t.Rows = append(t.Rows, []string{p.A, p.B, fmt.Sprint(p.Items), fmt.Sprint(p.AOnly), fmt.Sprint(p.BOnly), pv})
	}
	return t
}

// title is the heading of a debate arm's section.
func (d *Debate) title() string {
	switch d.Kind {
	case ArmRank:
		return "Inside the rank arm (debate, then peer ranking)"
	case ArmStances:
		return "Inside the stances arm (for, against, neutral)"
	}
	return "Inside the debate"
}

// lines are the sentences on a debate arm's oracle, moderator,
// conformity and (rank) rankings.
func (d *Debate) lines() []string {
	if d.Items == 0 {
		return []string{fmt.Sprintf("No question of the %s arm finished.", d.Arm)}
	}
	out := []string{
		fmt.Sprintf("Oracle (some persona right in round 1): %d/%d = %s.", d.Oracle, d.Items, pct(d.OracleAccuracy)),
		fmt.Sprintf("The moderator (the %s arm's answer) was right on %d/%d; the last round's majority would have been on %d/%d.",
			d.Arm, d.Moderator, d.Items, d.LastMajority, d.Items),
		fmt.Sprintf("Conformity (changed answers that moved to the majority just read): %d/%d = %s.", d.ToMajority, d.Changed, pct(d.Conformity)),
	}
	if d.Kind == ArmStances {
		out = append(out, "From round 2 the panelists argued for, against and neutral on the proposed answer (the round before's majority), in turn.")
	}
	if r := d.Rank; r != nil {
		out = append(out,
			fmt.Sprintf("Peer ranking: the top-ranked persona's final answer was right on %d/%d ranked questions; %d of %d rankings were unreadable.",
				r.TopRight, r.Ranked, r.Unread, r.Rankings),
			fmt.Sprintf("Of the %d readable rankings shown a right reply, %d put a right reply first (%s).",
				r.RightShown, r.RightFirst, pct(ratio(r.RightFirst, r.RightShown))))
	}
	return out
}

func (d *Debate) roundsTable() *table {
	if d.Items == 0 {
		return nil // no question finished: lines says so
	}
	t := &table{Head: []string{"round", "answers right", "majority right", "right→wrong", "wrong→right", "changed", "to the majority"}}
	for _, r := range d.Rounds {
		if r.Round == 1 {
			t.Rows = append(t.Rows, []string{"1", fmt.Sprint(r.Right), fmt.Sprint(r.MajorityRight), "", "", "", ""})
			continue
		}
		t.Rows = append(t.Rows, []string{
			fmt.Sprint(r.Round), fmt.Sprint(r.Right), fmt.Sprint(r.MajorityRight),
			fmt.Sprint(r.RightToWrong), fmt.Sprint(r.WrongToRight), fmt.Sprint(r.Changed), fmt.Sprint(r.ToMajority),
		})
	}
	return t
}

// line is the equal-budget sentence.
func (bud *Budget) line() string {
	if bud.InRange {
		at := bud.Below
		if bud.Above != bud.Below {
			at = "between " + bud.Below + " and " + bud.Above
		}
		return fmt.Sprintf("At the %s arm's %.1f tokens per question, the vote curve (%s) reads %s; the %s arm scored %s (%+.1f points).",
			bud.Arm, bud.DebateTokens, at, pct(bud.VoteAccuracy), bud.Arm, pct(bud.DebateAccuracy), 100*(bud.DebateAccuracy-bud.VoteAccuracy))
	}
	lo, hi := 0.0, 0.0
	for i, p := range bud.Curve {
		if i == 0 {
			lo, hi = p.Tokens, p.Tokens
		}
		lo, hi = min(lo, p.Tokens), max(hi, p.Tokens)
	}
	return fmt.Sprintf("The %s arm's %.1f tokens per question fall outside the vote arms' range (%.1f to %.1f): no comparison at equal budget; run vote:K arms around it.",
		bud.Arm, bud.DebateTokens, lo, hi)
}

func pct(f float64) string { return fmt.Sprintf("%.1f %%", 100*f) }

// unfinishedNote says what the calls of unfinished items spent.
func (rep *Report) unfinishedNote() string {
	return fmt.Sprintf("Calls for questions that did not finish spent %d tokens more, in none of the figures below.", rep.UnfinishedTokens)
}
