package palette_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/tui/debateview"
	"github.com/roundtable-dev/roundtable/tui/forms"
	"github.com/roundtable-dev/roundtable/tui/home"
	"github.com/roundtable-dev/roundtable/tui/internal/palette"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

// TestPressMatchesEveryKey: the key press the palette sends for a key name
// is one key.Matches finds, for every key of every screen.
func TestPressMatchesEveryKey(t *testing.T) {
	maps := map[string]help.KeyMap{
		"debate": debateview.DefaultKeyMap(), "watch": watch.DefaultKeyMap(),
		"home": home.DefaultKeyMap(), "forms": forms.DefaultKeyMap(),
	}
	n := 0
	for screen, km := range maps {
		for _, group := range km.FullHelp() {
			for _, b := range group {
				// A key off until its screen turns it on (a council's v)
				// is pressed all the same once it is on.
				b.SetEnabled(true)
				for _, k := range b.Keys() {
					p := palette.Press(k)
					if p.String() != k || !key.Matches(p, b) {
						t.Errorf("%s: Press(%q) reads %q", screen, k, p.String())
					}
					n++
				}
			}
		}
	}
	for _, k := range []string{"ctrl+p", "alt+enter", "ctrl+shift+up", "f5", "space", "shift+tab", "é"} {
		if got := palette.Press(k).String(); got != k {
			t.Errorf("Press(%q) reads %q", k, got)
		}
	}
	if n < 40 {
		t.Errorf("only %d keys checked", n)
	}
}

// keys is a small key map.
type keys struct{ a, b, c, off, open key.Binding }

func (k keys) ShortHelp() []key.Binding { return nil }
func (k keys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.a, k.b}, {k.c, k.off, k.open, k.a}}
}

func testKeys() keys {
	off := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "disabled thing"))
	off.SetEnabled(false)
	return keys{
		a:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export .md")),
		b:    key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "export .html")),
		c:    key.NewBinding(key.WithKeys("ctrl+s", "s"), key.WithHelp("ctrl+s", "start")),
		off:  off,
		open: key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "commands")),
	}
}

func descs(p *palette.Model) []string {
	var out []string
	for _, it := range p.Items() {
		out = append(out, it.Desc)
	}
	return out
}

func TestPaletteFlow(t *testing.T) {
	var p palette.Model
	k := testKeys()
	if _, ok := p.HandleKey(palette.Press("e"), k.open, k, true); ok || p.IsOpen() {
		t.Fatal("a closed palette took a key")
	}
	if _, ok := p.HandleKey(palette.Press("ctrl+p"), k.open, k, true); !ok || !p.IsOpen() {
		t.Fatal("ctrl+p did not open the palette")
	}
	// Enabled keys, each once, not the palette's own.
	if got := strings.Join(descs(&p), ","); got != "export .md,export .html,start" {
		t.Errorf("items %q", got)
	}
	for _, r := range "html" {
		p.HandleKey(palette.Press(string(r)), k.open, k, true)
	}
	if got := strings.Join(descs(&p), ","); got != "export .html" {
		t.Errorf("filtered %q", got)
	}
	view := ansi.Strip(strings.Join(p.View(80, 24), "\n"))
	if !strings.Contains(view, "> html") || !strings.Contains(view, "E  export .html") {
		t.Errorf("view:\n%s", view)
	}
	cmd, ok := p.HandleKey(palette.Press("enter"), k.open, k, true)
	if !ok || cmd == nil || p.IsOpen() {
		t.Fatal("enter did not run the choice")
	}
	if msg, _ := cmd().(tea.KeyPressMsg); !key.Matches(msg, k.b) {
		t.Errorf("enter sent %v, want E", cmd())
	}

	// Down chooses the next; backspace widens the filter again.
	p.HandleKey(palette.Press("ctrl+p"), k.open, k, true)
	p.HandleKey(palette.Press("t"), k.open, k, true) // in all three
	if got := descs(&p); len(got) != 3 {
		t.Errorf("filter t: %q, want all three", got)
	}
	p.HandleKey(palette.Press("a"), k.open, k, true) // "ta": the letters of start, in order
	if got := descs(&p); len(got) != 1 || got[0] != "start" {
		t.Errorf("filter ta: %q, want start", got)
	}
	p.HandleKey(palette.Press("backspace"), k.open, k, true)
	p.HandleKey(palette.Press("down"), k.open, k, true)
	cmd, _ = p.HandleKey(palette.Press("enter"), k.open, k, true)
	if msg, _ := cmd().(tea.KeyPressMsg); !key.Matches(msg, k.b) {
		t.Errorf("t, down, enter sent %v, want E", cmd())
	}
	// No match: enter runs nothing; esc closes; ctrl+c closes and is left
	// to the screen.
	p.HandleKey(palette.Press("ctrl+p"), k.open, k, true)
	p.HandleKey(palette.Press("z"), k.open, k, true)
	if !strings.Contains(ansi.Strip(strings.Join(p.View(80, 24), "\n")), "no action matches") {
		t.Error("no match is not said")
	}
	if cmd, _ := p.HandleKey(palette.Press("enter"), k.open, k, true); cmd != nil {
		t.Error("enter with nothing listed ran something")
	}
	p.HandleKey(palette.Press("ctrl+p"), k.open, k, true)
	p.HandleKey(palette.Press("esc"), k.open, k, true)
	if p.IsOpen() {
		t.Error("esc did not close")
	}
	p.HandleKey(palette.Press("ctrl+p"), k.open, k, true)
	if _, ok := p.HandleKey(palette.Press("ctrl+c"), k.open, k, true); ok || p.IsOpen() {
		t.Error("ctrl+c was kept by the palette")
	}
}

func TestOverlay(t *testing.T) {
	var p palette.Model
	k := testKeys()
	view := strings.Repeat(strings.Repeat("x", 100)+"\n", 29) + strings.Repeat("x", 100)
	if p.Overlay(view, 100, 30) != view {
		t.Error("a closed palette changed the view")
	}
	p.Open(k, k.open, false)
	out := strings.Split(p.Overlay(view, 100, 30), "\n")
	if len(out) != 30 {
		t.Fatalf("%d lines, want 30", len(out))
	}
	box := 0
	for i, l := range out {
		if w := ansi.StringWidth(l); w != 100 {
			t.Errorf("line %d is %d cells wide, want 100", i, w)
		}
		if strings.Contains(ansi.Strip(l), "Commands") || strings.Contains(ansi.Strip(l), "export .md") {
			box++
			if !strings.HasPrefix(ansi.Strip(l), "xxxx") || !strings.HasSuffix(ansi.Strip(l), "xxxx") {
				t.Errorf("line %d lost the view around the box: %q", i, ansi.Strip(l))
			}
		}
	}
	if box != 2 {
		t.Errorf("the box's title and first item are on %d lines, want 2", box)
	}
}
