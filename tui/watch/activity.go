package watch

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// activityLine sums up what a coding agent did during its turn besides
// speaking (the message's "activity" field: tools it called, plans,
// permissions refused) in one dim line under the message's header:
// "· 3 steps: reading room/store.go · searching "seat" · refused: edit
// main.go", cut to the width. "" when the message has none.
func (l *msgList) activityLine(acts []room.Activity) string {
	if len(acts) == 0 {
		return ""
	}
	parts := make([]string, 0, len(acts))
	for _, a := range acts {
		if t := strings.TrimSpace(mdrender.Inline(a.Text)); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	head := "1 step: "
	if len(parts) > 1 {
		head = plural(len(parts), "step") + ": "
	}
	return xansi.Truncate(l.styles.Faint.Render("  "+head+strings.Join(parts, " · ")), l.width, "…")
}
