package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// folderFiles maps each file under dir (relative path) to its content.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

// readState reads a room the way the reference rooms are read (a fresh
// Open, then State), as a reader that knows nothing of the notes would.
func readState(t *testing.T, cwd, name string) room.State {
	t.Helper()
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestNotesKeepReferenceRoomsReadable: the rooms the original TypeScript
// server wrote, given host notes (by roundtable note on the open one; as
// files, given before the close, on the closed one), read through the
// reference rooms' reader path give the same round, turn, messages, close
// and budget as without them; what the original reads (room.json,
// messages/, closed.json) is byte for byte unchanged; and a seat server
// gives the same status and messages as on the room without notes, with
// the notes besides.
func TestNotesKeepReferenceRoomsReadable(t *testing.T) {
	for _, name := range []string{"open-room", "cache-design"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(roomtest.ReferenceRooms(), name)
			plain := roomtest.CopyTree(t, src)
			noted := roomtest.CopyTree(t, src)
			dir := room.Dir(noted, name)
			before := readState(t, plain, name)
			origMsgs := folderFiles(t, filepath.Join(dir, "messages"))
			origTop := folderFiles(t, dir)

			if before.Closed == nil {
				sendNote(t, noted, name, "Host: weigh the audit log first.")
				sendNote(t, noted, name, "Host: and keep the answer short.")
			} else {
				// A closed room takes no new note: write two as if given
				// before the close, in the notes folder's format.
				if err := os.MkdirAll(room.NotesDir(dir), 0o755); err != nil {
					t.Fatal(err)
				}
				for i, text := range []string{"Host: weigh the audit log first.", "Host: and keep the answer short."} {
					at := time.Date(2026, 11, 30, 12, 0, i, 0, time.UTC)
					n := room.Note{Seq: i + 1, At: at.Format(room.TimeLayout), From: room.NoteFromHost, Text: text, AfterSeq: 2 + 3*i}
					roomtest.WriteFile(t, filepath.Join(room.NotesDir(dir), fmt.Sprintf("%04d-%d-abcdef.json", n.Seq, at.UnixMilli())), roomtest.Encode(t, n))
				}
			}

			after := readState(t, noted, name)
			if after.Round != before.Round || after.Turn != before.Turn || after.OutOfBudget != before.OutOfBudget ||
				!reflect.DeepEqual(after.Closed, before.Closed) || len(after.Skipped) != 0 {
				t.Fatalf("notes changed the state: round %d/%d turn %s/%s out %v/%v closed %+v/%+v skipped %v",
					after.Round, before.Round, after.Turn, before.Turn, after.OutOfBudget, before.OutOfBudget, after.Closed, before.Closed, after.Skipped)
			}
			if !reflect.DeepEqual(after.Messages, before.Messages) {
				t.Fatalf("notes changed the messages:\n%+v\n%+v", after.Messages, before.Messages)
			}
			if len(after.Notes) != 2 || after.Notes[0].Text != "Host: weigh the audit log first." {
				t.Fatalf("notes read back: %+v", after.Notes)
			}
			// What the original server reads is untouched: the notes are
			// only in notes/.
			if got := folderFiles(t, filepath.Join(dir, "messages")); !reflect.DeepEqual(got, origMsgs) {
				t.Fatal("the messages folder changed")
			}
			top := folderFiles(t, dir)
			// The store's write lock (.lock, made by any writer of ours, a
			// post as much as a note) and server.log are not the room's
			// content.
			for _, f := range []string{room.LogFile, ".lock"} {
				delete(top, f)
				delete(origTop, f)
			}
			if !reflect.DeepEqual(top, origTop) {
				t.Fatalf("the room folder's files changed: %v", keys(top))
			}

			// A seat on each: the same status and messages, and the notes.
			ours := hosttest.StartSeat(t, noted, name, "peer")
			ref := hosttest.StartSeat(t, plain, name, "peer")
			got, want := ours.OK("read_room", map[string]any{"since": 0}), ref.OK("read_room", map[string]any{"since": 0})
			for _, k := range []string{"round", "turn", "message_count", "closed", "budget", "your_turn"} {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%s: %v with notes, %v without", k, got[k], want[k])
				}
			}
			if !reflect.DeepEqual(got["messages"], want["messages"]) {
				t.Errorf("messages differ:\n%v\n%v", got["messages"], want["messages"])
			}
			if n := notesOf(t, got); len(n) != 2 || notesOf(t, want) != nil {
				t.Errorf("notes: %v with, %v without", got["notes"], want["notes"])
			}
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
