package debateview

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Rounded frame pieces.
const (
	frameTL = "╭"
	frameTR = "╮"
	frameBL = "╰"
	frameBR = "╯"
	frameH  = "─"
	frameV  = "│"
)

// frame draws a pane w cells wide and h rows high (frame included) around
// lines, each already fit to the inner width w-frameWidth. title is styled
// text of titleW cells; note, if any, is styled text of noteW cells set in
// the bottom edge. dst is reused.
func frame(dst []string, border lipgloss.Style, title string, titleW int, note string, noteW int, lines []string, w, h int) []string {
	dst = dst[:0]
	if w < frameWidth+1 || h < 2 {
		return dst
	}
	// Top: "╭─ title ───╮".
	room := w - 5
	if titleW > room {
		title = ansi.Truncate(title, room, "…")
		titleW = ansi.StringWidth(title)
	}
	top := border.Render(frameTL+frameH) + " " + title + " " + border.Render(strings.Repeat(frameH, max(w-5-titleW, 0))+frameTR)
	dst = append(dst, top)
	left := border.Render(frameV) + " "
	right := " " + border.Render(frameV)
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		dst = append(dst, left+line+right)
	}
	// Bottom: "╰──── note ─╯".
	if noteW > w-4 {
		note, noteW = "", 0
	}
	var bottom string
	if note == "" {
		bottom = border.Render(frameBL + strings.Repeat(frameH, w-2) + frameBR)
	} else {
		bottom = border.Render(frameBL+strings.Repeat(frameH, w-4-noteW)) + note + border.Render(frameH+frameBR)
	}
	return append(dst, bottom)
}
