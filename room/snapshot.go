package room

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"time"
)

// A watcher on another machine follows a room through snapshots: each says
// what is new in the room since a Cursor, and carries the Cursor to ask
// from next. ApplySnapshot (mirror.go) writes them into a local copy of the
// room in the same file formats, so the watch screen shows a remote room
// as it shows a local one.
//
// # The observe_room tool
//
// A host serves snapshots to its observers with the MCP tool ObserveTool
// ("observe_room"). Its arguments:
//
//	{"cursor": {…a Cursor, as returned in "next"…}, "wait_seconds": 50}
//
// cursor is optional (absent, null or {}: from the start; ParseCursor reads
// it, also when a client sends it as a JSON string); wait_seconds (0 to
// MaxObserveWait) is how long the host may park the call while nothing is
// new. The reply is one text content holding the Snapshot as JSON
// (json.Marshal(snapshot)):
//
//	{
//	  "room": "auth-design",                  always
//	  "config": {…room.json…},                the first time (cursor.opened false)
//	  "messages": [{…message file…}, …],      seq > cursor.seq, in order
//	  "notes": [{…note file…}, …],            seq > cursor.noteSeq, in order
//	  "closed": {…closed.json…},              once, when the room has closed
//	  "spec": {"path": "SPEC-x.md", "text": "…"}, with closed, when the spec exists
//	  "log": "…whole server.log lines…",      from cursor.logOffset
//	  "logReset": true,                       log starts server.log from its beginning
//	  "drafts": [{…draft file…}, …],          with draftsChanged: the drafts now
//	  "draftsChanged": true,
//	  "paused": {…paused.json…},              with pausedChanged: the debate waits (absent: it went on)
//	  "pausedChanged": true,
//	  "more": true,                           a bound was reached: ask again at once
//	  "next": {"seq": 12, "noteSeq": 1, "logOffset": 4096, "draftsSig": "…",
//	           "opened": true, "closed": false, "paused": 1}
//	}
//
// A host's handler is ParseCursor, then SnapshotWait with the room's
// Notifier (so a draft written reaches the watcher within a frame), then
// json.Marshal of the snapshot as the reply's text.
//
// Empty fields are left out. A reply with nothing new (Empty) carries next
// equal to the cursor sent; a client keeps its cursor when a reply has no
// "next" at all (a host shutting down may answer {"idle": true}).
//
// Replies are bounded: at most SnapshotMaxMessages messages and notes and
// about SnapshotMaxText bytes of their text (a single larger message still
// goes alone), at most SnapshotMaxLog bytes of server.log, cut after a
// whole line; "more" then says to ask again without waiting. logReset is
// set when the log part starts at offset 0: the first time, and when
// server.log shrank (it was replaced); a mirror then empties its log first.

// ObserveTool is the name of the observer's MCP tool.
const ObserveTool = "observe_room"

// ObserveSeatRefusal starts a host's refusal of observe_room called with a
// seat's token, so roundtable watch --url can say that the token is the
// wrong one rather than blame the URL.
const ObserveSeatRefusal = "observe_room is for observers (roundtable watch --url)"

// MaxObserveWait is the longest wait_seconds an observe_room call may ask.
const MaxObserveWait = 55

// Bounds of one snapshot (variables, so tests can cut them small).
var (
	SnapshotMaxMessages = 500
	SnapshotMaxText     = 1 << 20
	SnapshotMaxLog      = 256 << 10
)

// Cursor says what a watcher already has.
type Cursor struct {
	Seq       int    `json:"seq"`              // the newest message seq received
	NoteSeq   int    `json:"noteSeq"`          // the newest note seq received
	LogOffset int64  `json:"logOffset"`        // server.log bytes received
	DraftsSig string `json:"draftsSig"`        // the drafts received (their hash)
	Opened    bool   `json:"opened"`           // room.json was received
	Closed    bool   `json:"closed"`           // closed.json was received
	Paused    int    `json:"paused,omitempty"` // the round the debate was paused after when last sent; 0: not paused
}

// SpecFile is the spec of a closed room: its path relative to the room's
// cwd (SpecFor) and its text.
type SpecFile struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// Snapshot is what is new in a room since a Cursor, and the next cursor.
type Snapshot struct {
	Room          string    `json:"room"`
	Config        *Config   `json:"config,omitempty"`
	Messages      []Message `json:"messages,omitempty"`
	Notes         []Note    `json:"notes,omitempty"`
	Closed        *Closed   `json:"closed,omitempty"`
	Spec          *SpecFile `json:"spec,omitempty"`
	Log           string    `json:"log,omitempty"`
	LogReset      bool      `json:"logReset,omitempty"`
	Drafts        []Draft   `json:"drafts,omitempty"`
	DraftsChanged bool      `json:"draftsChanged,omitempty"`
	Paused        *Pause    `json:"paused,omitempty"`
	PausedChanged bool      `json:"pausedChanged,omitempty"`
	More          bool      `json:"more,omitempty"`
	Next          Cursor    `json:"next"`
}

