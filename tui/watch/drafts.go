package watch

import (
	"fmt"
	"strings"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// A seat roundtable plays (`roundtable seat`) writes what it is composing
// to <room>/drafts/<seat>.json, rewritten as tokens arrive and removed
// when the message is posted. The screen shows each draft as a dim block
// under the transcript, "peer is writing…", until the real message lands.

// draftsMsg is the room's drafts after a change of one of them.
type draftsMsg struct {
	id     int64
	drafts []room.Draft
}

// lastBySeat is the time of each seat's latest message.
func lastBySeat(msgs []room.Message) map[string]time.Time {
	out := map[string]time.Time{}
	for i := range msgs {
		if t := msgs[i].Time(); t.After(out[msgs[i].Seat]) {
			out[msgs[i].Seat] = t
		}
	}
	return out
}

// draftItems are the drafts to show: those not already replaced by a
// message of their seat posted since the draft began.
func (l *msgList) draftItems() []item {
	var out []item
	for i := range l.drafts {
		d := &l.drafts[i]
		if last, ok := l.lastAt[d.Seat]; ok && !d.StartedAt.IsZero() && !last.Before(d.StartedAt) {
			continue
		}
		out = append(out, item{kind: kindDraft, key: "d:" + d.Seat + ":" + d.StartedAt.Format(time.RFC3339Nano), draft: d})
	}
	return out
}

// setDrafts takes the room's drafts: a draft whose text changed is drawn
// again; the list keeps its place.
func (l *msgList) setDrafts(ds []room.Draft) {
	old := map[string]string{}
	for _, it := range l.items[l.base:] {
		old[it.key] = it.draft.Text
	}
	l.drafts = ds
	l.gen++
	l.items = append(l.items[:l.base], l.draftItems()...)
	for _, it := range l.items[l.base:] {
		if text, ok := old[it.key]; !ok || text != it.draft.Text {
			delete(l.lines, it.key)
		}
		delete(old, it.key)
	}
	for k := range old { // drafts gone: posted or given up
		delete(l.lines, k)
	}
	l.reindex()
	if l.top.item >= len(l.items) {
		l.top = pos{max(len(l.items)-1, 0), 0}
	}
}

// renderDraft draws a draft like a message, dim: the seat "is writing…",
// then its text rendered as Markdown (raw HTML shown as text) with the
// colours taken out.
func (l *msgList) renderDraft(d *room.Draft) []string {
	s := l.styles
	look := l.look(d.Seat)
	left := look.name + s.Faint.Render(" is writing…")
	if agent := mdrender.Inline(d.Agent); agent != "" {
		left += " " + s.Faint.Render(agent)
	}
	right := ""
	if !d.StartedAt.IsZero() {
		right = s.Faint.Render(fmt.Sprintf("draft · since %s", d.StartedAt.In(l.loc).Format(time.TimeOnly)))
	}
	kind, text := draftKind(d.Text)
	if kind != "" {
		left += s.Faint.Render(" · " + mdrender.Inline(kind))
	}
	out := []string{fitLR(left, right, l.width)}
	bar := s.Faint.Render("│") + " "
	body := l.md().Render(text, l.bodyWidth())
	if strings.TrimSpace(body) == "" {
		return append(out, bar+s.Faint.Render("…"), "")
	}
	for _, line := range splitLines(body) {
		line = strings.TrimRight(xansi.Strip(line), " ")
		if line == "" {
			out = append(out, s.Faint.Render("│"))
			continue
		}
		out = append(out, bar+s.Faint.Render(line))
	}
	return append(out, "")
}

// draftKind takes the kind off the start of a draft, as the post will: a
// first line "kind: concession" (a seat roundtable plays writes it, in
// Markdown emphasis or not) or a leading "/objection" (a person at the
// keyboard), so the draft shows the kind in its header, not as raw text.
func draftKind(text string) (kind, body string) {
	first, rest, _ := strings.Cut(text, "\n")
	if k, ok := debate.KindLine(first); ok {
		return k, strings.TrimLeft(rest, "\n")
	}
	if k, b := splitKind(text); k != "" {
		return k, b
	}
	return "", text
}
