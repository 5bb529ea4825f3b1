package forms

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// toBudget is the keys from the topic field to the cost cap: past the
// rounds, the personas, the provider and the pause (the mock's model is
// no field).
var toBudget = []string{"tab", "tab", "tab", "tab", "tab", "tab"} // past the pause and the protocol

// pressAll presses keys on f and returns it with the last message a
// command sent (nil for none).
func pressAll(f DebateForm, keys ...string) (DebateForm, tea.Msg) {
	var last tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		f, cmd = f.Update(press(k))
		if cmd != nil {
			if msg := cmd(); msg != nil {
				last = msg
			}
		}
	}
	return f, last
}

// budgetForm is a form with a topic whose caps are typed as cost and
// tokens, under settings s (nil: the mock, no flags).
func budgetForm(t *testing.T, s *debate.Settings, cost, tokens string) DebateForm {
	t.Helper()
	set := debate.Settings{Getenv: noEnv}
	if s != nil {
		set = *s
	}
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: set})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	f, _ = pressAll(f, typeText(nil, "Adopt GraphQL")...)
	for i := 0; f.focus != fieldCost; i++ {
		if i == int(debateFields) {
			t.Fatal("tab never reaches the cost cap")
		}
		f, _ = pressAll(f, "tab")
	}
	f, _ = pressAll(f, typeText(nil, cost)...)
	f, _ = pressAll(f, "tab")
	f, _ = pressAll(f, typeText(nil, tokens)...)
	return f
}

// TestDebateFormBudgets: the caps are read as the flags read them; a good
// pair reaches the debate's config, a bad one stays in the form with a
// sentence under the Budget row saying what to type, its field focused,
// and no debate asked for.
func TestDebateFormBudgets(t *testing.T) {
	openrouter := &debate.Settings{Getenv: func(k string) string {
		return map[string]string{"OPENROUTER_API_KEY": "sk-test"}[k]
	}, Provider: debate.ProviderConfig{Name: debate.ProviderOpenRouter}}
	tests := []struct {
		name         string
		s            *debate.Settings
		cost, tokens string
		wantCost     float64
		wantTokens   int
		wantField    debateField // the field refused; 0 when the debate starts
		wantErr      string
	}{
		{"both empty: no caps", nil, "", "", 0, 0, 0, ""},
		{"a token cap", nil, "", "20000", 0, 20000, 0, ""},
		{"spaces around a token cap", nil, "", " 500 ", 0, 500, 0, ""},
		{"a token cap of 0", nil, "", "0", 0, 0, fieldTokens, `The token cap must be a number of 1 or more, not "0"; leave it empty for no cap.`},
		{"a negative token cap", nil, "", "-5", 0, 0, fieldTokens, `The token cap must be a number of 1 or more, not "-5"`},
		{"a fraction of a token", nil, "", "1.5", 0, 0, fieldTokens, `not "1.5"`},
		{"words for tokens", nil, "", "lots", 0, 0, fieldTokens, `The token cap must be a number of 1 or more, not "lots"`},
		{"dollars with openrouter", openrouter, "0.50", "", 0.5, 0, 0, ""},
		{"dollars with a dollar sign", openrouter, "$2", "1000", 2, 1000, 0, ""},
		{"no dollars", openrouter, "0", "", 0, 0, fieldCost, `The cost cap must be an amount of dollars of more than 0 like 0.50, not "0"; leave it empty for no cap.`},
		{"negative dollars", openrouter, "-1", "", 0, 0, fieldCost, `The cost cap must be an amount of dollars of more than 0 like 0.50, not "-1"`},
		{"words for dollars", openrouter, "lots", "", 0, 0, fieldCost, `not "lots"`},
		{"not a number", openrouter, "NaN", "", 0, 0, fieldCost, `not "NaN"`},
		{"infinite dollars", openrouter, "inf", "", 0, 0, fieldCost, `not "inf"`},
		{"the cost is refused before the tokens", openrouter, "x", "y", 0, 0, fieldCost, `not "x"`},
		{"a good cost and bad tokens", openrouter, "1", "y", 0, 0, fieldTokens, `not "y"`},
		{
			"dollars with the mock, which reports no cost", nil, "0.50", "", 0, 0, fieldCost,
			`A cost cap needs a cost to count, and the mock provider reports none; add a [prices."MODEL"] table to a personas file (see roundtable debate --help) or use the token cap instead.`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := budgetForm(t, tt.s, tt.cost, tt.tokens)
			f, msg := pressAll(f, "ctrl+s")
			if tt.wantErr == "" {
				start, ok := msg.(StartMsg)
				if !ok {
					t.Fatalf("no debate asked for: %q\n%s", f.budget.err, plain(f.View()))
				}
				if c := start.Settings.Config; c.MaxCost != tt.wantCost || c.MaxTokensTotal != tt.wantTokens {
					t.Errorf("config budgets $%v %d tokens, want $%v %d", c.MaxCost, c.MaxTokensTotal, tt.wantCost, tt.wantTokens)
				}
				if _, err := debate.Prepare(start.Settings); err != nil {
					t.Errorf("the debate the form asks for is refused: %v", err)
				}
				return
			}
			if msg != nil || f.Starting() {
				t.Fatalf("a refused cap still asked for the debate: %#v", msg)
			}
			if f.focus != tt.wantField || f.budget.errField != tt.wantField || !strings.Contains(f.budget.err, tt.wantErr) {
				t.Errorf("focus %d, error on %d: %q; want %d: %q", f.focus, f.budget.errField, f.budget.err, tt.wantField, tt.wantErr)
			}
			if strings.Contains(f.budget.err, "--max") {
				t.Errorf("the form names a flag where the person typed in a field: %q", f.budget.err)
			}
			// The sentence is under the Budget row.
			lines := strings.Split(plain(f.View()), "\n")
			at := -1
			for i, l := range lines {
				if strings.Contains(l, "Budget") {
					at = i
				}
			}
			if at < 0 || at+1 >= len(lines) || !strings.Contains(lines[at+1], firstWords(f.budget.err, 4)) {
				t.Errorf("the sentence is not under the Budget row:\n%s", plain(f.View()))
			}
		})
	}
}

