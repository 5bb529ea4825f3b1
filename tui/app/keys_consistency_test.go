package app

import (
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/roundtable-dev/roundtable/tui/debateview"
	"github.com/roundtable-dev/roundtable/tui/home"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

// TestScreensShareKeys: the keys every screen has are the same keys,
// written the same way in each screen's help.
func TestScreensShareKeys(t *testing.T) {
	h, w, d := home.DefaultKeyMap(), watch.DefaultKeyMap(), debateview.DefaultKeyMap()
	shared := map[string][3]key.Binding{
		"page up":   {h.PageUp, w.PageUp, d.PageUp},
		"page down": {h.PageDown, w.PageDown, d.PageDown},
		"top":       {h.Top, w.Top, d.Top},
		"bottom":    {h.Bottom, w.Bottom, d.Bottom},
		"up":        {h.Up, w.Up, d.Up},
		"down":      {h.Down, w.Down, d.Down},
		"help":      {h.Help, w.Help, d.Help},
		"palette":   {h.Palette, w.Palette, d.Palette},
	}
	for name, bs := range shared {
		for i := 1; i < len(bs); i++ {
			if bs[i].Help().Key != bs[0].Help().Key {
				t.Errorf("%s: help says %q on one screen and %q on another", name, bs[0].Help().Key, bs[i].Help().Key)
			}
			if len(bs[i].Keys()) != len(bs[0].Keys()) {
				t.Errorf("%s: keys %v and %v", name, bs[0].Keys(), bs[i].Keys())
			}
		}
	}
}
