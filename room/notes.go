package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Note senders: a steering note from whoever hosts an MCP room (watch's i,
// roundtable note), or the user's interjection in a persona debate.
const (
	NoteFromHost = "host"
	NoteFromUser = "user"
)

// Note is a person's word to a room that is not a turn: a steering note in
// an MCP room, an interjection in a persona debate. Notes live in
// <room>/notes/, one immutable file each, named like messages
// (<seq>-<unix ms>-<hex6>.json, seq counting notes from 1). The original
// server never looks there, so a room with notes gives an original seat the
// same round, turn and messages; our readers merge them: a note sits after
// the message numbered AfterSeq (0: before the first).
type Note struct {
	Seq      int    `json:"seq"`
	At       string `json:"at"`
	From     string `json:"from"`
	Text     string `json:"text"`
	AfterSeq int    `json:"afterSeq"`
	Round    int    `json:"round,omitempty"` // debates: the round it was given in (after it, or during it)

	File string `json:"-"`
}

// NotesDir is the notes folder of the room folder roomDir.
func NotesDir(roomDir string) string { return filepath.Join(roomDir, "notes") }

// Time parses At; the zero time when it is malformed.
func (n Note) Time() time.Time {
	t, err := time.Parse(time.RFC3339Nano, n.At)
	if err != nil {
		return time.Time{}
	}
	return t
}

// AddNote saves a note from from (NoteFromHost, NoteFromUser) with text,
// under the room lock: it is numbered after every note on disk and placed
// after the newest message. A closed room takes no notes (*ClosedError);
// the text must be non-empty (*EmptyError) and within MaxTextBytes
// (*TooLargeError). Notes take no turn and spend no budget.
func (r *Room) AddNote(from, text string, round int) (Note, error) {
	if strings.TrimSpace(text) == "" {
		return Note{}, &EmptyError{What: "note"}
	}
	if len(text) > MaxTextBytes {
		return Note{}, &TooLargeError{What: "note", Size: len(text), Limit: MaxTextBytes}
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	if from == "" {
		from = NoteFromHost
	}
	var n Note
	err := r.withLock(func() error {
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, err := r.refreshLocked(); err != nil {
			return err
		}
		if c, err := readClosed(r.dir); err == nil {
			return &ClosedError{Reason: c.Reason}
		}
		dir := NotesDir(r.dir)
		if err := mkdirNoLink(dir); err != nil {
			return fmt.Errorf("make the notes folder of room %q: %w", r.cfg.Room, err)
		}
		// The refresh above saw every note file, broken ones too.
		next := r.noteTop + 1
		for _, old := range r.notes {
			next = max(next, old.Seq+1)
		}
		now := time.Now()
		n = Note{Seq: next, At: formatTime(now), From: from, Text: text, Round: round}
		if k := len(r.msgs); k > 0 {
			n.AfterSeq = r.msgs[k-1].Seq
		}
		if r.cfg.IsDebate() && r.composingLocked() {
			// A persona is speaking: the note comes after its turn, which
			// did not hear it (the next persona does).
			n.AfterSeq++
		}
		data, err := encodeJSON(n)
		if err != nil {
			return err
		}
		n.File = messageFileName(n.Seq, now, randHex(6))
		tmp, err := writeTemp(dir, data)
		if err != nil {
			return fmt.Errorf("write note %d of room %q: %w", n.Seq, r.cfg.Room, err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, n.File)); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("write note %d of room %q: %w", n.Seq, r.cfg.Room, err)
		}
		r.noteSeen[n.File] = struct{}{}
		r.noteTop = max(r.noteTop, n.Seq)
		r.notes = append(r.notes, n)
		sortNotes(r.notes)
		return nil
	})
	return n, err
}

// refreshNotesLocked reads note files not seen before. A missing notes
// folder is a room without notes; an unreadable note is skipped (it is
// listed with the skipped messages).
func (r *Room) refreshNotesLocked() []Skipped {
	names, err := listNames(NotesDir(r.dir))
	if err != nil {
		return nil
	}
	return r.addNotesLocked(names)
}

// addNotesLocked reads the note files among names (in notes/) not seen
// before and returns those it skipped.
func (r *Room) addNotesLocked(names []string) []Skipped {
	dir := NotesDir(r.dir)
	var fresh []Skipped
	added := false
	for _, name := range names {
		if _, ok := r.noteSeen[name]; ok {
			continue
		}
		seq, ok := ParseMessageFileName(name)
		if !ok {
			continue
		}
		r.noteTop = max(r.noteTop, seq)
		n, err := readNote(filepath.Join(dir, name))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			r.noteSeen[name] = struct{}{}
			fresh = append(fresh, Skipped{File: "notes/" + name, Reason: err.Error()})
			continue
		}
		n.File = name
		r.noteSeen[name] = struct{}{}
		r.notes = append(r.notes, n)
		added = true
	}
	if added {
		sortNotes(r.notes)
	}
	return fresh
}

// composingLocked reports whether some seat's draft is in the room: a
// turn is being spoken (a debate's run removes a turn's draft once its
// message is in, and every draft when it closes).
func (r *Room) composingLocked() bool {
	names, err := listNames(DraftsDir(r.dir))
	return err == nil && len(names) > 0
}

func readNote(path string) (Note, error) {
	data, err := readRegular(path, maxFileBytes)
	if err != nil {
		return Note{}, err
	}
	var n Note
	if err := json.Unmarshal(data, &n); err != nil {
		return Note{}, fmt.Errorf("not a note: %v", err)
	}
	if strings.TrimSpace(n.Text) == "" {
		return Note{}, errors.New("not a note: no text")
	}
	if seq, ok := ParseMessageFileName(filepath.Base(path)); ok && n.Seq <= 0 {
		n.Seq = seq
	}
	if n.From == "" {
		n.From = NoteFromHost
	}
	return n, nil
}

func sortNotes(ns []Note) {
	sort.SliceStable(ns, func(i, j int) bool {
		if ns[i].Seq != ns[j].Seq {
			return ns[i].Seq < ns[j].Seq
		}
		return ns[i].File < ns[j].File
	})
}

// NotesAfter are the notes numbered above seq (0: all), in order.
func NotesAfter(notes []Note, seq int) []Note {
	i := sort.Search(len(notes), func(i int) bool { return notes[i].Seq > seq })
	return notes[i:]
}

// LastNoteSeq is the number of the newest note, 0 when none.
func (s State) LastNoteSeq() int {
	if len(s.Notes) == 0 {
		return 0
	}
	return s.Notes[len(s.Notes)-1].Seq
}

// WaitNote is the reason of a wait_return line when a seat's
// wait_for_message returned for the host's steering notes alone.
const WaitNote = "note"
