package home

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// Room modes as the list shows them.
const (
	ModeDebate = "debate"
	ModeMCP    = "MCP"
)

// Room is one room of the list: what its room.json and its files say now.
// Every string comes from files other processes write: show it through
// mdrender.Inline.
type Room struct {
	Name   string
	Mode   string // ModeDebate or ModeMCP
	Topic  string
	Closed bool
	// Reason is closed.json's reason ("complete", "cancelled", "failed:
	// ..." for debates; the agents' words for MCP rooms).
	Reason string
	// Used and Budget are rounds: held of planned for a debate, lead posts
	// of the budget for an MCP room.
	Used, Budget int
	Messages     int
	// Last is the room's last activity: its newest message, its closing,
	// or its creation.
	Last time.Time
	// Err says why the room could not be read; the other fields may be
	// partial.
	Err string
}

// Status is a one-word state: open, closed, done, stopped or failed.
func (r Room) Status() string {
	switch {
	case !r.Closed:
		return "open"
	case r.Mode != ModeDebate:
		return "closed"
	case r.Reason == debate.ReasonComplete:
		return "done"
	case r.Reason == debate.ReasonCancelled:
		return "stopped"
	case strings.HasPrefix(r.Reason, "failed"):
		return "failed"
	}
	return "closed"
}

// List reads every room under cwd/.roundtable, newest activity first (then
// by name). A folder without room.json is not a room and is left out; a
// room that cannot be read is listed with Err set. No .roundtable folder
// is an empty list, not an error.
func List(cwd string) ([]Room, error) {
	top := filepath.Join(cwd, room.Folder)
	entries, err := os.ReadDir(top)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the rooms in %s: %w", top, err)
	}
	var out []Room
	for _, e := range entries {
		if !e.IsDir() || room.ValidateName(e.Name()) != nil {
			continue
		}
		r, ok := readRoom(cwd, e.Name())
		if ok {
			out = append(out, r)
		}
	}
	sortRooms(out)
	return out, nil
}

// readRoom sums one room up; ok is false when the folder is not a room.
func readRoom(cwd, name string) (Room, bool) {
	out := Room{Name: name, Mode: ModeMCP}
	r, err := room.Open(cwd, name)
	if errors.Is(err, room.ErrNoRoom) {
		return out, false
	}
	if err != nil {
		out.Err = err.Error()
		if fi, serr := os.Stat(room.Dir(cwd, name)); serr == nil {
			out.Last = fi.ModTime()
		}
		return out, true
	}
	cfg := r.Config()
	out.Topic = cfg.Topic
	out.Budget = cfg.Budget
	out.Last = parseTime(cfg.CreatedAt)
	if cfg.IsDebate() {
		out.Mode = ModeDebate
		if cfg.Rounds > 0 {
			out.Budget = cfg.Rounds
		}
	}
	st, err := r.State()
	if err != nil {
		out.Err = err.Error()
		return out, true
	}
	out.Messages = len(st.Messages)
	if out.Mode == ModeDebate {
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
		out.Closed = true
		out.Reason = st.Closed.Reason
		out.Last = later(out.Last, parseTime(st.Closed.At))
	}
	if len(st.Skipped) > 0 {
		out.Err = fmt.Sprintf("%d message files could not be read", len(st.Skipped))
	}
	return out, true
}

// sortRooms orders rooms newest activity first, then by name.
func sortRooms(rs []Room) {
	sort.SliceStable(rs, func(i, j int) bool {
		if !rs[i].Last.Equal(rs[j].Last) {
			return rs[i].Last.After(rs[j].Last)
		}
		return rs[i].Name < rs[j].Name
	})
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
