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
)

// Draft is the text a seat played by roundtable (`roundtable seat`) is
// composing, before it becomes one message. It lives in
// <room>/drafts/<seat>.json, outside messages/, so the store never counts
// it and the original server never sees it; watchers show it live.
type Draft struct {
	Seat      string    `json:"seat"`
	Agent     string    `json:"agent"`
	StartedAt time.Time `json:"startedAt"`
	Text      string    `json:"text"`
}

// maxDraftBytes bounds a draft file a reader accepts: a message's text is
// at most MaxTextBytes; JSON escapes can grow it up to six times.
const maxDraftBytes = 6*MaxTextBytes + 64<<10

// DraftsDir is the folder holding the drafts of the room in roomDir.
func DraftsDir(roomDir string) string { return filepath.Join(roomDir, "drafts") }

// WriteDraft replaces d.Seat's draft with d, atomically: a reader sees the
// old draft or the new one, never a torn file.
func (r *Room) WriteDraft(d Draft) error {
	if d.Seat != SeatLead && d.Seat != SeatPeer {
		return fmt.Errorf("%w: a draft belongs to the lead or the peer, not %q", ErrBadSeat, d.Seat)
	}
	dir := DraftsDir(r.dir)
	if err := mkdirNoLink(dir); err != nil {
		return err
	}
	data, err := encodeJSON(d)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, d.Seat+".json"), data); err != nil {
		return fmt.Errorf("write the %s draft of room %s: %w", d.Seat, r.cfg.Room, err)
	}
	return nil
}

// ClearDraft removes seat's draft; a draft that is not there is fine.
func (r *Room) ClearDraft(seat string) error {
	err := os.Remove(filepath.Join(DraftsDir(r.dir), seat+".json"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("clear the %s draft of room %s: %w", seat, r.cfg.Room, err)
	}
	return nil
}

// Drafts reads the drafts being composed, the lead's first. A file that is
// missing, torn, too large or about another seat is skipped: drafts are a
// view of work in progress, never something to fail on.
func (r *Room) Drafts() ([]Draft, error) {
	names, err := listNames(DraftsDir(r.dir))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []Draft
	for _, n := range names {
		seat, ok := strings.CutSuffix(n, ".json")
		if !ok || (seat != SeatLead && seat != SeatPeer) {
			continue
		}
		data, err := readRegular(filepath.Join(DraftsDir(r.dir), n), maxDraftBytes)
		if err != nil {
			continue
		}
		var d Draft
		if json.Unmarshal(data, &d) != nil || d.Seat != seat {
			continue
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seat == SeatLead && out[j].Seat != SeatLead })
	return out, nil
}
