package debate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestHeadlessInterjectFrom: --interject-from gives one line per pause (a
// blank line none); the notes show in the output, join the transcript the
// next persona sees (the mock answers them), and are saved in the room as
// the user's notes, each after the turn it followed.
func TestHeadlessInterjectFrom(t *testing.T) {
	for _, format := range []string{FormatText, FormatJSONL, FormatMD} {
		t.Run(format, func(t *testing.T) {
			cwd := t.TempDir()
			opts := headlessOpts(cwd, format)
			opts.Settings.Config.Rounds = 3
			opts.Interject = strings.NewReader("What about the mobile clients?\n\nAnd the cost of a second API\n")
			var out, errOut bytes.Buffer
			if err := RunHeadless(context.Background(), opts, &out, &errOut); err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			text := out.String()
			switch format {
			case FormatText:
				for _, want := range []string{"✎ Your note to the panel: What about the mobile clients?", "✎ Your note to the panel: And the cost of a second API", "To the user's note, “What about the mobile clients”"} {
					if !strings.Contains(text, want) {
						t.Fatalf("the text output lacks %q:\n%s", want, text)
					}
				}
				// The note comes after round 1 and before round 2.
				if a, b := strings.Index(text, "✎ Your note"), strings.Index(text, "Round 2 of 3"); a < 0 || a > b {
					t.Fatalf("the first note is not between round 1 and round 2:\n%s", text)
				}
			case FormatJSONL:
				var notes, pauses []Event
				sc := bufio.NewScanner(strings.NewReader(text))
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					var ev Event
					if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
						t.Fatal(err)
					}
					switch ev.Type {
					case EventNote:
						notes = append(notes, ev)
					case EventPause:
						pauses = append(pauses, ev)
					default:
					}
				}
				if len(notes) != 2 || notes[0].Round != 1 || notes[1].Round != 3 || notes[0].From != "user" {
					t.Fatalf("note events %+v, want round 1 and round 3 from the user\n%s\nstderr: %s", notes, text, errOut.String())
				}
				if len(pauses) != 3 {
					t.Fatalf("%d pause events, want one after each of 3 rounds", len(pauses))
				}
			case FormatMD:
				for _, want := range []string{"> **The user's note:**\n>\n> What about the mobile clients?", "### Your notes"} {
					if !strings.Contains(text, want) {
						t.Fatalf("the md transcript lacks %q:\n%s", want, text)
					}
				}
			}
			r := onlyRoom(t, cwd)
			st, err := r.State()
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Notes) != 2 {
				t.Fatalf("the room has %d notes, want 2", len(st.Notes))
			}
			n := st.Notes[0]
			if n.From != room.NoteFromUser || n.Text != "What about the mobile clients?" || n.Round != 1 {
				t.Fatalf("first note saved as %+v", n)
			}
			// After the last turn of round 1 (3 personas), before round 2.
			after := st.Messages[n.AfterSeq-1]
			if after.Round != 1 || n.AfterSeq != 3 {
				t.Fatalf("the note sits after message %d (round %d), want after the last turn of round 1", n.AfterSeq, after.Round)
			}
			next := st.Messages[n.AfterSeq]
			if !strings.Contains(next.Text, "To the user's note, “What about the mobile clients”") {
				t.Fatalf("the next persona did not answer the note:\n%s", next.Text)
			}
			if st.Closed == nil || st.Closed.Reason != ReasonComplete {
				t.Fatalf("room closed %+v", st.Closed)
			}
		})
	}
}

// TestHeadlessInterjectWaitsForLines: reading notes from a pipe, the debate
// waits at each pause for the script's next line, so a script can answer
// what it saw; closing the pipe lets the rest run without notes.
func TestHeadlessInterjectWaitsForLines(t *testing.T) {
	cwd := t.TempDir()
	opts := headlessOpts(cwd, FormatJSONL)
	opts.Settings.Config.Rounds = 3
	pr, pw := io.Pipe()
	opts.Interject = pr
	opts.InterjectPrompt = true
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan error, 1)
	go func() {
		err := RunHeadless(context.Background(), opts, outW, &errOut)
		outW.Close()
		done <- err
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	pauses := 0
	var notes []string
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case EventPause:
			pauses++
			if pauses == 1 {
				// The debate waits for us: nothing comes meanwhile.
				got := make(chan bool, 1)
				go func() { got <- sc.Scan() }()
				select {
				case <-got:
					t.Fatal("the debate went on before the script answered the pause")
				case <-time.After(100 * time.Millisecond):
				}
				if _, err := io.WriteString(pw, "Answer the latency question\n"); err != nil {
					t.Fatal(err)
				}
				<-got
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.Type != EventNote {
					t.Fatalf("after the line came %s (%v), want the note", sc.Text(), err)
				}
				notes = append(notes, ev.Text)
			} else {
				pw.Close()
			}
		case EventNote:
			notes = append(notes, ev.Text)
		default:
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if pauses != 3 || len(notes) != 1 || notes[0] != "Answer the latency question" {
		t.Fatalf("%d pauses, notes %q", pauses, notes)
	}
	if !strings.Contains(errOut.String(), "paused after round 1: type a note") {
		t.Fatalf("stderr does not say the debate waits:\n%s", errOut.String())
	}
}
