package room

// STAND-IN for helper H8's room/snapshot.go (issue 15): the contract's
// Cursor, Snapshot and (*Room).Snapshot, written small so the host's
// observe_room tool (H6) can be built and tested before H8's file lands.
// The lead deletes this file at merge in favour of H8's.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Cursor says what a watcher already has.
type Cursor struct {
	Seq, NoteSeq int
	LogOffset    int64
	DraftsSig    string
}

// Snapshot is what is new in a room since a Cursor.
type Snapshot struct {
	Config        *Config
	Messages      []Message
	Notes         []Note
	Closed        *Closed
	Log           string
	Drafts        []Draft
	DraftsChanged bool
	Next          Cursor
}

const snapshotLogMax = 256 << 10

// Snapshot returns what is new in r since c.
func (r *Room) Snapshot(c Cursor) (Snapshot, error) {
	st, err := r.State()
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Next: c}
	if c == (Cursor{}) {
		cfg := r.Config()
		s.Config = &cfg
	}
	for _, m := range st.Messages {
		if m.Seq > c.Seq {
			s.Messages = append(s.Messages, m)
			s.Next.Seq = m.Seq
		}
	}
	for _, n := range st.Notes {
		if n.Seq > c.NoteSeq {
			s.Notes = append(s.Notes, n)
			s.Next.NoteSeq = n.Seq
		}
	}
	s.Closed = st.Closed
	if f, err := os.Open(filepath.Join(r.dir, LogFile)); err == nil {
		if _, err := f.Seek(c.LogOffset, io.SeekStart); err == nil {
			b, _ := io.ReadAll(io.LimitReader(f, snapshotLogMax))
			if i := strings.LastIndexByte(string(b), '\n'); i >= 0 {
				s.Log = string(b[:i+1])
				s.Next.LogOffset = c.LogOffset + int64(i+1)
			}
		}
		f.Close()
	}
	if d, err := r.Drafts(); err == nil {
		raw, _ := json.Marshal(d)
		sum := sha256.Sum256(raw)
		if sig := hex.EncodeToString(sum[:8]); sig != c.DraftsSig {
			s.Drafts, s.DraftsChanged, s.Next.DraftsSig = d, true, sig
		}
	}
	return s, nil
}

// Empty reports whether s has nothing new.
func (s Snapshot) Empty() bool {
	return s.Config == nil && len(s.Messages) == 0 && len(s.Notes) == 0 && s.Log == "" && !s.DraftsChanged
}
