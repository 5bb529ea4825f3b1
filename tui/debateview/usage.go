package debateview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// accounting is what the debate spent, by speaker, and how its budget and
// retry stand: the screen's share of issue 14's cost and retry.
type accounting struct {
	// per is each speaker's usage of its finished (and cut) turns, by the
	// engine's name; the moderator's under room.SeatModerator.
	per map[string]debate.Usage
	// budget is the budget event's reason once a budget stopped the
	// debate; "" otherwise.
	budget string
	// resuming: R asked for the debate to go on; its start is awaited.
	// verdictOnly: what failed was the verdict, so only it is left.
	resuming, verdictOnly bool
	// resumeStopped: what R resumes was stopped, not failed.
	resumeStopped bool
	// status is the total's forms as last worded, for the figures in key.
	status struct {
		key   statusKey
		forms []string
		ok    bool
	}
}

// statusKey is what the total in the status line is worded from.
type statusKey struct {
	u         debate.Usage
	maxCost   float64
	maxTokens int
}

// countTurn adds a finished turn's usage to its speaker's.
func (m *Model) countTurn(name string, u debate.Usage) {
	if m.acct.per == nil {
		m.acct.per = map[string]debate.Usage{}
	}
	v := m.acct.per[name]
	v.Add(u)
	m.acct.per[name] = v
}

// personaUsage is what c's persona spent so far: its finished turns, and
// the tokens streamed in the turn it is speaking (an estimate until the
// provider reports the turn's usage at its end).
func (m *Model) personaUsage(c *column) debate.Usage {
	u := m.acct.per[c.name]
	if c.speaking {
		u.CompletionTokens += m.live
	}
	return u
}

// usageForms are a persona's tokens (prompt in, completion out) and cost
// in the forms a column title may show them, longest first: "· 1.2k in ·
// 340 out · $0.0012", "· 1.2k in · 340 out", "· 1.2k/340". Without a cost
// the first two are the same. Before its first turn ends, the prompt's
// tokens are not known yet (the provider reports them at the end): only
// the tokens out are shown, "· 340 out", never "0 in".
func usageForms(u debate.Usage) [3]string {
	in, out := formatCount(u.PromptTokens), formatCount(u.CompletionTokens)
	inOut, short := " · "+in+" in · "+out+" out", " · "+in+"/"+out
	if u.PromptTokens == 0 {
		inOut, short = " · "+out+" out", " · "+out+" out"
	}
	withCost := inOut
	if u.Cost > 0 {
		withCost += " · " + debate.FormatDollars(u.Cost)
	}
	return [3]string{withCost, inOut, short}
}

// usageFormFor is the longest form (index into usageForms) of c's usage
// that fits beside its title in space cells; 0 when it has none.
func (m *Model) usageFormFor(c *column, space int) int {
	u := m.personaUsage(c)
	if u.PromptTokens+u.CompletionTokens == 0 {
		return 0
	}
	titleW := ansi.StringWidth(c.label) + 3 // room for the spinner or the focus mark
	for i, f := range usageForms(u) {
		if titleW+ansi.StringWidth(f) <= space {
			return i
		}
	}
	return len(usageForms(u)) - 1
}

// withUsage adds a persona's tokens and cost to its column's title, in
// the form every column on screen uses (m.usageForm) or a shorter one if
// that does not fit; none when nothing was spent or nothing fits.
func (m *Model) withUsage(c *column, title string, titleW, space int) (string, int) {
	u := m.personaUsage(c)
	if u.PromptTokens+u.CompletionTokens == 0 {
		return title, titleW
	}
	forms := usageForms(u)
	for _, f := range forms[min(m.usageForm, len(forms)-1):] {
		if w := ansi.StringWidth(f); titleW+w <= space {
			return title + m.styles.Muted.Render(f), titleW + w
		}
	}
	return title, titleW
}

// budgets are the debate's budgets (0: none), as the screen knows them.
func (m *Model) budgets() (maxCost float64, maxTokens int) {
	if m.launch == nil {
		return 0, 0
	}
	return m.launch.Config.MaxCost, m.launch.Config.MaxTokensTotal
}

