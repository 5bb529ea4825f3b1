package forms

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"

	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/hints"
)

// finishHint lays a form's lines out in h rows of width w, scrolled so
// that line focus is in sight, above its status line (errText, in the
// error style, when set) and its key hints. hint (the focused field's
// explanation, or why the form's work failed) goes in at line at,
// followed by a blank line, when every line fits; when they scroll, it
// stays in sight under them, above the status line.
func finishHint(s *Styles, hm help.Model, k KeyMap, lines, hint []string, at, focus int, errText string, w, h int) string {
	hm.ShowAll = false
	helpLines := strings.Split(hints.View(hm, k, w-1), "\n")
	status := s.StatusBar.Render(cells.Fit(" ", w))
	if errText != "" {
		status = s.StatusError.Render(cells.Fit(" "+cells.Truncate(errText, w-2), w))
	}
	room := max(h-1-len(helpLines), 1)
	var foot []string
	switch {
	case len(hint) == 0:
	case len(lines)+len(hint)+1 <= room:
		lines = slices.Insert(slices.Clone(lines), at, append(slices.Clone(hint), "")...)
		if focus >= at {
			focus += len(hint) + 1
		}
	default:
		foot = append([]string{""}, hint...)
		room = max(room-len(foot), 1)
	}
	lines = scrollLines(lines, focus, room)
	for len(lines) < room {
		lines = append(lines, "")
	}
	out := append(lines, foot...)
	out = append(out, status)
	for _, l := range helpLines {
		out = append(out, cells.Fit(" "+l, w))
	}
	return strings.Join(out, "\n")
}

// scrollLines keeps the first line (the title) and as many of the others
// as fit in room lines, shifted so that line focus is among them.
func scrollLines(lines []string, focus, room int) []string {
	if len(lines) <= room || room < 2 {
		if len(lines) > room {
			return lines[:room]
		}
		return lines
	}
	body := lines[1:]
	rows := room - 1
	start := 0
	if f := focus - 1; f >= rows-2 {
		start = min(f-(rows-3), len(body)-rows)
	}
	start = max(start, 0)
	out := append([]string{lines[0]}, body[start:start+rows]...)
	return out
}
