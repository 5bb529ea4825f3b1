package transcript

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// A person's notes to a room (room.Note: the user's interjections in a
// persona debate, the host's steering notes in an MCP room) are merged into
// the transcript where they were given: each note is a band right after
// the message numbered its AfterSeq, after any earlier note there. They are
// not messages: the message count and the rounds leave them out.

// NoteLabel is how a transcript (and a screen) names a note's author:
// "The user's note" in a debate, "The host's steering note" in an MCP
// room.
func NoteLabel(from string) string {
	switch from {
	case room.NoteFromUser:
		return "The user's note"
	case room.NoteFromHost, "":
		return "The host's steering note"
	}
	return oneLine(from) + "'s note"
}

// noteEntry lays out a note like a message, marked as a note.
func noteEntry(n *room.Note, layout string) entry {
	e := entry{
		Seq:  n.Seq,
		Seat: NoteLabel(n.From),
		Text: SanitizeTerminal(n.Text),
		Note: true,
	}
	if t := n.Time(); !t.IsZero() {
		e.Time = t.UTC().Format(layout) + " UTC"
		e.ISO = t.UTC().Format(room.TimeLayout)
	}
	return e
}

// mergeNotes places every note of the room among d's messages: after the
// message numbered its AfterSeq (or the nearest message before it, when
// that one is missing), at the start when it came before any message.
func mergeNotes(d *doc, notes []room.Note, layout string) {
	if len(notes) == 0 {
		return
	}
	d.Notes = len(notes)
	lists := make([]*[]entry, 0, len(d.Groups)+1)
	for gi := range d.Groups {
		lists = append(lists, &d.Groups[gi].Entries)
	}
	lists = append(lists, &d.Verdicts)
	for i := range notes {
		e := noteEntry(&notes[i], layout)
		li, at, bestSeq := -1, 0, -1
		for l, list := range lists {
			for k, other := range *list {
				if !other.Note && other.Seq <= notes[i].AfterSeq && other.Seq > bestSeq {
					li, at, bestSeq = l, k+1, other.Seq
				}
			}
		}
		if li < 0 {
			// Before every message: at the start of the first round.
			if len(d.Groups) == 0 {
				d.Groups = append(d.Groups, group{Title: "Notes"})
				lists = append([]*[]entry{&d.Groups[0].Entries}, lists...)
				// The verdicts' pointer is unchanged; the groups' slice
				// may have moved, so point at it again.
				lists[0] = &d.Groups[0].Entries
			}
			li, at = 0, 0
		}
		list := lists[li]
		for at < len(*list) && (*list)[at].Note {
			at++ // after the notes already placed there
		}
		*list = append((*list)[:at], append([]entry{e}, (*list)[at:]...)...)
	}
}

// writeNoteMarkdown writes a note as a quoted band between messages.
func writeNoteMarkdown(b *bytes.Buffer, e *entry) {
	head := "**" + mdPlain(e.Seat) + "**"
	if e.Time != "" {
		head += " · " + e.Time
	}
	head += " · note " + strconv.Itoa(e.Seq)
	b.WriteString("> " + head + "\n>\n")
	text := strings.TrimRight(nestMarkdown(e.Text, messageLevels), "\n \t")
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			b.WriteString(">\n")
			continue
		}
		b.WriteString("> " + line + "\n")
	}
	b.WriteString("\n")
}

// writeNoteHTML writes a note as a band between the messages: an
// <article class="band"> (a note, role "note") with an escaped header and
// its text through goldmark and bluemonday.
func writeNoteHTML(b, scratch *bytes.Buffer, e *entry) {
	id := "n" + strconv.Itoa(e.Seq)
	b.WriteString(`<article class="band" role="note" id="` + id + `">` + "\n" + `<div class="meta"><span class="from">✎ `)
	_, _ = htmlText.WriteString(b, e.Seat)
	b.WriteString(`</span>`)
	writeTimeHTML(b, e)
	b.WriteString(` <a class="seq" href="#` + id + `">note ` + strconv.Itoa(e.Seq) + "</a></div>\n<div class=\"body\">\n")
	if strings.TrimSpace(e.Text) == "" {
		b.WriteString(`<p class="empty">(empty note)</p>`)
	} else {
		renderMarkdownTo(b, e.Text, scratch)
	}
	b.WriteString("</div>\n</article>")
}
