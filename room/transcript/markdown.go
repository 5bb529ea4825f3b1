package transcript

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// messageLevels is how far a message's own headings move down: the
// transcript uses levels one to three.
const messageLevels = 3

// Markdown writes the transcript of r as Markdown to w: a header (topic,
// room, mode, message count, rounds, who sat where, duration), the messages
// by round (by round and persona, then the verdict, for a debate), a note
// naming unreadable message files, and how the room ended or that it is
// still open. Everything written has been through SanitizeTerminal, so it is
// safe to print to a terminal. Nothing is written when the room cannot be
// read.
func Markdown(w io.Writer, r *room.Room) error {
	d, err := load(r)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	writeMarkdown(&b, d)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write the transcript: %w", err)
	}
	return nil
}

func writeMarkdown(b *bytes.Buffer, d *doc) {
	fmt.Fprintf(b, "# %s\n\n", mdPlain(d.Topic))
	fmt.Fprintf(b, "- **Room:** %s\n", d.Room)
	fmt.Fprintf(b, "- **Mode:** %s\n", d.Mode)
	fmt.Fprintf(b, "- **Messages:** %d\n", d.Count)
	fmt.Fprintf(b, "- **Rounds:** %s\n", d.Rounds)
	if d.Notes > 0 {
		fmt.Fprintf(b, "- **Notes:** %d\n", d.Notes)
	}
	seatsLabel := "Seats"
	if d.Debate {
		seatsLabel = "Personas"
	}
	fmt.Fprintf(b, "- **%s:**\n", seatsLabel)
	for _, s := range d.Seats {
		stance := ""
		if s.Stance != "" {
			stance = " (" + mdPlain(s.Stance) + ")"
		}
		fmt.Fprintf(b, "  - %s%s: %s\n", mdPlain(s.Seat), stance, mdPlain(s.Agents))
	}
	fmt.Fprintf(b, "- **Duration:** %s\n\n", d.Duration)
	writeSkippedMarkdown(b, d.Skipped)
	if len(d.Groups) == 0 && len(d.Verdicts) == 0 {
		b.WriteString("_No messages yet._\n\n")
	}
	for _, g := range d.Groups {
		fmt.Fprintf(b, "## %s\n\n", g.Title)
		for i := range g.Entries {
			writeEntryMarkdown(b, &g.Entries[i])
		}
	}
	if len(d.Verdicts) > 0 {
		b.WriteString("## Verdict\n\n")
		for i := range d.Verdicts {
			writeEntryMarkdown(b, &d.Verdicts[i])
		}
	}
	b.WriteString("## End\n\n")
	b.WriteString(mdPlain(d.End.Text))
	b.WriteString("\n")
}

func writeSkippedMarkdown(b *bytes.Buffer, skipped []room.Skipped) {
	if len(skipped) == 0 {
		return
	}
	fmt.Fprintf(b, "> **Note:** %s\n>\n", skippedSummary(len(skipped)))
	for _, s := range skipped {
		fmt.Fprintf(b, "> - `%s`: %s\n", strings.ReplaceAll(s.File, "`", "'"), mdPlain(s.Reason))
	}
	b.WriteString("\n")
}

// mdPlain escapes the "<" of a plain-text value (a topic, a label, a
// reason) placed in Markdown, so that a Markdown viewer shows it as text and
// never as raw HTML. Agent messages are Markdown and stay as written.
func mdPlain(s string) string { return strings.ReplaceAll(s, "<", `\<`) }

// skippedSummary is the sentence that introduces the unreadable files.
func skippedSummary(n int) string {
	if n == 1 {
		return "1 message file could not be read and is not shown:"
	}
	return fmt.Sprintf("%d message files could not be read and are not shown:", n)
}

func writeEntryMarkdown(b *bytes.Buffer, e *entry) {
	if e.Note {
		writeNoteMarkdown(b, e)
		return
	}
	fmt.Fprintf(b, "### %s\n\n", mdPlain(strings.Join(metaParts(e), " · ")))
	text := strings.TrimRight(nestMarkdown(e.Text, messageLevels), "\n \t")
	if strings.TrimSpace(text) == "" {
		text = "_(empty message)_"
	}
	b.WriteString(text)
	b.WriteString("\n\n")
}

// metaParts are the seat, agent, kind, time and sequence number of a message,
// leaving out the ones that are empty.
func metaParts(e *entry) []string {
	parts := make([]string, 0, 5)
	for _, p := range []string{e.Seat, e.Agent, e.Kind, e.Time} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return append(parts, fmt.Sprintf("#%d", e.Seq))
}
