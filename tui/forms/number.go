package forms

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// number is a whole number field between lo and hi: ← and → step it, and
// digits type it.
type number struct {
	value, lo, hi int
	typed         string // digits typed since the field was focused
}

func newNumber(v, lo, hi int) number { return number{value: clamp(v, lo, hi), lo: lo, hi: hi} }

// update handles a key on the focused field; it reports whether it used it.
func (n *number) update(msg tea.KeyPressMsg, k KeyMap) bool {
	switch {
	case key.Matches(msg, k.Less):
		n.value, n.typed = clamp(n.value-1, n.lo, n.hi), ""
	case key.Matches(msg, k.More):
		n.value, n.typed = clamp(n.value+1, n.lo, n.hi), ""
	case key.Matches(msg, k.Erase):
		if len(n.typed) > 0 {
			n.typed = n.typed[:len(n.typed)-1]
			if v, err := strconv.Atoi(n.typed); err == nil {
				n.value = clamp(v, n.lo, n.hi)
			}
		}
	case len(msg.Text) == 1 && msg.Text[0] >= '0' && msg.Text[0] <= '9':
		typed := n.typed + msg.Text
		v, err := strconv.Atoi(typed)
		if err != nil || v > n.hi {
			// Start over from this digit.
			typed = msg.Text
			v, _ = strconv.Atoi(typed)
		}
		n.typed = typed
		n.value = clamp(v, n.lo, n.hi)
	default:
		return false
	}
	return true
}

// blur forgets the digits typed.
func (n *number) blur() { n.typed = "" }

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
