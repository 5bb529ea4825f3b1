package forms

import (
	"errors"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// The budgets of the new-debate form: a cost cap in dollars and a cap on
// the debate's prompt plus completion tokens, both optional, on one row
// ("Budget"), filled in from --max-cost and --max-tokens-total. They are
// read and refused as the flags are (debate.ParseCostBudget,
// ParseTokenBudget), and a cost cap nothing could count under the chosen
// provider is refused here, before the debate starts, with the sentence
// the command line gives (debate.NoCostError) in the form's words.

// The budget fields' names in the form's sentences.
const (
	costCapName  = "The cost cap"
	tokenCapName = "The token cap"
)

// budgetInputWidth is the cells a budget field shows of its value.
const budgetInputWidth = 8

// budgetFields are the two caps and what is wrong with them.
type budgetFields struct {
	cost, tokens textinput.Model
	err          string      // why the caps cannot be used as typed; "" when they can
	errField     debateField // the field err is about
}

// newBudgetFields fills the caps in from cfg's budgets (0: empty).
func newBudgetFields(cfg debate.Config) budgetFields {
	b := budgetFields{cost: textinput.New(), tokens: textinput.New()}
	for _, in := range []*textinput.Model{&b.cost, &b.tokens} {
		in.Prompt = ""
		in.Placeholder = "no cap"
		in.CharLimit = 16
		in.SetWidth(budgetInputWidth)
	}
	if cfg.MaxCost > 0 {
		b.cost.SetValue(strconv.FormatFloat(cfg.MaxCost, 'f', -1, 64))
	}
	if cfg.MaxTokensTotal > 0 {
		b.tokens.SetValue(strconv.Itoa(cfg.MaxTokensTotal))
	}
	return b
}

// input is the text field of a budget field; nil for any other field.
func (b *budgetFields) input(field debateField) *textinput.Model {
	switch field {
	case fieldCost:
		return &b.cost
	case fieldTokens:
		return &b.tokens
	case fieldTopic, fieldRounds, fieldPersonas, fieldTools, fieldProvider, fieldModel, fieldPause, fieldProtocol, fieldStart, debateFields:
	}
	return nil
}

// setStyles gives both fields the form's look.
func (b *budgetFields) setStyles(s textinput.Styles) {
	b.cost.SetStyles(s)
	b.tokens.SetStyles(s)
}

// blur takes the cursor out of both fields.
func (b *budgetFields) blur() {
	b.cost.Blur()
	b.tokens.Blur()
}

// budgets reads the caps as the debate takes them (0: no cap). A cap that
// cannot be read comes back as the field it is in and the sentence to show
// under it.
func (f *DebateForm) budgets() (maxCost float64, maxTokens int, field debateField, problem string) {
	b := &f.budget
	if v := b.cost.Value(); strings.TrimSpace(v) != "" {
		d, err := debate.ParseCostBudget(costCapName, v)
		if err != nil {
			return 0, 0, fieldCost, budgetSentence(err)
		}
		maxCost = d
	}
	if v := b.tokens.Value(); strings.TrimSpace(v) != "" {
		n, err := debate.ParseTokenBudget(tokenCapName, v)
		if err != nil {
			return 0, 0, fieldTokens, budgetSentence(err)
		}
		maxTokens = n
	}
	cfg := debate.Config{MaxCost: maxCost, Prices: f.opts.Settings.Config.Prices}
	var nc *debate.NoCostError
	if err := debate.CheckCostSource(cfg, f.resolved); errors.As(err, &nc) {
		return 0, 0, fieldCost, noCostSentence(nc)
	}
	return maxCost, maxTokens, 0, ""
}

// budgetSentence is a cap's refusal with what else the person can do.
func budgetSentence(err error) string {
	return mdrender.Inline(err.Error() + "; leave it empty for no cap.")
}

// noCostSentence is the command line's refusal of a cost budget nothing
// counts, naming the form's fields instead of the flags.
func noCostSentence(e *debate.NoCostError) string {
	return mdrender.Inline(sentence(errors.New(e.Sentence("A cost cap", "the token cap instead"))))
}

// checkBudgets reads the caps and shows under the Budget row what is
// wrong with them, if anything; ok reports whether they can be used. With
// focus, a cap at fault is focused.
func (f *DebateForm) checkBudgets(focus bool) (maxCost float64, maxTokens int, ok bool) {
	maxCost, maxTokens, field, problem := f.budgets()
	f.budget.err, f.budget.errField = problem, field
	if problem != "" && focus {
		f.focusField(field)
	}
	return maxCost, maxTokens, problem == ""
}

// budgetKey handles a key in the focused budget field: ↑, ↓ and enter move
// between fields; the rest edit the cap, clearing what was wrong with it.
func (f *DebateForm) budgetKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, f.keys.FieldUp, f.keys.FieldDn, f.keys.Enter) {
		f.navigate(msg)
		return nil
	}
	return f.budgetEdit(msg)
}

// budgetEdit gives msg (a key or a paste) to the focused budget field.
func (f *DebateForm) budgetEdit(msg tea.Msg) tea.Cmd {
	in := f.budget.input(f.focus)
	if in == nil {
		return nil
	}
	before := in.Value()
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	if in.Value() != before && f.budget.errField == f.focus {
		f.budget.err = ""
	}
	return cmd
}

// budgetMoved checks the caps when the focus leaves a budget field, so a
// mistake shows before ctrl+s.
func (f *DebateForm) budgetMoved(from debateField) {
	if (from == fieldCost || from == fieldTokens) && f.focus != from {
		f.checkBudgets(false)
	}
}

// providerChanged checks a cost cap again under the provider chosen now:
// switching to one that reports costs clears the refusal, to one that
// does not shows it.
func (f *DebateForm) providerChanged() {
	if strings.TrimSpace(f.budget.cost.Value()) != "" || f.budget.err != "" {
		f.checkBudgets(false)
	}
}

// budgetRows are the Budget row and, under it, what is wrong with the
// caps.
func (f DebateForm) budgetRows(w int) []string {
	s := &f.styles
	show := func(field debateField, in textinput.Model) string {
		switch {
		case f.focus == field:
			return cells.Pad(in.View(), budgetInputWidth+1)
		case strings.TrimSpace(in.Value()) == "":
			return cells.Pad(s.Muted.Render(in.Placeholder), budgetInputWidth+1)
		default:
			return cells.Pad(s.Value.Render(mdrender.Inline(in.Value())), budgetInputWidth+1)
		}
	}
	sub := func(field debateField, name string) string {
		if f.focus == field {
			return s.FocusLabel.Render(name)
		}
		return s.Label.Render(name)
	}
	field := fieldCost
	if f.focus == fieldTokens {
		field = fieldTokens
	}
	value := sub(fieldCost, "$ ") + show(fieldCost, f.budget.cost) + "   " + sub(fieldTokens, "tokens ") + show(fieldTokens, f.budget.tokens)
	out := []string{f.inline(field, "Budget", value, "stop for the verdict once spent")}
	if f.budget.err != "" {
		indent := strings.Repeat(" ", labelWidth+2)
		for _, l := range strings.Split(ansi.Wordwrap(f.budget.err, max(w-labelWidth-4, 10), ""), "\n") {
			out = append(out, cells.Fit(indent+s.Error.Render(l), w))
		}
	}
	return out
}

// topicHeight is the topic field's lines on a screen h lines high: 4, or 3
// below 26 lines, so that with the Budget row the form still shows every
// field and its button on an 80×24 terminal.
func topicHeight(h int) int {
	if h < 26 {
		return 3
	}
	return 4
}