// usageStatus is the debate's total as the status line ends it, longest
// form first: "12.3k tokens (9.1k in, 3.2k out) · $0.0123", then
// "12.3k tokens · $0.0123", with the budgets when set ("of 20.0k",
// "of $0.50"); nil before anything was spent and without a budget. The
// split in and out is left out until a turn's end reports the tokens in.
func (m *Model) usageStatus() []string {
	u := m.usage
	u.CompletionTokens += m.live
	maxCost, maxTokens := m.budgets()
	key := statusKey{u, maxCost, maxTokens}
	if c := &m.acct.status; !c.ok || c.key != key {
		c.key, c.forms, c.ok = key, wordTotal(u, maxCost, maxTokens), true
	}
	return m.acct.status.forms
}

// wordTotal is usageStatus's forms of total u under the budgets.
func wordTotal(u debate.Usage, maxCost float64, maxTokens int) []string {
	n := u.PromptTokens + u.CompletionTokens
	if n == 0 && maxCost == 0 && maxTokens == 0 {
		return nil
	}
	tokens := formatCount(n)
	if maxTokens > 0 {
		tokens += " of " + formatCount(maxTokens)
	}
	tokens += " tokens"
	cost := ""
	if u.Cost > 0 || maxCost > 0 {
		cost = " · " + debate.FormatDollars(u.Cost)
		if maxCost > 0 {
			cost += " of " + debate.FormatDollars(maxCost)
		}
	}
	if u.PromptTokens == 0 { // the tokens in are known once a turn ends
		return []string{tokens + cost}
	}
	full := fmt.Sprintf("%s (%s in, %s out)%s", tokens, formatCount(u.PromptTokens), formatCount(u.CompletionTokens), cost)
	return []string{full, tokens + cost}
}

// statusLine is the status bar's text at width w: the status on the left
// and the total on the right, in the longest of its forms that leaves the
// status whole; the status alone when even the shortest would cut it (the
// header carries the total too).
func statusLine(status string, forms []string, w int) string {
	full := " " + cells.Truncate(status, max(w-2, 1))
	if len(forms) == 0 {
		return full
	}
	sw := ansi.StringWidth(status)
	right := forms[len(forms)-1]
	for _, f := range forms {
		if sw+ansi.StringWidth(f)+5 <= w {
			right = f
			break
		}
	}
	rw := ansi.StringWidth(right)
	space := w - rw - 5 // a space at each end, three between
	if sw > space {
		return full
	}
	left := cells.Truncate(status, max(space, 1))
	pad := max(w-2-ansi.StringWidth(left)-rw, 1)
	return " " + left + strings.Repeat(" ", pad) + right + " "
}

// budgetReached shows a budget event: no more turns; the verdict comes.
func (m *Model) budgetReached(ev debate.Event) {
	m.acct.budget = mdrender.Inline(ev.Text)
	m.phase = phaseWeighing
	m.verdict.waiting = true
	if ev.Usage != nil {
		m.settleTotal(*ev.Usage)
	}
	m.setStatus("Budget reached: " + m.acct.budget + ". The moderator gives a verdict on what was said.")
	if m.autoFocus {
		m.focus = len(m.cols)
	}
}

// settleTotal raises the total to what the engine counted, never lowering
// it (see settleUsage).
func (m *Model) settleTotal(total debate.Usage) {
	m.usage.PromptTokens = max(m.usage.PromptTokens, total.PromptTokens)
	m.usage.CompletionTokens = max(m.usage.CompletionTokens, total.CompletionTokens)
	m.usage.Cost = max(m.usage.Cost, total.Cost)
}

// budgetDone words the end of a debate a budget stopped.
func (m *Model) budgetDone() {
	if m.acct.budget == "" {
		return
	}
	m.setStatus(fmt.Sprintf("Done: stopped early because %s; the verdict is on what was said. Saved in room %s.", m.acct.budget, m.roomName()))
}