// firstWords is s's first n words.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	return strings.Join(w[:min(n, len(w))], " ")
}

// TestDebateFormBudgetsMatchTheFlags: the form's refusal is the flags'
// (debate.ParseCostBudget, ParseTokenBudget) with the field named instead
// of the flag.
func TestDebateFormBudgetsMatchTheFlags(t *testing.T) {
	_, flagErr := debate.ParseCostBudget("--max-cost", "lots")
	f := budgetForm(t, nil, "lots", "")
	f, _ = pressAll(f, "ctrl+s")
	if want := strings.TrimPrefix(flagErr.Error(), "--max-cost"); !strings.Contains(f.budget.err, want) {
		t.Errorf("the form says %q, the flag %q", f.budget.err, flagErr)
	}
	_, flagErr = debate.ParseTokenBudget("--max-tokens-total", "0")
	f = budgetForm(t, nil, "", "0")
	f, _ = pressAll(f, "ctrl+s")
	if want := strings.TrimPrefix(flagErr.Error(), "--max-tokens-total"); !strings.Contains(f.budget.err, want) {
		t.Errorf("the form says %q, the flag %q", f.budget.err, flagErr)
	}
	// The cost cap with no cost: the command line's sentence, the form's names.
	_, cliErr := debate.Prepare(debate.Settings{Getenv: noEnv, Config: debate.Config{Topic: "t", MaxCost: 1, Personas: []debate.Persona{{Name: "A", Persona: "a"}}}, Cwd: t.TempDir()})
	f = budgetForm(t, nil, "1", "")
	f, _ = pressAll(f, "ctrl+s")
	var nc *debate.NoCostError
	if !errors.As(cliErr, &nc) {
		t.Fatalf("the command line does not refuse a cost cap on the mock: %v", cliErr)
	}
	cli := strings.TrimSuffix(strings.TrimPrefix(cliErr.Error(), debate.ErrBadConfig.Error()+": --max-cost"), "--max-tokens-total")
	if !strings.Contains(f.budget.err, cli) {
		t.Errorf("the form says %q, the command line %q", f.budget.err, cliErr)
	}
}