// Empty reports a snapshot that brings nothing new.
func (s Snapshot) Empty() bool {
	return s.Config == nil && len(s.Messages) == 0 && len(s.Notes) == 0 && s.Closed == nil &&
		s.Spec == nil && s.Log == "" && !s.LogReset && !s.DraftsChanged && !s.PausedChanged
}

// ParseCursor reads the cursor argument of an observe_room call: absent
// (nil), an object, or the same object as a JSON string. Fields out of
// range are an error naming them.
func ParseCursor(v any) (Cursor, error) {
	var c Cursor
	var data []byte
	switch v := v.(type) {
	case nil:
		return c, nil
	case string:
		if v == "" {
			return c, nil
		}
		data = []byte(v)
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			return c, fmt.Errorf("cursor: %w", err)
		}
	}
	if len(data) > 4<<10 {
		return c, errors.New("cursor: over 4 KiB; pass the next object of the previous reply as it was")
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return Cursor{}, fmt.Errorf("cursor is not the next object of a previous reply (%v); omit it to start over", err)
	}
	switch {
	case c.Seq < 0 || c.NoteSeq < 0 || c.LogOffset < 0 || c.Paused < 0:
		return Cursor{}, errors.New("cursor: seq, noteSeq, logOffset and paused must not be negative; omit the cursor to start over")
	case len(c.DraftsSig) > 64:
		return Cursor{}, errors.New("cursor: draftsSig is over 64 characters; pass the next object of the previous reply as it was")
	}
	return c, nil
}

// Snapshot returns what is new in r since c. It reads what State reads,
// the tail of server.log and the drafts; it writes nothing.
func (r *Room) Snapshot(c Cursor) (Snapshot, error) {
	st, err := r.State()
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Room: r.cfg.Room, Next: c}
	if !c.Opened {
		cfg := r.cfg
		s.Config = &cfg
		s.Next.Opened = true
	}
	budget := SnapshotMaxText
	count := 0
	// fits takes an item of size n unless a bound is reached; the first
	// item always fits, so one large message never blocks the rest.
	fits := func(n int) bool {
		if count > 0 && (count >= SnapshotMaxMessages || n > budget) {
			return false
		}
		count++
		budget -= n
		return true
	}
	msgs := st.Messages
	i := sort.Search(len(msgs), func(i int) bool { return msgs[i].Seq > c.Seq })
	for ; i < len(msgs); i++ {
		m := msgs[i]
		// Messages sharing a seq travel together: the cursor counts seqs.
		if (len(s.Messages) == 0 || m.Seq != s.Next.Seq) && !fits(messageSize(&m)) {
			s.More = true
			break
		}
		s.Messages = append(s.Messages, m)
		s.Next.Seq = m.Seq
	}
	for _, n := range NotesAfter(st.Notes, c.NoteSeq) {
		if (len(s.Notes) == 0 || n.Seq != s.Next.NoteSeq) && !fits(len(n.Text)+len(n.From)+64) {
			s.More = true
			break
		}
		s.Notes = append(s.Notes, n)
		s.Next.NoteSeq = n.Seq
	}
	// The close comes after the last messages, so a mirror never shows a
	// room closed before its end has arrived.
	if st.Closed != nil && !c.Closed && !s.More {
		closed := *st.Closed
		s.Closed = &closed
		s.Next.Closed = true
		spec := SpecFor(r.cfg, st.Closed)
		if data, err := r.ReadSpec(spec); err == nil {
			s.Spec = &SpecFile{Path: spec, Text: string(data)}
		}
	}
	// A pause, or its end, after the messages of the round it follows.
	if p := pausedRound(st); p != c.Paused && !s.More {
		s.PausedChanged, s.Next.Paused = true, p
		if p > 0 {
			s.Paused = st.Paused
		}
	}
	if err := r.snapshotLog(&s, c.LogOffset); err != nil {
		return Snapshot{}, err
	}
	ds, _ := r.Drafts() // drafts are a view of work in progress, never an error
	if sig := draftsSig(ds); sig != c.DraftsSig {
		s.Drafts, s.DraftsChanged, s.Next.DraftsSig = ds, true, sig
	}
	return s, nil
}

