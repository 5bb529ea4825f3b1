package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A DraftWriter writes one seat's drafts, as WriteDraft does, with the slow
// part of each write made ready beforehand (Prepare): the temporary file
// the next draft goes into, and a second name for the draft on disk, so
// the rename that puts the next one in place frees no file. On ext4 those
// two cost about four fifths of a write (a new file, and a rename that
// frees the old one); made ready between writes, a reader sees each draft
// that much sooner after it is decided. Without Prepare it is WriteDraft.
//
// The files it makes ready are dot files in drafts/, which readers and the
// Notifier pass over. Close removes them. It is for one goroutine at a time.
type DraftWriter struct {
	r    *Room
	seat string
	next *os.File // the next draft's temporary file, made ready
	old  string   // a second name of the draft on disk, removed after the next write
}

// DraftWriter is a writer of seat's drafts (ErrBadSeat for a seat the room
// does not have).
func (r *Room) DraftWriter(seat string) (*DraftWriter, error) {
	if err := r.checkSeat(seat); err != nil {
		return nil, fmt.Errorf("a draft belongs to a seat of the room: %w", err)
	}
	return &DraftWriter{r: r, seat: seat}, nil
}

// Write replaces the seat's draft with d (whose Seat must be the writer's),
// atomically, into the file Prepare made ready when there is one.
func (w *DraftWriter) Write(d Draft) error {
	if d.Seat != w.seat {
		return fmt.Errorf("a draft of seat %s given to the writer of seat %s", d.Seat, w.seat)
	}
	f := w.next
	w.next = nil
	if f == nil {
		return w.r.WriteDraft(d)
	}
	data, err := encodeJSON(d)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), DraftFile(w.r.dir, w.seat))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		if errors.Is(err, fs.ErrNotExist) {
			// drafts/ went (the room's drafts were cleared): WriteDraft
			// makes it again.
			w.r.draftsMade.Store(false)
			return w.r.WriteDraft(d)
		}
		return fmt.Errorf("write the %s draft of room %s: %w", w.seat, w.r.cfg.Room, err)
	}
	return nil
}

// Prepare makes the next Write quick: it removes the name kept of the
// draft before the last write, gives the draft now on disk a second name,
// and creates the next draft's temporary file. It is best effort: what it
// cannot make ready, Write does itself.
func (w *DraftWriter) Prepare() {
	w.dropOld()
	dir := DraftsDir(w.r.dir)
	if !w.r.draftsMade.Load() {
		if mkdirNoLink(dir) != nil {
			return
		}
		w.r.draftsMade.Store(true)
	}
	old := filepath.Join(dir, tempPrefix+"was-"+randHex(12))
	if os.Link(DraftFile(w.r.dir, w.seat), old) == nil {
		w.old = old
	}
	if w.next == nil {
		f, err := os.OpenFile(filepath.Join(dir, tempPrefix+randHex(12)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
		if err == nil {
			w.next = f
		}
	}
}

func (w *DraftWriter) dropOld() {
	if w.old != "" {
		_ = os.Remove(w.old)
		w.old = ""
	}
}

// Close removes what the writer made ready; the draft itself stays (see
// ClearDraft).
func (w *DraftWriter) Close() {
	w.dropOld()
	if w.next != nil {
		_ = w.next.Close()
		_ = os.Remove(w.next.Name())
		w.next = nil
	}
}
