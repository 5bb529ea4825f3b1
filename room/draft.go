package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Draft is the text a seat is composing, before it becomes one message: a
// seat played by roundtable (`roundtable seat`), a person at the keyboard,
// a debate's persona or its moderator. It lives in
// <room>/drafts/<SeatFile(seat)>.json, outside messages/, so the store
// never counts it and the original server never sees it; watchers show it
// live. Seat is the seat's real name: readers match by it.
type Draft struct {
	Seat      string    `json:"seat"`
	Agent     string    `json:"agent"`
	StartedAt time.Time `json:"startedAt"`
	Text      string    `json:"text"`
	// Why says why the seat speaks now, when that is news: the moderator
	// giving the verdict early because a budget was reached says which.
	Why string `json:"why,omitempty"`
	// Tokens is how many tokens the text holds so far, as the speaker's
	// provider streamed them.
	Tokens int `json:"tokens,omitempty"`
	// Activity is what the speaker's agent did so far in this turn (tools
	// it ran, plans), the latest MaxDraftActivity of ActivityCount in all.
	Activity      []Activity `json:"activity,omitempty"`
	ActivityCount int        `json:"activityCount,omitempty"`
	// Retries are the times the speaker's request failed in this turn and
	// was made again, in order; the last is pending until text comes.
	Retries []DraftRetry `json:"retries,omitempty"`
}

// MaxDraftActivity bounds the activity lines a draft carries: the latest
// are kept, and ActivityCount says how many there were.
const MaxDraftActivity = 50

// DraftRetry is a request being made again: the attempt about to be made
// (2 for the first retry) of Attempts, the HTTP status that failed the
// last one (0: none, e.g. a dropped connection), how long it waits first,
// and why, in a sentence.
type DraftRetry struct {
	Attempt  int    `json:"attempt"`
	Attempts int    `json:"attempts"`
	Status   int    `json:"status,omitempty"`
	WaitMS   int64  `json:"waitMs,omitempty"`
	Reason   string `json:"reason"`
}

// maxDraftBytes bounds a draft file a reader accepts: a message's text is
// at most MaxTextBytes; JSON escapes can grow it up to six times.
const maxDraftBytes = 6*MaxTextBytes + 64<<10

// DraftsDir is the folder holding the drafts of the room in roomDir.
func DraftsDir(roomDir string) string { return filepath.Join(roomDir, "drafts") }

// DraftFile is the path of seat's draft in the room in roomDir.
func DraftFile(roomDir, seat string) string {
	return filepath.Join(DraftsDir(roomDir), SeatFile(seat)+".json")
}

// DraftFiles are the paths of the drafts of every seat of the room, in
// seat order: what a reader stats to notice a draft change.
func (r *Room) DraftFiles() []string {
	seats := r.cfg.Seats()
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = DraftFile(r.dir, s)
	}
	return out
}

// WriteDraft replaces d.Seat's draft with d, atomically: a reader sees the
// old draft or the new one, never a torn file. d.Seat must be a seat of
// the room (ErrBadSeat).
func (r *Room) WriteDraft(d Draft) error {
	if err := r.checkSeat(d.Seat); err != nil {
		return fmt.Errorf("a draft belongs to a seat of the room: %w", err)
	}
	data, err := encodeJSON(d)
	if err != nil {
		return err
	}
	// drafts/ is checked once per Room, not at each of up to 30 writes a
	// second: a write that finds it gone (another process cleared the
	// room's drafts) makes it again.
	for range 2 {
		if !r.draftsMade.Load() {
			if err := mkdirNoLink(DraftsDir(r.dir)); err != nil {
				return err
			}
			r.draftsMade.Store(true)
		}
		err = writeAtomic(DraftFile(r.dir, d.Seat), data)
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
		r.draftsMade.Store(false)
	}
	if err != nil {
		return fmt.Errorf("write the %s draft of room %s: %w", d.Seat, r.cfg.Room, err)
	}
	return nil
}

// ClearDraft removes seat's draft; a draft that is not there is fine.
func (r *Room) ClearDraft(seat string) error {
	if !validSeatName(seat) {
		return nil // no such file can exist
	}
	err := os.Remove(DraftFile(r.dir, seat))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clear the %s draft of room %s: %w", seat, r.cfg.Room, err)
	}
	return nil
}

// ClearDrafts removes the draft of every seat of the room, then the drafts
// folder when nothing else is in it: what a debate's run does when the
// room closes, so a closed room has no drafts/.
func (r *Room) ClearDrafts() error {
	var first error
	for _, seat := range r.cfg.Seats() {
		if err := r.ClearDraft(seat); err != nil && first == nil {
			first = err
		}
	}
	// What a draft writer killed mid-turn left ready (DraftWriter).
	if names, err := os.ReadDir(DraftsDir(r.dir)); err == nil {
		for _, e := range names {
			if strings.HasPrefix(e.Name(), tempPrefix) {
				_ = os.Remove(filepath.Join(DraftsDir(r.dir), e.Name()))
			}
		}
	}
	r.draftsMade.Store(false)
	_ = os.Remove(DraftsDir(r.dir)) // fails, harmlessly, when not empty
	return first
}

// Drafts reads the drafts being composed, in the room's seat order. A file
// that is missing, torn, too large, about a seat the room does not have,
// or not under its seat's name is skipped: drafts are a view of work in
// progress, never something to fail on.
func (r *Room) Drafts() ([]Draft, error) {
	return readDrafts(r.dir, r.cfg.Seats())
}

func readDrafts(dir string, seats []string) ([]Draft, error) {
	names, err := listNames(DraftsDir(dir))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	byFile := make(map[string]int, len(seats)) // file name → seat index
	for i, s := range seats {
		byFile[SeatFile(s)+".json"] = i
	}
	found := make([]*Draft, len(seats))
	for _, n := range names {
		i, ok := byFile[n]
		if !ok {
			continue
		}
		data, err := readRegular(filepath.Join(DraftsDir(dir), n), maxDraftBytes)
		if err != nil {
			continue
		}
		var d Draft
		if json.Unmarshal(data, &d) != nil || d.Seat != seats[i] {
			continue
		}
		found[i] = &d
	}
	var out []Draft
	for _, d := range found {
		if d != nil {
			out = append(out, *d)
		}
	}
	return out, nil
}
