package home

import (
	"fmt"
	"testing"
)

func TestView(t *testing.T) {
	cwd := sampleRooms(t)
	empty := t.TempDir()
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m := loaded(t, cwd, sz.w, sz.h)
			golden(t, fmt.Sprintf("rooms-%dx%d", sz.w, sz.h), normalize(plain(m.View()), cwd))
			e := loaded(t, empty, sz.w, sz.h)
			golden(t, fmt.Sprintf("empty-%dx%d", sz.w, sz.h), normalize(plain(e.View()), empty))
		})
	}
}