// TestDebateFormBudgetsFromFlags: --max-cost and --max-tokens-total fill
// the caps in; the debate keeps them, and emptying a field drops its cap.
func TestDebateFormBudgetsFromFlags(t *testing.T) {
	s := debate.Settings{Getenv: noEnv, Config: debate.Config{MaxCost: 0.25, MaxTokensTotal: 5000, Prices: debate.PriceTable{"mock": {Prompt: 1, Completion: 2}}}}
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: s})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if v := plain(f.View()); !strings.Contains(v, "$ 0.25") || !strings.Contains(v, "tokens 5000") {
		t.Fatalf("the flags do not fill the caps in:\n%s", v)
	}
	f, _ = pressAll(f, typeText(nil, "T")...)
	_, msg := pressAll(f, "ctrl+s")
	c := msg.(StartMsg).Settings.Config
	if c.MaxCost != 0.25 || c.MaxTokensTotal != 5000 {
		t.Errorf("budgets $%v %d tokens, want the flags'", c.MaxCost, c.MaxTokensTotal)
	}
	// A price table makes the mock's cost count: the cap is taken.
	if _, err := debate.Prepare(msg.(StartMsg).Settings); err != nil {
		t.Errorf("with a price table: %v", err)
	}
	f, _ = pressAll(f, toBudget...)
	f, _ = pressAll(f, "backspace", "backspace", "backspace", "backspace", "tab", "backspace", "backspace", "backspace", "backspace")
	_, msg = pressAll(f, "ctrl+s")
	if c := msg.(StartMsg).Settings.Config; c.MaxCost != 0 || c.MaxTokensTotal != 0 {
		t.Errorf("emptied caps: $%v %d tokens, want none", c.MaxCost, c.MaxTokensTotal)
	}
}

// TestDebateFormBudgetFocus: the caps come after the pause and the
// protocol and
// before the button, both ways; leaving a bad cap says so at once, editing
// it clears the sentence, and the keys are those of a text field.
func TestDebateFormBudgetFocus(t *testing.T) {
	f := newTestDebateForm(120, 40)
	var order []debateField
	for range 8 {
		f, _ = pressAll(f, "tab")
		order = append(order, f.focus)
	}
	want := []debateField{fieldRounds, fieldPersonas, fieldProvider, fieldPause, fieldProtocol, fieldCost, fieldTokens, fieldStart}
	if !slices.Equal(order, want) {
		t.Errorf("tab order %v, want %v", order, want)
	}
	order = order[:0]
	for range 4 {
		f, _ = pressAll(f, "shift+tab")
		order = append(order, f.focus)
	}
	if want := []debateField{fieldTokens, fieldCost, fieldProtocol, fieldPause}; !slices.Equal(order, want) {
		t.Errorf("shift+tab order %v, want %v", order, want)
	}
	f, _ = pressAll(f, "tab", "tab", "tab")
	lines := strings.Split(plain(f.View()), "\n")
	help := lines[len(lines)-1]
	for _, k := range []string{"tab next field", "shift+tab previous", "ctrl+s start", "esc back"} {
		if !strings.Contains(help, k) {
			t.Errorf("the help lacks %q on the token cap:\n%s", k, help)
		}
	}
	if strings.Contains(help, "space switch") || strings.Contains(help, "←/→") {
		t.Errorf("keys that do nothing in a text field are in the help:\n%s", help)
	}
	// x and space are text here, not switches; enter moves on.
	f, _ = pressAll(f, "1", "x", "enter")
	if f.focus != fieldStart || f.budget.err == "" || f.budget.errField != fieldTokens || !strings.Contains(f.budget.err, `not "1x"`) {
		t.Fatalf("leaving a bad cap: focus %d, error on %d %q", f.focus, f.budget.errField, f.budget.err)
	}
	f, _ = pressAll(f, "shift+tab", "backspace")
	if f.focus != fieldTokens || f.budget.err != "" || f.budget.tokens.Value() != "1" {
		t.Errorf("editing the cap: focus %d, error %q, value %q", f.focus, f.budget.err, f.budget.tokens.Value())
	}
	// A paste lands in the focused cap.
	f, _ = f.Update(tea.PasteMsg{Content: "23"})
	if f.budget.tokens.Value() != "123" {
		t.Errorf("pasted: %q", f.budget.tokens.Value())
	}
}

