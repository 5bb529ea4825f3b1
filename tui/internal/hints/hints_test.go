package hints

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

type keys struct{ short []key.Binding }

func (k keys) ShortHelp() []key.Binding { return k.short }
func (k keys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.short[:3], k.short[3:6], k.short[6:]}
}

func bind(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }

var watchKeys = keys{short: []key.Binding{
	bind("f", "unfollow"), bind("s", "spec"), bind("esc", "back"), bind("e", "export md"),
	bind("E", "export html"), bind("y", "copy"), bind("?", "help"), bind("q", "quit"),
}}

func TestShortKeepsQuit(t *testing.T) {
	m := help.New()
	full := ansi.Strip(View(m, watchKeys, 200))
	if full != "f unfollow • s spec • esc back • e export md • E export html • y copy • ? help • q quit" {
		t.Fatalf("wide: %q", full)
	}
	for w := 6; w <= 90; w++ {
		got := ansi.Strip(View(m, watchKeys, w))
		if ansi.StringWidth(got) > w {
			t.Errorf("width %d: %q is %d wide", w, got, ansi.StringWidth(got))
		}
		if !strings.Contains(got, "q quit") {
			t.Errorf("width %d: %q lost q quit", w, got)
		}
		if w >= 15 && !strings.Contains(got, "? help") {
			t.Errorf("width %d: %q lost ? help", w, got)
		}
		if got != full && w >= 17 && !strings.Contains(got, "…") {
			t.Errorf("width %d: %q leaves hints out without saying so", w, got)
		}
	}
	if got := ansi.Strip(View(m, watchKeys, 60)); got != "f unfollow • s spec • esc back … ? help • q quit" {
		t.Errorf("60 columns: %q", got)
	}
	if got := ansi.Strip(View(m, watchKeys, 4)); got != "q q…" {
		t.Errorf("4 columns: %q", got)
	}
}

// TestShortKeepsThePalette: ctrl+p's hint stays with ? and q on a
// narrow line.
func TestShortKeepsThePalette(t *testing.T) {
	k := keys{short: []key.Binding{
		bind("enter", "open"), bind("n", "new debate"), bind("m", "new MCP room"), bind("/", "filter"),
		bind("?", "help"), bind("ctrl+p", "commands"), bind("q", "quit"), bind("d", "delete"),
	}}
	got := ansi.Strip(Short(help.New(), k.short, 59))
	for _, want := range []string{"? help", "ctrl+p commands", "q quit", "…"} {
		if !strings.Contains(got, want) {
			t.Errorf("59 columns: %q lacks %q", got, want)
		}
	}
}

func TestShortSkipsDisabled(t *testing.T) {
	k := keys{short: []key.Binding{bind("a", "one"), bind("b", "two"), bind("?", "help"), bind("q", "quit")}}
	k.short[1].SetEnabled(false)
	if got := ansi.Strip(Short(help.New(), k.short, 80)); got != "a one • ? help • q quit" {
		t.Errorf("%q", got)
	}
}

func TestFullFlowsOntoRows(t *testing.T) {
	m := help.New()
	m.ShowAll = true
	wide := ansi.Strip(View(m, watchKeys, 200))
	if strings.Count(wide, "\n") != 2 {
		t.Errorf("wide full help is not one row of columns:\n%s", wide)
	}
	for _, w := range []int{20, 30, 60} {
		got := ansi.Strip(View(m, watchKeys, w))
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: line %q is too wide", w, l)
			}
		}
		for _, b := range watchKeys.short {
			if !strings.Contains(got, b.Help().Desc) {
				t.Errorf("width %d: %q missing:\n%s", w, b.Help().Desc, got)
			}
		}
	}
}
