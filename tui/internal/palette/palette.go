// Package palette is the command palette (ctrl+p) every screen shows: the
// actions of the screen with their keys, taken from the screen's key map
// (its FullHelp, so a key added there shows here with no more work),
// filtered by typing; enter runs the chosen action by sending its key to
// the screen, esc closes.
//
// A screen keeps a palette.Model, hands it its key presses first
// (HandleKey) and draws it over its view (Overlay).
package palette

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/theme"
)

// Item is one action: its key as the help shows it, what it does, and the
// key press that runs it.
type Item struct {
	Key   string
	Desc  string
	Press tea.KeyPressMsg
}

// Model is a screen's palette, closed until HandleKey opens it. The zero
// Model is ready.
type Model struct {
	open   bool
	items  []Item
	shown  []int // the items the filter keeps, best first
	filter string
	sel    int // index into shown
	styles theme.Styles
	styled bool // styles are built
}

// IsOpen reports whether the palette is shown; it then takes every key
// but ctrl+c.
func (p *Model) IsOpen() bool { return p.open }

// Items is what the palette lists now, filtered, best first.
func (p *Model) Items() []Item {
	out := make([]Item, len(p.shown))
	for i, j := range p.shown {
		out[i] = p.items[j]
	}
	return out
}

// Close hides the palette.
func (p *Model) Close() { p.open = false }

// Open lists the enabled bindings of km's full help, but self (the key that
// opens the palette), each once.
func (p *Model) Open(km help.KeyMap, self key.Binding, dark bool) {
	p.items = p.items[:0]
	seen := map[string]bool{}
	selfKey := self.Help().Key
	for _, group := range km.FullHelp() {
		for _, b := range group {
			h := b.Help()
			if !b.Enabled() || len(b.Keys()) == 0 || h.Key == "" || h.Desc == "" || h.Key == selfKey {
				continue
			}
			id := h.Key + "\x00" + h.Desc
			if seen[id] {
				continue
			}
			seen[id] = true
			p.items = append(p.items, Item{Key: h.Key, Desc: h.Desc, Press: Press(b.Keys()[0])})
		}
	}
	p.open, p.filter, p.sel = true, "", 0
	if !p.styled || p.styles.Dark != dark {
		p.styles, p.styled = theme.DefaultStyles(dark), true
	}
	p.refilter()
}

// HandleKey gives a key press to the palette first: self opens it (and,
// open, closes it); while open it takes every key but ctrl+c: typing
// filters, up and down choose, enter closes it and runs the choice (the
// returned command sends the choice's key to the screen), esc closes.
// handled is false for the keys the screen should act on.
func (p *Model) HandleKey(msg tea.KeyPressMsg, self key.Binding, km help.KeyMap, dark bool) (cmd tea.Cmd, handled bool) {
	if !p.open {
		if self.Enabled() && key.Matches(msg, self) {
			p.Open(km, self, dark)
			return nil, true
		}
		return nil, false
	}
	if key.Matches(msg, self) {
		p.Close()
		return nil, true
	}
	switch msg.String() {
	case "ctrl+c":
		p.Close()
		return nil, false
	case "esc":
		p.Close()
	case "enter":
		p.Close()
		if p.sel < len(p.shown) {
			press := p.items[p.shown[p.sel]].Press
			return func() tea.Msg { return press }, true
		}
	case "up", "shift+tab", "ctrl+k":
		p.move(-1)
	case "down", "tab", "ctrl+n", "ctrl+j":
		p.move(1)
	case "backspace", "ctrl+h":
		if r := []rune(p.filter); len(r) > 0 {
			p.filter = string(r[:len(r)-1])
			p.refilter()
		}
	case "ctrl+u":
		p.filter = ""
		p.refilter()
	default:
		if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			p.filter += msg.Text
			p.refilter()
		}
	}
	return nil, true
}

func (p *Model) move(d int) {
	if n := len(p.shown); n > 0 {
		p.sel = ((p.sel+d)%n + n) % n
	}
}

