package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Summary is one room as a list shows it: what its room.json and its
// files say now. Every string comes from files other processes write.
type Summary struct {
	Name   string
	Topic  string
	Debate bool // a persona debate (room.json's mode), else an MCP room
	Closed bool
	// Reason is closed.json's reason: "complete", "cancelled" or "failed:
	// ..." for debates, the agents' words for MCP rooms.
	Reason string
	// Used and Budget are rounds: held of planned for a debate, lead posts
	// of the budget for an MCP room.
	Used, Budget int
	Messages     int
	Skipped      int // message files that could not be read
	// Paused: an open debate waiting between two rounds (paused.json).
	Paused bool
	// Last is the room's last activity: its newest message, its closing,
	// or its creation.
	Last time.Time
	// Err says why the room could not be read; the other fields may be
	// partial.
	Err error
}

// List sums up every room under cwd/.roundtable, newest activity first
// (then by name). A folder without room.json is not a room and is left
// out; a room that cannot be read is listed with Err set. No .roundtable
// folder is an empty list, not an error.
func List(cwd string) ([]Summary, error) {
	top := filepath.Join(cwd, Folder)
	entries, err := os.ReadDir(top)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the rooms in %s: %w", top, err)
	}
	var out []Summary
	for _, e := range entries {
		if !e.IsDir() || ValidateName(e.Name()) != nil {
			continue
		}
		if s, ok := summarize(cwd, e.Name()); ok {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Last.Equal(out[j].Last) {
			return out[i].Last.After(out[j].Last)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// summarize sums one room up; ok is false when the folder is not a room.
func summarize(cwd, name string) (Summary, bool) {
	out := Summary{Name: name}
	r, err := Open(cwd, name)
	if errors.Is(err, ErrNoRoom) {
		return out, false
	}
	if err != nil {
		out.Err = err
		if fi, serr := os.Stat(Dir(cwd, name)); serr == nil {
			out.Last = fi.ModTime()
		}
		return out, true
	}
	cfg := r.Config()
	out.Topic, out.Budget, out.Debate = cfg.Topic, cfg.Budget, cfg.IsDebate()
	out.Last = parseTime(cfg.CreatedAt)
	if out.Debate && cfg.Rounds > 0 {
		out.Budget = cfg.Rounds
	}
	st, err := r.State()
	if err != nil {
		out.Err = err
		return out, true
	}
	out.Messages, out.Skipped = len(st.Messages), len(st.Skipped)
	if out.Debate {
		for _, m := range st.Messages {
			out.Used = max(out.Used, m.Round)
		}
	} else {
		out.Used = st.Round
	}
	if n := len(st.Messages); n > 0 {
		out.Last = later(out.Last, st.Messages[n-1].Time())
	}
	if st.Closed != nil {
		out.Closed, out.Reason = true, st.Closed.Reason
		out.Last = later(out.Last, parseTime(st.Closed.At))
	}
	out.Paused = pausedRound(st) > 0
	return out, true
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
