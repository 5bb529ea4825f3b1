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

// TestShortKeepsMainKeys: a key map's main hints (MainHelp) stay on a
// narrow line with ? and q, before ctrl+p and the rest.
func TestShortKeepsMainKeys(t *testing.T) {
	short := []key.Binding{
		bind("enter", "open"), bind("n", "new debate"), bind("m", "MCP room"), bind("/", "filter"),
		bind("?", "help"), bind("ctrl+p", "commands"), bind("q", "quit"), bind("d", "delete"),
	}
	got := ansi.Strip(ShortMain(help.New(), short, short[:3], 59))
	for _, want := range []string{"enter open", "n new debate", "m MCP room", "? help", "q quit"} {
		if !strings.Contains(got, want) {
			t.Errorf("59 columns: %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "ctrl+p") {
		t.Errorf("59 columns: %q keeps ctrl+p over a main key", got)
	}
}

// TestFullFlowsWhenNarrow: full help whose columns do not fit side by
// side flows into lines, every hint on screen within the width.
func TestFullFlowsWhenNarrow(t *testing.T) {
	groups := [][]key.Binding{
		{bind("up", "move up"), bind("down", "move down"), bind("pgup", "page up"), bind("pgdn", "page down")},
		{bind("enter", "open"), bind("n", "new debate"), bind("m", "MCP room"), bind("d", "delete")},
		{bind("/", "filter"), bind("?", "help"), bind("q", "quit")},
	}
	got := ansi.Strip(Full(help.New(), groups, 40))
	lines := strings.Split(got, "\n")
	if len(lines) > 5 {
		t.Errorf("%d lines for 11 hints at 40 columns:\n%s", len(lines), got)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line %q is wider than 40", l)
		}
	}
	for _, g := range groups {
		for _, b := range g {
			if !strings.Contains(got, b.Help().Key+" "+b.Help().Desc) {
				t.Errorf("the help lacks %q:\n%s", b.Help().Key+" "+b.Help().Desc, got)
			}
		}
	}
}

// Short is the one-line help: every enabled binding that fits in width
// cells, in order, keeping q's, ?'s and ctrl+p's hints longest.
func Short(m help.Model, bindings []key.Binding, width int) string {
	return ShortMain(m, bindings, nil, width)
}
