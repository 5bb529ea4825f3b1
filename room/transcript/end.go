package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// endOf says how the room ended, or that it has not.
func endOf(r *room.Room, st room.State, debate bool) end {
	if c := st.Closed; c != nil {
		var b strings.Builder
		b.WriteString("Closed")
		if t, err := time.Parse(time.RFC3339Nano, c.At); err == nil {
			b.WriteString(" at " + t.UTC().Format(time.DateTime) + " UTC")
		}
		reason := oneLine(c.Reason)
		if reason == "" {
			reason = "no reason given"
		}
		b.WriteString(": " + reason + ".")
		if spec := specNote(r, c.SpecPath, debate); spec != "" {
			b.WriteString(" " + spec)
		}
		return end{Closed: true, Text: b.String()}
	}
	if debate {
		return end{Text: "Still open: the debate has not finished (no closed.json yet); it may be running or may have been interrupted."}
	}
	text := fmt.Sprintf("Still open: no closed.json yet. It is the %s's turn.", st.Turn)
	if st.OutOfBudget {
		text += " Every round of the budget is used; the lead should write the spec and close the room."
	}
	return end{Text: text}
}

// specNote names the spec a closed room points at and says when that file
// is missing. A debate writes no spec, so it names one only when it exists.
func specNote(r *room.Room, specPath string, debate bool) string {
	if specPath == "" {
		specPath = r.Config().Spec
	}
	shown := oneLine(specPath)
	exists := false
	if safe, note := room.SafeSpec(filepath.Base(r.Dir()), specPath); note == "" {
		fi, err := os.Stat(filepath.Join(r.Cwd(), filepath.FromSlash(safe)))
		exists = err == nil && fi.Mode().IsRegular()
	}
	switch {
	case exists:
		return "Spec: " + shown + "."
	case debate:
		return ""
	default:
		return "Spec: " + shown + " (not found)."
	}
}

// skippedOf makes the store's skipped files presentable: names and reasons
// sanitized, and the room's folder trimmed from reasons so that a transcript
// does not depend on where the room lives.
func skippedOf(r *room.Room, skipped []room.Skipped) []room.Skipped {
	if len(skipped) == 0 {
		return nil
	}
	out := make([]room.Skipped, len(skipped))
	for i, s := range skipped {
		reason := strings.ReplaceAll(s.Reason, r.MessagesDir()+string(filepath.Separator), "")
		reason = strings.ReplaceAll(reason, r.Dir()+string(filepath.Separator), "")
		out[i] = room.Skipped{File: oneLine(s.File), Reason: oneLine(reason)}
	}
	slices.SortFunc(out, func(a, b room.Skipped) int { return strings.Compare(a.File, b.File) })
	return out
}
