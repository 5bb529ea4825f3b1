package forms

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// typeText presses each rune of s.
func typeText(keys []string, s string) []string {
	for _, r := range s {
		if r == ' ' {
			keys = append(keys, "space")
			continue
		}
		keys = append(keys, string(r))
	}
	return keys
}

func noEnv(string) string { return "" }

func newTestDebateForm(w, h int) DebateForm {
	panel, _ := debate.LoadPanel(debate.PanelOptions{Agents: []string{"Cost Optimizer=a finance-minded reviewer who scrutinizes spend and ROI"}})
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{Getenv: noEnv, Config: debate.Config{Seed: 3}}, Dark: true})
	f, _ = f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return f
}

// starts is what the parent does with a StartMsg, short of running the
// debate: debate.Start's checks (debate.Prepare), and StartFailed when
// they refuse. It reports whether the debate would start.
func starts(t *testing.T, f *DebateForm, msg tea.Msg) bool {
	t.Helper()
	start, ok := msg.(StartMsg)
	if !ok {
		t.Fatalf("the form sent %#v, want a StartMsg", msg)
	}
	if !f.Starting() {
		t.Error("the form does not wait for its debate")
	}
	if _, err := debate.Prepare(start.Settings); err != nil {
		f.StartFailed(err)
		return false
	}
	return true
}

func TestDebateForm(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, f DebateForm, last tea.Msg)
	}{
		{"ctrl+s with no topic says what to do and focuses the topic", []string{"tab", "ctrl+s"}, func(t *testing.T, f DebateForm, last tea.Msg) {
			if starts(t, &f, last) || f.focus != fieldTopic || !strings.Contains(f.err, "Write the topic first") {
				t.Errorf("focus %d err %q", f.focus, f.err)
			}
		}},
		{"a topic and ctrl+s start the debate with the panel switched on", typeText(nil, "Adopt GraphQL?"), func(t *testing.T, f DebateForm, _ tea.Msg) {
			_, cmd := f.Update(press("ctrl+s"))
			start, ok := cmd().(StartMsg)
			if !ok {
				t.Fatalf("ctrl+s sent %T", cmd())
			}
			c := start.Settings.Config
			if c.Topic != "Adopt GraphQL?" || c.Rounds != debate.DefaultRounds || len(c.Personas) != 4 || c.Seed != 3 {
				t.Errorf("config %+v", c)
			}
			if start.Settings.Provider.Name != debate.ProviderMock {
				t.Errorf("provider %+v", start.Settings.Provider)
			}
		}},
		{"rounds step with arrows; digits past the range start over", append(typeText(nil, "T"), "tab", "right", "right", "left", "9", "9"), func(t *testing.T, f DebateForm, _ tea.Msg) {
			if f.rounds.value != 9 {
				t.Errorf("rounds %d", f.rounds.value)
			}
		}},
		{"rounds typed as digits stay in range", []string{"tab", "1", "0", "right", "right"}, func(t *testing.T, f DebateForm, _ tea.Msg) {
			if f.rounds.value != debate.MaxRounds {
				t.Errorf("rounds %d", f.rounds.value)
			}
		}},
		{"space switches a persona off", append(typeText(nil, "T"), "tab", "tab", "down", "space"), func(t *testing.T, f DebateForm, _ tea.Msg) {
			if f.personas[1].Enabled || f.Enabled() != 3 {
				t.Errorf("personas %+v", f.personas)
			}
			_, cmd := f.Update(press("ctrl+s"))
			if c := cmd().(StartMsg).Settings.Config; len(c.Personas) != 3 || c.Personas[1].Name != "Security Reviewer" {
				t.Errorf("panel %v", c.Names())
			}
		}},
		{"every persona off cannot start", append(typeText(nil, "T"), "tab", "tab", "space", "down", "space", "down", "space", "down", "space", "ctrl+s"), func(t *testing.T, f DebateForm, last tea.Msg) {
			if starts(t, &f, last) || !strings.Contains(f.err, "at least one persona") || f.focus != fieldPersonas {
				t.Errorf("err %q focus %d", f.err, f.focus)
			}
		}},
		{"a provider without its key says which variable to set", append(typeText(nil, "T"), "tab", "tab", "tab", "right", "ctrl+s"), func(t *testing.T, f DebateForm, last tea.Msg) {
			if starts(t, &f, last) || !strings.Contains(f.err, "OPENROUTER_API_KEY") || f.focus != fieldProvider {
				t.Errorf("err %q focus %d", f.err, f.focus)
			}
			if !strings.Contains(plain(f.View()), "Set OPENROUTER_API_KEY") {
				t.Errorf("the form does not show the missing key:\n%s", plain(f.View()))
			}
		}},
		{"esc goes back", []string{"esc"}, func(t *testing.T, _ DebateForm, last tea.Msg) {
			if _, ok := last.(BackMsg); !ok {
				t.Errorf("esc sent %#v", last)
			}
		}},
		{"enter in the topic is a new line", typeText([]string{"a", "enter", "b"}, ""), func(t *testing.T, f DebateForm, last tea.Msg) {
			if f.topic.Value() != "a\nb" || last != nil {
				t.Errorf("topic %q last %v", f.topic.Value(), last)
			}
		}},
		{"the mock's model is not a field", []string{"tab", "tab", "tab", "tab"}, func(t *testing.T, f DebateForm, _ tea.Msg) {
			if f.focus != fieldPause {
				t.Errorf("focus %d, want the pause option after the provider", f.focus)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestDebateForm(120, 40)
			var last tea.Msg
			for _, k := range tt.keys {
				var cmd tea.Cmd
				f, cmd = f.Update(press(k))
				if cmd != nil {
					if msg := cmd(); msg != nil {
						last = msg
					}
				}
			}
			tt.check(t, f, last)
		})
	}
}

