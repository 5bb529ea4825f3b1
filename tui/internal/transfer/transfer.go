// Package transfer carries the export and copy keys that the debate and
// watch screens share: the commands that call the transcript renderer off
// the Update path, the messages they answer with, and the status line each
// answer shows.
package transfer

import (
	"bytes"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// ExportedMsg says the transcript was written to Path, or why not. ID is
// the asking screen's, so two screens never act on each other's answers.
type ExportedMsg struct {
	ID   int64
	Path string
	HTML bool
	Err  error
}

// CopiedMsg holds the transcript as Markdown for the clipboard, or why not.
type CopiedMsg struct {
	ID   int64
	Text string
	Err  error
}

// Export writes the room's transcript into dir (empty: the working
// directory) as Markdown or HTML, through the same function as
// `roundtable transcript`.
func Export(id int64, r *room.Room, dir string, html bool) tea.Cmd {
	return func() tea.Msg {
		if dir == "" {
			wd, err := os.Getwd()
			if err != nil {
				return ExportedMsg{ID: id, HTML: html, Err: fmt.Errorf("find the working directory: %w", err)}
			}
			dir = wd
		}
		path, err := transcript.Export(r, dir, html)
		return ExportedMsg{ID: id, Path: path, HTML: html, Err: err}
	}
}

// Copy renders the room's transcript as Markdown for the clipboard.
func Copy(id int64, r *room.Room) tea.Cmd {
	return func() tea.Msg {
		var b bytes.Buffer
		err := transcript.Markdown(&b, r)
		return CopiedMsg{ID: id, Text: b.String(), Err: err}
	}
}

// Status is the status line for an export: the path written, or the error.
func (m ExportedMsg) Status() (text string, ok bool) {
	if m.Err != nil {
		return "Export failed: " + mdrender.Inline(m.Err.Error()), false
	}
	what := "Markdown"
	if m.HTML {
		what = "HTML"
	}
	return fmt.Sprintf("Exported the transcript (%s) to %s", what, mdrender.Inline(m.Path)), true
}

// Status is the status line for a copy, and the command that puts the text
// on the clipboard (OSC 52) when it worked.
func (m CopiedMsg) Status() (text string, ok bool, cmd tea.Cmd) {
	if m.Err != nil {
		return "Copy failed: " + mdrender.Inline(m.Err.Error()), false, nil
	}
	return fmt.Sprintf("Copied the transcript (%s of Markdown) to the clipboard.", byteSize(len(m.Text))), true, tea.SetClipboard(m.Text)
}

func byteSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}
