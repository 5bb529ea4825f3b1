package debate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// writeNoteMarkdown writes a user's note in the headless md transcript: a
// quoted band between the turns it came between.
func writeNoteMarkdown(b *strings.Builder, t Turn) {
	b.WriteString("\n> **The user's note:**\n>\n")
	for _, line := range strings.Split(strings.TrimSpace(t.Text), "\n") {
		b.WriteString(strings.TrimRight("> "+line, " "))
		b.WriteByte('\n')
	}
}

// writeNoteText writes a note event in the live text output.
func writeNoteText(w io.Writer, ev Event) {
	lines := strings.Split(strings.TrimSpace(ev.Text), "\n")
	fmt.Fprintf(w, "\n✎ Your note to the panel: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

// noteFeed reads the headless command's notes, one line at a time, when
// the debate pauses after a round: a non-blank line is a note, a blank
// line none; after the end of the input no more notes come.
type noteFeed struct {
	br      *bufio.Reader
	pending chan lineRead // the read in flight, nil when none
	eof     bool
}

type lineRead struct {
	line string
	err  error
}

func newNoteFeed(r io.Reader) *noteFeed { return &noteFeed{br: bufio.NewReader(r)} }

// next waits for the next line, or ctx. ok is false at the end of the
// input (or when it cannot be read) and when ctx ended first.
func (f *noteFeed) next(ctx context.Context) (line string, ok bool, err error) {
	if f.eof {
		return "", false, nil
	}
	if f.pending == nil {
		// Reading may block (a script that has not answered yet), so it
		// runs apart from the debate, which a ctrl+c must still stop.
		ch := make(chan lineRead, 1)
		f.pending = ch
		go func() {
			s, err := f.br.ReadString('\n')
			ch <- lineRead{s, err}
		}()
	}
	select {
	case r := <-f.pending:
		f.pending = nil
		if r.err != nil {
			f.eof = true
			if !errors.Is(r.err, io.EOF) {
				return "", false, r.err
			}
			if r.line == "" {
				return "", false, nil
			}
		}
		return strings.TrimRight(r.line, "\r\n"), true, nil
	case <-ctx.Done():
		return "", false, nil
	}
}

// onPause answers a pause event of a headless debate: the next line of the
// notes (if any) is handed to the debate, then it goes on.
func (f *noteFeed) onPause(ctx context.Context, sess *Session, ev Event, prompt bool, stderr io.Writer) {
	if f == nil {
		sess.Continue()
		return
	}
	if prompt && !f.eof {
		fmt.Fprintf(stderr, "roundtable: paused after round %d: type a note for the panel and press enter, or just enter to go on\n", ev.Round)
	}
	line, ok, err := f.next(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "roundtable: cannot read the notes (%v); the debate goes on without them\n", err)
	}
	if ok && strings.TrimSpace(line) != "" {
		if err := sess.Interject(line); err != nil {
			fmt.Fprintf(stderr, "roundtable: the note was not taken: %v\n", err)
		}
	}
	sess.Continue()
}