func TestDebateFormKeyFromEnv(t *testing.T) {
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	env := map[string]string{"OPENROUTER_API_KEY": "sk-test"}
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{
		Getenv: func(k string) string { return env[k] }, Provider: debate.ProviderConfig{Name: "openrouter", Model: "x/y"},
	}})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, k := range typeText(nil, "T") {
		f, _ = f.Update(press(k))
	}
	_, cmd := f.Update(press("ctrl+s"))
	start, ok := cmd().(StartMsg)
	if !ok {
		t.Fatalf("no start: err %q", f.err)
	}
	pc, err := debate.ResolveProvider(start.Settings.Provider, start.Settings.Getenv)
	if err != nil || pc.APIKey != "sk-test" || pc.Model != "x/y" {
		t.Errorf("provider %+v %v", pc, err)
	}
	if !strings.Contains(plain(f.View()), "key from OPENROUTER_API_KEY") {
		t.Errorf("the form does not say where the key comes from:\n%s", plain(f.View()))
	}
}

func TestDebateFormView(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{60, 20}, {80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			f := newTestDebateForm(sz.w, sz.h)
			for _, k := range append(typeText(nil, "Should we adopt GraphQL?"), "tab", "tab", "down") {
				f, _ = f.Update(press(k))
			}
			golden(t, fmt.Sprintf("debate-%dx%d", sz.w, sz.h), plain(f.View()))
			keytest.KeyBar(t, plain(f.View()), "ctrl+s start", "esc back")
		})
	}
	// A short screen keeps the focused field in view.
	f := newTestDebateForm(80, 14)
	for _, k := range append(typeText(nil, "T"), "shift+tab") {
		f, _ = f.Update(press(k))
	}
	if v := plain(f.View()); !strings.Contains(v, "Start the debate") || !strings.Contains(v, "New persona debate") {
		t.Errorf("the focused button is off screen:\n%s", v)
	}
}

// press builds a key press by name.
var press = keytest.Press

// TestDebateFormShowsWhyItCouldNotStart: a server that is not there
// comes back from debate.Start as one sentence, shown whole in the form
// (wrapped, not cut at the status line), with the provider focused; keys
// wait while the debate starts.
func TestDebateFormShowsWhyItCouldNotStart(t *testing.T) {
	f := newTestDebateForm(80, 30)
	for _, k := range typeText(nil, "T") {
		f, _ = f.Update(press(k))
	}
	f, cmd := f.Update(press("ctrl+s"))
	if _, ok := cmd().(StartMsg); !ok || !f.Starting() || !strings.Contains(plain(f.View()), "Starting the debate…") {
		t.Fatalf("ctrl+s: starting %v\n%s", f.Starting(), plain(f.View()))
	}
	if f2, cmd := f.Update(press("ctrl+s")); cmd != nil || f2.topic.Value() != "T" {
		t.Error("a second ctrl+s while starting did something")
	}
	err := debate.Preflight(context.Background(), debate.ProviderConfig{Name: debate.ProviderOllama, BaseURL: "http://127.0.0.1:9/v1"})
	if !errors.Is(err, debate.ErrUnreachable) {
		t.Fatalf("preflight of a closed port: %v", err)
	}
	f.StartFailed(err)
	if f.Starting() || f.focus != fieldProvider {
		t.Errorf("starting %v focus %d", f.Starting(), f.focus)
	}
	v := plain(f.View())
	flat := strings.Join(strings.Fields(v), " ")
	want := "Ollama at http://127.0.0.1:9 is not answering: start it with `ollama serve`, or choose another provider."
	if !strings.Contains(flat, want) {
		t.Errorf("the form does not show %q whole:\n%s", want, v)
	}
	for _, l := range strings.Split(v, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("a line is wider than the screen: %q", l)
		}
	}
	// Typing again is possible, and the form can start again.
	f, _ = f.Update(press("ctrl+s"))
	if !f.Starting() {
		t.Error("the form cannot start again after a failure")
	}
}

// TestFormBaseURLAloneIsAServer: `roundtable tui --base-url URL` with no
// provider opens the form on an OpenAI-compatible server at URL, as the
// debate itself resolves it, and starts it there: the form chose the mock
// and ran it in the server's place.
func TestFormBaseURLAloneIsAServer(t *testing.T) {
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	set := debate.Settings{Getenv: noEnv, Provider: debate.ProviderConfig{BaseURL: "http://127.0.0.1:8080/v1", Model: "local"}}
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: set})
	if got := f.providerName(); got != debate.ProviderOpenAI {
		t.Fatalf("the form's provider: %s, want openai", got)
	}
	f, _ = pressAll(f, typeText(nil, "Adopt GraphQL")...)
	_, msg := pressAll(f, "ctrl+s")
	start, ok := msg.(StartMsg)
	if !ok {
		t.Fatalf("ctrl+s sent %T, want a StartMsg", msg)
	}
	if pc := start.Settings.Provider; pc.Name != debate.ProviderOpenAI || pc.BaseURL != set.Provider.BaseURL || pc.Model != "local" {
		t.Errorf("the debate starts on %+v, want openai at %s, model local", pc, set.Provider.BaseURL)
	}
}