func messageSize(m *Message) int {
	n := len(m.Text) + len(m.Agent) + len(m.Kind) + len(m.Seat) + 128
	for _, a := range m.Activity {
		n += len(a.Text) + len(a.Kind) + 16
	}
	return n
}

// snapshotLog adds server.log from offset: whole lines, at most
// SnapshotMaxLog bytes. A log shorter than offset was replaced: it is sent
// from the start, with LogReset.
func (r *Room) snapshotLog(s *Snapshot, offset int64) error {
	f, err := OpenNoFollow(filepath.Join(r.dir, LogFile))
	if errors.Is(err, fs.ErrNotExist) {
		if offset > 0 {
			s.LogReset, s.Next.LogOffset = true, 0
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the server.log of room %q: %w", r.cfg.Room, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read the server.log of room %q: %w", r.cfg.Room, err)
	}
	if !fi.Mode().IsRegular() {
		return nil // a FIFO or device in its place is nobody's log
	}
	size := fi.Size()
	if size < offset {
		s.LogReset, offset = true, 0
	}
	if size == offset {
		s.Next.LogOffset = offset
		return nil
	}
	n := min(size-offset, int64(SnapshotMaxLog))
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read the server.log of room %q: %w", r.cfg.Room, err)
	}
	buf = buf[:got]
	cut := len(buf)
	if i := lastNewline(buf); i >= 0 {
		cut = i + 1
	} else if int64(got) < int64(SnapshotMaxLog) {
		cut = 0 // a line still being written: it comes whole next time
	}
	s.Log = string(buf[:cut])
	s.Next.LogOffset = offset + int64(cut)
	if offset == 0 && cut > 0 {
		s.LogReset = true // from the start: a mirror replaces what it has
	}
	if s.Next.LogOffset < size && cut > 0 && int64(got) == int64(SnapshotMaxLog) {
		s.More = true
	}
	return nil
}

func lastNewline(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// draftsSig identifies the drafts' content; "" when there are none.
func draftsSig(ds []Draft) string {
	if len(ds) == 0 {
		return ""
	}
	data, _ := json.Marshal(ds)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// ObservePoll is how often SnapshotWait looks at server.log, which the
// room's Notifier does not watch, and at the drafts when it has no
// Notifier: a few stat calls.
var ObservePoll = 250 * time.Millisecond

// DraftCoalesce is how long SnapshotWait, woken by a draft, waits before
// it answers: a turn in progress rewrites its draft up to ~30 times a
// second, and a reply a frame later carries what came meanwhile, so a
// remote screen gets the words within a frame, and a host answers at most
// about as many calls a second per watcher as a screen draws frames.
var DraftCoalesce = 30 * time.Millisecond

// SnapshotWait is Snapshot, waiting up to wait (at most MaxObserveWait
// seconds) while nothing is new: what observe_room answers. It wakes on
// n, when given (the room's Notifier: a message, a note, the close through
// Changed; a draft written, replaced or removed through DraftsChanged,
// answered DraftCoalesce later), and looks at server.log (and, without n,
// the drafts) every ObservePoll. When ctx ends (the call cancelled, the
// host shutting down) it returns at once with what it has, maybe nothing.
func (r *Room) SnapshotWait(ctx context.Context, c Cursor, wait time.Duration, n *Notifier) (Snapshot, error) {
	deadline := time.Now().Add(min(wait, MaxObserveWait*time.Second))
	// The files the poll looks at: server.log, and the drafts unless n
	// watches them (its own rescan is their safety net).
	files := []string{filepath.Join(r.dir, LogFile)}
	if n == nil {
		files = append(files, r.DraftFiles()...)
	}
	sidecar := func() string { return StatSig(files...) }
	for {
		var ch, drafts <-chan struct{}
		if n != nil {
			ch, drafts = n.Changed(), n.DraftsChanged()
		}
		sig := sidecar()
		s, err := r.Snapshot(c)
		if err != nil || !s.Empty() {
			return s, err
		}
		for {
			left := time.Until(deadline)
			if left <= 0 || ctx.Err() != nil {
				return s, nil
			}
			t := time.NewTimer(min(left, ObservePoll))
			select {
			case <-ctx.Done():
			case <-ch:
			case <-drafts:
				t.Reset(min(left, DraftCoalesce))
				select {
				case <-ctx.Done():
				case <-t.C:
				}
			case <-t.C:
			}
			t.Stop()
			if ctx.Err() != nil || isClosed(ch) || isClosed(drafts) || sidecar() != sig {
				break
			}
		}
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return ch != nil
	default:
		return false
	}
}
