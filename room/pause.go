package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// PauseFile is the marker of a debate paused between two rounds: its run
// writes it when it stops to wait for its user (pause between rounds) and
// removes it when the debate goes on. A debate stopped or killed while
// paused leaves it, so the debate resumed from its room pauses there
// again. Readers heed it only while the room is open.
const PauseFile = "paused.json"

// Pause is paused.json (and consensus.json, ConsensusFile, has its
// shape: a round, and when).
type Pause struct {
	// Round is the round just ended, after which the debate waits.
	Round int    `json:"round"`
	At    string `json:"at"` // TimeLayout
}

// SetPaused writes paused.json: the debate waits after round.
func (r *Room) SetPaused(round int) error {
	if err := writePause(r.dir, Pause{Round: round, At: time.Now().UTC().Format(TimeLayout)}); err != nil {
		return fmt.Errorf("write %s of room %q: %w", PauseFile, r.cfg.Room, err)
	}
	return nil
}

// writePause writes p as dir's paused.json, atomically.
func writePause(dir string, p Pause) error { return writeMarker(filepath.Join(dir, PauseFile), p) }

// writeMarker writes a round marker (paused.json, consensus.json) at
// path, atomically.
func writeMarker(path string, p Pause) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return writeAtomic(path, append(data, '\n'))
}

// readMarker is the round marker at path; nil when there is none, or it
// does not parse or names no round (a marker half understood moves no
// reader).
func readMarker(path string) *Pause {
	data, err := readRegular(path, 4<<10)
	if err != nil {
		return nil
	}
	var p Pause
	if json.Unmarshal(data, &p) != nil || p.Round < 1 {
		return nil
	}
	return &p
}

// ClearPaused removes paused.json: the debate goes on. No marker is no
// error.
func (r *Room) ClearPaused() error {
	if err := removePause(r.dir); err != nil {
		return fmt.Errorf("remove %s of room %q: %w", PauseFile, r.cfg.Room, err)
	}
	return nil
}

// removePause removes dir's paused.json, if there is one.
func removePause(dir string) error {
	if err := os.Remove(filepath.Join(dir, PauseFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// readPaused is the room's paused.json; nil when there is none, when it
// does not parse (a marker half understood pauses no reader), and for an
// MCP room, which never pauses (its reads cost nothing more).
func (r *Room) readPaused() *Pause {
	if !r.cfg.IsDebate() {
		return nil
	}
	return readMarker(filepath.Join(r.dir, PauseFile))
}

// pauseRound is p's round, 0 for none.
func pauseRound(p *Pause) int {
	if p == nil {
		return 0
	}
	return p.Round
}
