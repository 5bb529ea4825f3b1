package room

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"
)

// SessionsDir is the folder of the ACP sessions of the seats roundtable
// plays with a coding agent (roundtable seat --agent): one file a seat,
// <SeatFile(seat)>.json, so a seat started again resumes its agent's
// session where the agent offers session/resume. The original server
// never reads it.
func SessionsDir(roomDir string) string { return filepath.Join(roomDir, "sessions") }

// SeatSession is the agent session a played seat last had.
type SeatSession struct {
	Seat    string `json:"seat"`
	Agent   string `json:"agent"`   // the agent's label (acp:codex…): another agent starts afresh
	Session string `json:"session"` // the ACP session id
	Saved   string `json:"saved"`   // when, RFC 3339
}

// maxSessionBytes bounds what is read of a session file.
const maxSessionBytes = 16 << 10

// SeatSession is the session seat's agent (labeled agent) last had, ""
// when there is none, it was another agent's, or the file cannot be read.
func (r *Room) SeatSession(seat, agent string) string {
	if !validSeatName(seat) {
		return ""
	}
	data, err := readRegular(filepath.Join(SessionsDir(r.dir), SeatFile(seat)+".json"), maxSessionBytes)
	if err != nil {
		return ""
	}
	var s SeatSession
	if json.Unmarshal(data, &s) != nil || s.Seat != seat || s.Agent != agent {
		return ""
	}
	return s.Session
}

// SaveSeatSession records session as the one seat's agent (labeled
// agent) has now, atomically.
func (r *Room) SaveSeatSession(seat, agent, session string) error {
	if err := r.checkSeat(seat); err != nil {
		return err
	}
	if err := mkdirNoLink(SessionsDir(r.dir)); err != nil {
		return err
	}
	data, err := encodeJSON(SeatSession{Seat: seat, Agent: agent, Session: session, Saved: time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(SessionsDir(r.dir), SeatFile(seat)+".json"), data); err != nil {
		return fmt.Errorf("save the %s seat's agent session in room %s: %w", seat, r.cfg.Room, err)
	}
	return nil
}
