package debate

import (
	"errors"
	"testing"
)

func TestParseCostBudget(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.50", 0.5, true},
		{"$2", 2, true},
		{" 1.25 ", 1.25, true},
		{"$ 3", 0, false},
		{"1e-3", 0.001, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"lots", 0, false},
		{"", 0, false},
		{"NaN", 0, false},
		{"inf", 0, false},
		{"$", 0, false},
	} {
		got, err := ParseCostBudget("The cost cap", tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%q: %v, %v", tt.in, got, err)
		}
		if want := `The cost cap must be an amount of dollars of more than 0 like 0.50, not "` + tt.in + `"`; !tt.ok && (err == nil || err.Error() != want) {
			t.Errorf("%q: %v, want %q", tt.in, err, want)
		}
	}
}

func TestParseTokenBudget(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"1", 1, true},
		{"20000", 20000, true},
		{" 7 ", 7, true},
		{"0", 0, false},
		{"-3", 0, false},
		{"1.5", 0, false},
		{"20k", 0, false},
		{"", 0, false},
		{"99999999999999999999", 0, false},
	} {
		got, err := ParseTokenBudget("--max-tokens-total", tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%q: %v, %v", tt.in, got, err)
		}
		if want := `--max-tokens-total must be a number of 1 or more, not "` + tt.in + `"`; !tt.ok && (err == nil || err.Error() != want) {
			t.Errorf("%q: %v, want %q", tt.in, err, want)
		}
	}
}

// TestNoCostError: the command line's sentence is unchanged, the error is
// a usage error, and a form can name its own fields.
func TestNoCostError(t *testing.T) {
	cfg := Config{MaxCost: 0.5}
	err := CheckCostSource(cfg, ProviderConfig{Name: ProviderMock})
	var nc *NoCostError
	if !errors.As(err, &nc) || !errors.Is(err, ErrBadConfig) || !IsUsage(err) {
		t.Fatalf("a cost budget on the mock: %v", err)
	}
	want := `bad debate settings: --max-cost needs a cost to count, and the mock provider reports none; add a [prices."MODEL"] table to a personas file (see roundtable debate --help) or use --max-tokens-total`
	if err.Error() != want {
		t.Errorf("the command line says\n%s\nwant\n%s", err, want)
	}
	if got := nc.Sentence("A cost cap", "the token cap"); got != `A cost cap needs a cost to count, and the mock provider reports none; add a [prices."MODEL"] table to a personas file (see roundtable debate --help) or use the token cap` {
		t.Errorf("in a form's words: %s", got)
	}
	for _, ok := range []struct {
		cfg Config
		pc  ProviderConfig
	}{
		{Config{}, ProviderConfig{Name: ProviderMock}},
		{cfg, ProviderConfig{Name: ProviderOpenRouter}},
		{Config{MaxCost: 0.5, Prices: PriceTable{"m": {Prompt: 1}}}, ProviderConfig{Name: ProviderOpenAI}},
		{Config{MaxTokensTotal: 10}, ProviderConfig{Name: ProviderOllama}},
	} {
		if err := CheckCostSource(ok.cfg, ok.pc); err != nil {
			t.Errorf("%+v on %s: %v", ok.cfg, ok.pc.Name, err)
		}
	}
}
