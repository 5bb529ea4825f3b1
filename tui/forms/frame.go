package forms

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"github.com/charmbracelet/x/ansi"
)

// finish lays a form out on a screen of w×h cells: its lines, then the
// error or a blank status line, then the help. When the screen is too short
// for every line, the title stays and the lines scroll so that line focus
// (the focused field) is shown.
func finish(s *Styles, hm help.Model, k KeyMap, lines []string, focus int, errText string, w, h int) string {
	hm.ShowAll = false
	helpLines := strings.Split(hm.View(k), "\n")
	status := s.StatusBar.Render(fit(" ", w))
	if errText != "" {
		status = s.StatusError.Render(fit(" "+truncate(errText, w-2), w))
	}
	room := max(h-1-len(helpLines), 1)
	lines = scrollLines(lines, focus, room)
	for len(lines) < room {
		lines = append(lines, "")
	}
	out := append(lines, status)
	for _, l := range helpLines {
		out = append(out, fit(" "+l, w))
	}
	return strings.Join(out, "\n")
}

func fit(line string, w int) string {
	lw := ansi.StringWidth(line)
	switch {
	case lw == w:
		return line
	case lw < w:
		return line + strings.Repeat(" ", w-lw)
	}
	return ansi.Truncate(line, w, "")
}

func pad(s string, w int) string { return fit(truncate(s, w), w) }

func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
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
