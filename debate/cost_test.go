package debate

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestPriceTableApply(t *testing.T) {
	table := PriceTable{"openai/gpt-4o": {Prompt: 2.5, Completion: 10}}
	u := Usage{PromptTokens: 1000, CompletionTokens: 200}
	if got := table.Apply("openai/gpt-4o", u).Cost; math.Abs(got-0.0045) > 1e-12 {
		t.Errorf("cost %v, want 0.0045 (1000×2.5 + 200×10 per million)", got)
	}
	if got := table.Apply("OpenAI/GPT-4o", u).Cost; math.Abs(got-0.0045) > 1e-12 {
		t.Errorf("a model named in another case costs %v", got)
	}
	if got := table.Apply("other", u).Cost; got != 0 {
		t.Errorf("a model without a price costs %v", got)
	}
	reported := Usage{PromptTokens: 1000, CompletionTokens: 200, Cost: 0.5}
	if got := table.Apply("openai/gpt-4o", reported).Cost; got != 0.5 {
		t.Errorf("the provider's own cost became %v; it must stand", got)
	}
	if got := PriceTable(nil).Apply("x", u); got != u {
		t.Errorf("no table changed the usage: %+v", got)
	}
}

func TestPersonaFilePrices(t *testing.T) {
	pf, err := ParsePersonaFile("p.toml", []byte(`
[[persona]]
name = "Skeptic"
persona = "someone who doubts every plan"

[prices."openai/gpt-4o"]
prompt = 2.5
completion = 10

[prices.llama3]
prompt = 0
completion = 0.1
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := pf.Prices["openai/gpt-4o"]; got != (Price{Prompt: 2.5, Completion: 10}) || len(pf.Prices) != 2 {
		t.Fatalf("prices %+v", pf.Prices)
	}
	for name, text := range map[string]string{
		"negative":    "[prices.m]\nprompt = -1\n",
		"unknown key": "[prices.m]\nprompt = 1\ninput = 2\n",
		"not numbers": "[prices.m]\nprompt = \"cheap\"\n",
		"no name":     "[prices.\"\"]\nprompt = 1\n",
	} {
		if _, err := ParsePersonaFile("p.toml", []byte(text)); !errors.Is(err, ErrBadPersona) {
			t.Errorf("%s: err %v, want ErrBadPersona", name, err)
		}
	}
	// A later file's price of a model wins; the others add up.
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	file := filepath.Join(dir, "panel.toml")
	writeFile(t, user, "[prices.a]\nprompt = 1\n[prices.b]\nprompt = 2\n")
	writeFile(t, file, "[[persona]]\nname = \"X\"\npersona = \"someone\"\n[prices.b]\nprompt = 3\n")
	panel, err := LoadPanel(PanelOptions{UserFile: user, File: file})
	if err != nil {
		t.Fatal(err)
	}
	if panel.Prices["a"].Prompt != 1 || panel.Prices["b"].Prompt != 3 {
		t.Errorf("merged prices %+v", panel.Prices)
	}
	if s := (Settings{}).WithPanel(panel); s.Config.Prices["b"].Prompt != 3 {
		t.Errorf("the settings did not take the panel's prices: %+v", s.Config.Prices)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBudgetRefusedWhenNegative(t *testing.T) {
	for _, cfg := range []Config{{MaxCost: -1}, {MaxTokensTotal: -5}, {MaxCost: math.NaN()}} {
		cfg.Topic, cfg.Personas = "t", DefaultPersonas()
		if _, err := cfg.Normalize(); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%+v: err %v, want ErrBadConfig", cfg, err)
		}
	}
}

// TestBudgetStopsAfterTheTurnThatSpendsIt is a property over many random
// debates and budgets: the debate stops right after the first turn whose
// running total reaches the budget (tokens or dollars), never earlier
// (the last turn aside: the verdict comes after it anyway);
// a budget event says which, the moderator's verdict follows on what was
// said, and the stream keeps every other invariant. A budget never reached
// changes nothing.
func TestBudgetStopsAfterTheTurnThatSpendsIt(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	stopped := 0
	for i := range 150 {
		n, rounds := 1+rng.IntN(4), 1+rng.IntN(4)
		cfg := Config{Topic: "Budgets", Personas: personasN(n), Rounds: rounds, BlindOpening: rng.IntN(3) == 0}
		byCost := rng.IntN(2) == 0
		// Each turn of the script costs 10 prompt tokens and one
		// completion token per word.
		perTurn := 10 + len(splitTokens("X speaks in round 1 about Budgets."))
		full := n * rounds * (perTurn + 4)
		if byCost {
			cfg.Prices = PriceTable{"script-model": {Prompt: 1, Completion: 1}} // $1 per million tokens
			cfg.MaxCost = float64(1+rng.IntN(full)) / 1e6
		} else {
			cfg.MaxTokensTotal = 1 + rng.IntN(full)
		}
		e, err := New(cfg, &script{})
		if err != nil {
			t.Fatal(err)
		}
		evs := collect(t, e.Run(context.Background()))
		if err := invariantErr(evs, e.Config()); err != nil {
			t.Fatalf("debate %d (%+v): %v", i, cfg, err)
		}
		var total Usage
		spentAt := -1 // index of the turn_end that spent the budget, the last turn's aside
		turns := 0
		for k, ev := range evs {
			if ev.Type == EventTurnEnd {
				total.Add(*ev.Usage)
				turns++
				if spentAt < 0 && turns < n*rounds && BudgetReached(e.Config(), total) != "" {
					spentAt = k
				}
			}
		}
		budgetAt := -1
		for k, ev := range evs {
			if ev.Type == EventBudget {
				budgetAt = k
			}
		}
		if spentAt < 0 {
			if budgetAt >= 0 {
				t.Fatalf("debate %d: a budget event at %d though no turn spent the budget", i, budgetAt)
			}
			continue
		}
		stopped++
		if budgetAt != spentAt+1 {
			t.Fatalf("debate %d: the budget was spent by event %d, the budget event is at %d", i, spentAt, budgetAt)
		}
		ev := evs[budgetAt]
		want := "token budget"
		if byCost {
			want = "cost budget"
		}
		if !strings.Contains(ev.Text, want) || ev.Usage == nil || ev.Usage.PromptTokens+ev.Usage.CompletionTokens == 0 {
			t.Fatalf("debate %d: budget event %+v", i, ev)
		}
		if byCost && ev.Usage.Cost < cfg.MaxCost {
			t.Fatalf("debate %d: stopped at $%v, under the budget $%v", i, ev.Usage.Cost, cfg.MaxCost)
		}
		// The verdict streams (the moderator's tokens), then comes whole.
		rest := slices.DeleteFunc(slices.Clone(evs[budgetAt+1:]), func(e Event) bool {
			return e.Type == EventToken
		})
		if len(rest) != 2 || rest[0].Type != EventSummary || rest[1].Type != EventDone {
			t.Fatalf("debate %d: after the budget event come %v, want the summary and done", i, rest)
		}
	}
	if stopped < 30 || stopped > 140 {
		t.Errorf("%d of 150 debates stopped at their budget; the budgets drawn do not test both outcomes", stopped)
	}
}

// TestBudgetClosesTheRoomComplete: through Start and the headless output,
// a debate stopped at its budget has its verdict, closes complete with a
// reason naming the budget, says so in its text output, and its room
// holds every message's usage.
func TestBudgetClosesTheRoomComplete(t *testing.T) {
	cwd := t.TempDir()
	opts := headlessOpts(cwd, FormatText)
	opts.Settings.Config.MaxTokensTotal = 1
	var out, errOut bytes.Buffer
	if err := RunHeadless(context.Background(), opts, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "The debate stops here: the token budget of 1 was reached") || !strings.Contains(out.String(), "Moderator's verdict") {
		t.Errorf("the output does not say the budget stopped it:\n%s", out.String())
	}
	r := onlyRoom(t, cwd)
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, "complete: the token budget of 1 was reached") || !IsComplete(st.Closed.Reason) {
		t.Fatalf("closed %+v", st.Closed)
	}
	if len(st.Messages) != 2 || st.Messages[0].Kind != KindTurn || st.Messages[1].Kind != room.KindSummary {
		t.Fatalf("messages %+v, want one turn and the verdict", st.Messages)
	}
	for _, m := range st.Messages {
		if m.Usage == nil || m.Usage.PromptTokens == 0 || m.Usage.CompletionTokens == 0 {
			t.Errorf("message %d has no usage: %+v", m.Seq, m.Usage)
		}
	}
}

// TestUsageSavedWithEveryMessage: each turn's and the verdict's usage, as
// the events carried it, is on its message, priced by the table.
func TestUsageSavedWithEveryMessage(t *testing.T) {
	s := mockSettings(t.TempDir())
	s.Config.Prices = PriceTable{"mock": {Prompt: 3, Completion: 15}}
	sess, err := Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, sess.Events())
	var usages []Usage
	for _, ev := range evs {
		if ev.Type == EventTurnEnd || ev.Type == EventSummary {
			usages = append(usages, *ev.Usage)
		}
	}
	st, last := closedState(t, sess, evs)
	if last.Type != EventDone || len(st.Messages) != len(usages) {
		t.Fatalf("last %+v, %d messages for %d usages", last, len(st.Messages), len(usages))
	}
	var sum Usage
	for i, m := range st.Messages {
		u := UsageOf(m)
		if u != usages[i] || u.Cost <= 0 {
			t.Errorf("message %d usage %+v, the event's %+v", m.Seq, u, usages[i])
		}
		if want := (Price{Prompt: 3, Completion: 15}).Cost(u); math.Abs(u.Cost-want) > 1e-12 {
			t.Errorf("message %d cost %v, want %v from the price table", m.Seq, u.Cost, want)
		}
		sum.Add(u)
	}
	if last.Usage == nil || last.Usage.PromptTokens != sum.PromptTokens || math.Abs(last.Usage.Cost-sum.Cost) > 1e-9 {
		t.Errorf("done's total %+v, the messages sum to %+v", last.Usage, sum)
	}
}