// refilter keeps the items the filter matches, best first: those whose
// description or key starts with it, then those that contain it, then
// those that hold its letters in order.
func (p *Model) refilter() {
	p.shown = p.shown[:0]
	f := strings.ToLower(strings.TrimSpace(p.filter))
	var tiers [3][]int
	for i, it := range p.items {
		desc, k := strings.ToLower(it.Desc), strings.ToLower(it.Key)
		switch {
		case f == "" || strings.HasPrefix(desc, f) || k == f || wordPrefix(desc, f):
			tiers[0] = append(tiers[0], i)
		case strings.Contains(desc, f) || strings.Contains(k, f):
			tiers[1] = append(tiers[1], i)
		case subsequence(desc+" "+k, f):
			tiers[2] = append(tiers[2], i)
		}
	}
	for _, t := range tiers {
		p.shown = append(p.shown, t...)
	}
	p.sel = min(p.sel, max(len(p.shown)-1, 0))
	if f != "" {
		p.sel = 0
	}
}

// wordPrefix reports whether a word of s starts with f.
func wordPrefix(s, f string) bool {
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, f) {
			return true
		}
	}
	return false
}

// subsequence reports whether f's letters appear in s in order.
func subsequence(s, f string) bool {
	for _, r := range f {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+len(string(r)):]
	}
	return true
}

// maxWidth bounds the palette's box.
const maxWidth = 64

// View is the palette's box for a screen of width × height cells: its
// lines, each of the same width.
func (p *Model) View(width, height int) []string {
	s := p.styles
	w := min(maxWidth, width-4)
	if w < 20 {
		w = max(width, 1)
	}
	inner := max(w-4, 1)
	rows := max(min(len(p.shown), height-8), 1)
	keyW := 0
	for _, i := range p.shown {
		keyW = max(keyW, ansi.StringWidth(p.items[i].Key))
	}
	keyW = min(keyW, inner/2)
	border := s.Muted
	line := func(content string) string {
		return border.Render("│") + " " + cells.Fit(content, inner) + " " + border.Render("│")
	}
	title := " Commands "
	out := []string{border.Render("╭─") + s.Title.Render(title) + border.Render(strings.Repeat("─", max(w-3-ansi.StringWidth(title), 0))+"╮")}
	out = append(out, line(s.Strong.Render("> ")+s.Text.Render(cells.Truncate(p.filter, inner-3))+s.Spinner.Render("█")))
	start := max(min(p.sel-rows/2, len(p.shown)-rows), 0)
	if len(p.shown) == 0 {
		out = append(out, line(s.Muted.Render("no action matches")))
	}
	for i := start; i < len(p.shown) && i < start+rows; i++ {
		it := p.items[p.shown[i]]
		k := cells.Fit(cells.Truncate(it.Key, keyW), keyW)
		desc := cells.Truncate(it.Desc, max(inner-keyW-4, 1))
		if i == p.sel {
			out = append(out, line(s.Title.Render("› "+k)+"  "+s.Strong.Render(desc)))
			continue
		}
		out = append(out, line("  "+s.StatusKey.UnsetBackground().Render(k)+"  "+s.Text.Render(desc)))
	}
	out = append(out, line(s.Faint.Render(cells.Truncate("type to filter · ↑/↓ choose · enter runs · esc closes", inner))))
	out = append(out, border.Render("╰"+strings.Repeat("─", max(w-2, 0))+"╯"))
	return out
}

// Overlay draws the open palette over view, a screen of width × height
// cells, near its top and centered; a closed palette leaves view as it is.
func (p *Model) Overlay(view string, width, height int) string {
	if !p.open {
		return view
	}
	box := p.View(width, height)
	lines := strings.Split(view, "\n")
	bw := ansi.StringWidth(box[0])
	x := max((width-bw)/2, 0)
	y := min(max(height/6, 1), max(height-len(box), 0))
	for len(lines) < y+len(box) {
		lines = append(lines, "")
	}
	for i, b := range box {
		l := lines[y+i]
		left := ansi.Truncate(l, x, "")
		if pad := x - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		right := ansi.TruncateLeft(l, x+bw, "")
		lines[y+i] = left + "\x1b[m" + b + "\x1b[m" + right
	}
	return strings.Join(lines, "\n")
}