// TestDebateFormCostCapFollowsTheProvider: a cost cap on the mock is
// refused as soon as it is left; switching to OpenRouter (which reports
// costs) takes the refusal back, switching back to the mock shows it again.
func TestDebateFormCostCapFollowsTheProvider(t *testing.T) {
	env := map[string]string{"OPENROUTER_API_KEY": "sk-test"}
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{Getenv: func(k string) string { return env[k] }}})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	f, _ = pressAll(f, toBudget...)
	f, _ = pressAll(f, "1", "tab")
	if !strings.Contains(f.budget.err, "the mock provider reports none") {
		t.Fatalf("a cost cap on the mock: %q", f.budget.err)
	}
	// Back to the provider (the mock has no model field): the next one is OpenRouter.
	f, _ = pressAll(f, "shift+tab", "shift+tab", "shift+tab", "shift+tab", "right")
	if f.focus != fieldProvider || f.providerName() != debate.ProviderOpenRouter || f.budget.err != "" {
		t.Fatalf("on %s, focus %d: %q", f.providerName(), f.focus, f.budget.err)
	}
	f, _ = pressAll(f, "left")
	if !strings.Contains(f.budget.err, "the mock provider reports none") {
		t.Errorf("back on the mock: %q", f.budget.err)
	}
}

// TestDebateFormNoCostFromStart: a cost budget the debate refused at its
// start (the app's --topic path fills the form in with the error) shows
// under the Budget row in the form's words, the cost cap focused.
func TestDebateFormNoCostFromStart(t *testing.T) {
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	s := debate.Settings{Getenv: noEnv, Config: debate.Config{Topic: "T", MaxCost: 0.5}, Cwd: t.TempDir()}
	s = s.WithPanel(panel)
	_, err := debate.Prepare(s)
	if err == nil {
		t.Fatal("a cost budget on the mock started")
	}
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: s, Err: err})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if f.focus != fieldCost || !strings.HasPrefix(f.budget.err, "A cost cap needs a cost to count") || f.err != "" {
		t.Errorf("focus %d, budget error %q, form error %q", f.focus, f.budget.err, f.err)
	}
}

// TestDebateFormBudgetErrorView: on an 80×24 screen a refused cap shows
// under the Budget row, whole, with the field focused and the help.
func TestDebateFormBudgetErrorView(t *testing.T) {
	f := newTestDebateForm(80, 24)
	f, _ = pressAll(f, typeText(nil, "Should we adopt GraphQL?")...)
	f, _ = pressAll(f, append(toBudget, typeText(nil, "lots")...)...)
	f, _ = pressAll(f, "ctrl+s")
	v := plain(f.View())
	golden(t, "budget-error-80x24", v)
	lines := strings.Split(v, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines on a 24-line screen", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d cells: %q", n, l)
		}
	}
}
