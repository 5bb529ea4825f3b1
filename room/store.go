package room

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Folder is the name of the folder under a cwd that holds every room.
const Folder = ".roundtable"

// Room is an open room. A Room remembers which message files it has parsed,
// so each Refresh reads only new files. It is safe for concurrent use.
type Room struct {
	cwd  string
	dir  string
	cfg  Config
	lock string

	mu      sync.Mutex
	seen    map[string]struct{} // file names parsed or skipped
	msgs    []Message           // sorted by seq, then file name
	skipped []Skipped
	// notes are the notes/ files read so far (see Note), sorted by seq.
	notes    []Note
	noteSeen map[string]struct{}
	noteTop  int // the highest note number a file name holds, broken files too
	// notifier, when attached by Watch, lets State read nothing while
	// nothing changed, and only the files that arrived when something did;
	// lastGen is its generation at the last read.
	notifier *Notifier
	lastGen  uint64
	// paused is paused.json as the last read found it. Its run writes it
	// after the round's messages, and State reads it before them: a pause
	// that changed lists the folders, so no reader sees a pause before the
	// messages of the round it follows.
	paused *Pause
	// closedSeen: closed.json was there at the last State.
	closedSeen bool
	// relist: the last State failed, so the next lists the folders.
	relist   bool
	listings int // times the messages folder was listed (tests read it)
	// draftsMade: this Room made (or found) drafts/ a real folder, so a
	// draft write need not check it again; cleared when drafts/ may be
	// gone (ClearDrafts, or a write that found it gone).
	draftsMade atomic.Bool
}

// Skipped is a file under messages/ that could not be read as a message.
type Skipped struct {
	File   string
	Reason string
}

// State is what a room's files say now. Round, Turn and OutOfBudget follow
// the format's derivation rules (they are never stored).
type State struct {
	Messages []Message // shared; callers must not modify
	// Notes are the room's notes (a person's words that take no turn),
	// sorted by their own seq; shared, callers must not modify. They never
	// count for Round, Turn or OutOfBudget.
	Notes  []Note
	Closed *Closed
	// Paused is paused.json: the debate waits between two rounds for its
	// user (nil: it does not). A closed room's is left from its run.
	Paused *Pause
	// Round is the number of the lead's messages: the rounds spent.
	Round int
	// Turn is the seat whose turn it is: the seat after the one that
	// posted last, in Seats' order; the lead when the last was the last
	// seat, or when nothing (or a stranger) has posted.
	Turn string
	// Seats are the MCP room's seats in turn order (Config.TurnOrder):
	// the lead first. A round is every seat once, starting with the lead.
	Seats []string
	// Passed are the seats whose post in the current round (from the
	// lead's latest message on) has kind KindPass, in turn order; nil
	// when none has.
	Passed      []string
	OutOfBudget bool
	Skipped     []Skipped // every file skipped so far
	NewSkipped  []Skipped // files skipped by this refresh
}

// LastSeq is the sequence number of the newest message, 0 when empty.
func (s State) LastSeq() int {
	if len(s.Messages) == 0 {
		return 0
	}
	return s.Messages[len(s.Messages)-1].Seq
}

// Dir is the folder of room name under cwd.
func Dir(cwd, name string) string { return filepath.Join(cwd, Folder, name) }

// CreateOptions are the settings of a room that does not exist yet. They are
// ignored when the room exists: room.json is never rewritten.
type CreateOptions struct {
	Topic     string
	Budget    int
	Spec      string // requested spec path; unsafe values fall back to SPEC-<room>.md
	Mode      string
	Agents    []string
	Rounds    int
	Personas  []PersonaInfo
	Moderator *PersonaInfo
	Pause     bool // a debate's pause between rounds (Config.Pause)
	Rank      bool // a debate's peer ranking (Config.Rank)
	// Provider and Model: a debate's (Config.Provider, Config.Model).
	Provider, Model string
	// Seats are an MCP room's seats when not the default lead and peer
	// (Config.Seats); ignored for a debate, whose personas are its seats.
	Seats []string
}

// Create opens room name under cwd, creating it when it does not exist. The
// first process to arrive writes room.json; every later one reads it.
// created reports whether this call wrote it.
func Create(cwd, name string, opt CreateOptions) (r *Room, created bool, err error) {
	if err := ValidateName(name); err != nil {
		return nil, false, err
	}
	if len(opt.Topic) > MaxTopicBytes {
		return nil, false, &TooLargeError{What: "topic", Size: len(opt.Topic), Limit: MaxTopicBytes}
	}
	seats, err := checkSeatList(opt.Seats)
	if err != nil {
		return nil, false, err
	}
	if opt.Mode == ModeDebate {
		seats = nil // a debate's personas are its seats
	} else if err := checkCouncil(seats); err != nil {
		return nil, false, err
	}
	cwd, err = ResolveDir(cwd)
	if err != nil {
		return nil, false, err
	}
	top := filepath.Join(cwd, Folder)
	if err := mkdirNoLink(top); err != nil {
		return nil, false, err
	}
	if err := writeIfAbsent(filepath.Join(top, ".gitignore"), []byte("*\n")); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, false, fmt.Errorf("write %s: %w", filepath.Join(top, ".gitignore"), err)
	}
	dir := filepath.Join(top, name)
	if err := mkdirNoLink(dir); err != nil {
		return nil, false, err
	}
	if err := mkdirNoLink(filepath.Join(dir, "messages")); err != nil {
		return nil, false, err
	}
	spec, _ := SafeSpec(name, opt.Spec)
	cfg := Config{
		Room: name, Topic: opt.Topic, Budget: opt.Budget, Spec: spec,
		CreatedAt: formatTime(time.Now()),
		Mode:      opt.Mode, Agents: opt.Agents, Rounds: opt.Rounds,
		Personas: opt.Personas, Moderator: opt.Moderator, Pause: opt.Pause, Rank: opt.Rank,
		SeatNames: seats, Provider: opt.Provider, Model: opt.Model,
	}
	data, err := encodeJSON(cfg)
	if err != nil {
		return nil, false, err
	}
	err = writeIfAbsent(filepath.Join(dir, "room.json"), data)
	switch {
	case err == nil:
		created = true
	case errors.Is(err, fs.ErrExist):
	default:
		return nil, false, fmt.Errorf("write room.json in %s: %w", dir, err)
	}
	r, err = open(cwd, name)
	return r, created, err
}

// Open opens an existing room; ErrNoRoom when it has no room.json.
func Open(cwd, name string) (*Room, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	cwd, err := ResolveDir(cwd)
	if err != nil {
		return nil, err
	}
	return open(cwd, name)
}

func open(cwd, name string) (*Room, error) {
	dir := filepath.Join(cwd, Folder, name)
	for _, p := range []string{filepath.Join(cwd, Folder), dir} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: %s is a symbolic link; rooms must be real folders inside %s", ErrUnsafePath, p, cwd)
		}
	}
	data, err := readRegular(filepath.Join(dir, "room.json"), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no room %q under %s", ErrNoRoom, name, cwd)
	}
	if err != nil {
		return nil, fmt.Errorf("read room.json of %q: %w", name, NoAccess(err, filepath.Join(dir, "room.json")))
	}
	var cfg Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("room.json of %q is not valid JSON (%v); fix or remove %s", name, err, filepath.Join(dir, "room.json"))
	}
	// The folder's name is the room's name: Rename rewrites room.json's
	// room, but a room moved by hand (or renamed by an older roundtable)
	// still names its old self there.
	cfg.Room = name
	if spec, _ := SafeSpec(name, cfg.Spec); spec != cfg.Spec {
		cfg.Spec = spec
	}
	return &Room{
		cwd: cwd, dir: dir, cfg: cfg,
		lock: filepath.Join(dir, ".lock"),
		seen: make(map[string]struct{}), noteSeen: make(map[string]struct{}),
	}, nil
}

// AccessError is a room's file or folder this process may not read or
// write: which one, and what to do.
type AccessError struct {
	Path string
	Err  error
}

func (e *AccessError) Error() string {
	return fmt.Sprintf("%v; this user (uid %d) may not use %s: give it access (ls -l shows the owner and mode; chmod or chown to fix), or run roundtable as the user who owns the room", e.Err, os.Getuid(), e.Path)
}

func (e *AccessError) Unwrap() error { return e.Err }

// NoAccess wraps a permission error about path in an AccessError that says
// what to do; other errors pass unchanged.
func NoAccess(err error, path string) error {
	var ae *AccessError
	if err == nil || !errors.Is(err, fs.ErrPermission) || errors.As(err, &ae) {
		return err
	}
	return &AccessError{Path: path, Err: err}
}

// Config is room.json as read when the room was opened.
func (r *Room) Config() Config { return r.cfg }

// Dir is the room's folder.
func (r *Room) Dir() string { return r.dir }

// Cwd is the absolute folder the room lives under (where the spec goes).
func (r *Room) Cwd() string { return r.cwd }

// SpecPath is the absolute path of the room's spec file.
func (r *Room) SpecPath() string { return filepath.Join(r.cwd, filepath.FromSlash(r.cfg.Spec)) }

// MessagesDir is the folder of message files.
func (r *Room) MessagesDir() string { return filepath.Join(r.dir, "messages") }

// State reads what is new on disk and returns the room's state. When a
// Notifier is attached (Watch) and has seen no change since the last read,
// nothing is read but a debate's paused.json; when it has, the files its
// events told of are parsed, and the folders are listed only when events
// may have been missed (or a debate's pause changed).
func (r *Room) State() (State, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var fresh []Skipped
	paused := r.readPaused()
	pauseMoved := pauseRound(paused) != pauseRound(r.paused)
	r.paused = paused
	// The pause and the close are read from their files, the messages
	// from the watch's journal, which may not have the last ones yet:
	// when either moved, the folders are listed, so no reader sees a
	// pause or a close before the messages written before it.
	closed := r.closedNow()
	closeMoved := (closed != nil) != r.closedSeen
	r.closedSeen = closed != nil
	if r.notifier == nil || r.notifier.Gen() != r.lastGen || pauseMoved || closeMoved || r.relist {
		var err error
		if r.notifier != nil && !pauseMoved && !closeMoved && !r.relist {
			r.lastGen = r.notifier.Gen()
			fresh, err = r.catchUpLocked()
		} else {
			if r.notifier != nil {
				r.lastGen = r.notifier.Gen()
			}
			fresh, err = r.refreshLocked()
		}
		// A read that failed (a folder gone) is listed afresh next time:
		// what comes back may be another folder.
		r.relist = err != nil
		if err != nil {
			return State{}, err
		}
	}
	return r.stateLocked(fresh, closed), nil
}

// catchUpLocked reads the message and note files the attached Notifier's
// journal recorded since the last read, or lists both folders when the
// journal may be incomplete.
func (r *Room) catchUpLocked() ([]Skipped, error) {
	msgs, notes, complete := r.notifier.takeJournal()
	if !complete {
		return r.refreshLocked()
	}
	fresh := r.addMessagesLocked(msgs)
	if len(notes) > 0 {
		fresh = append(fresh, r.addNotesLocked(notes)...)
	}
	r.skipped = append(r.skipped, fresh...)
	return fresh, nil
}

// Refresh is State that always lists the messages folder.
func (r *Room) Refresh() (State, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paused = r.readPaused()
	fresh, err := r.refreshLocked()
	if err != nil {
		return State{}, err
	}
	return r.stateLocked(fresh, r.closedNow()), nil
}

// closedNow is closed.json as it is now, nil while the room is open.
func (r *Room) closedNow() *Closed {
	c, _ := readClosed(r.dir)
	return c
}

// stateLocked is the room's State from what it holds, closed by closed
// (closed.json as the caller read it).
func (r *Room) stateLocked(fresh []Skipped, closed *Closed) State {
	st := State{
		Messages:   r.msgs[:len(r.msgs):len(r.msgs)],
		Notes:      r.notes[:len(r.notes):len(r.notes)],
		Skipped:    r.skipped[:len(r.skipped):len(r.skipped)],
		NewSkipped: fresh,
	}
	st.Closed = closed
	st.Paused = r.paused
	st.Seats = r.cfg.TurnOrder()
	st.Round, st.Turn, st.Passed = derive(r.msgs, st.Seats)
	st.OutOfBudget = st.Round >= r.cfg.Budget
	return st
}

// derive computes round (the number of lead messages), whose turn it is
// (the seat after the last message's in order, else the first) and which
// seats passed since the lead's latest message. With the default seats
// this is the format's rule: the peer after a lead post, else the lead.
func derive(msgs []Message, order []string) (round int, turn string, passed []string) {
	lastLead := -1
	for i := range msgs {
		if msgs[i].Seat == SeatLead {
			round++
			lastLead = i
		}
	}
	turn = order[0]
	if n := len(msgs); n > 0 {
		if i := slices.Index(order, msgs[n-1].Seat); i >= 0 && i+1 < len(order) {
			turn = order[i+1]
		}
	}
	if lastLead >= 0 {
		for _, seat := range order {
			for j := lastLead; j < len(msgs); j++ {
				if msgs[j].Seat == seat && msgs[j].Kind == KindPass {
					passed = append(passed, seat)
					break
				}
			}
		}
	}
	return round, turn, passed
}

// refreshLocked parses message files not seen before and returns the files
// it skipped this time.
func (r *Room) refreshLocked() ([]Skipped, error) {
	r.listings++
	names, err := listNames(r.MessagesDir())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: the messages folder of room %q is gone (%s)", ErrNoRoom, r.cfg.Room, r.MessagesDir())
		}
		return nil, fmt.Errorf("list messages of room %q: %w", r.cfg.Room, NoAccess(err, r.MessagesDir()))
	}
	fresh := r.addMessagesLocked(names)
	fresh = append(fresh, r.refreshNotesLocked()...)
	r.skipped = append(r.skipped, fresh...)
	return fresh, nil
}

// addMessagesLocked parses the message files among names not seen before
// and returns those it skipped (they are not yet added to r.skipped).
func (r *Room) addMessagesLocked(names []string) []Skipped {
	var todo []string
	for _, name := range names {
		if _, ok := r.seen[name]; ok {
			continue
		}
		if _, ok := ParseMessageFileName(name); !ok {
			continue // temporary files and strangers are never messages
		}
		todo = append(todo, name)
	}
	if len(todo) == 0 {
		return nil
	}
	added, errs := r.readAll(todo)
	// Keep the parsed messages in place: a large first read holds one
	// slice of messages, not a slice of results and a copy of it.
	n := 0
	var fresh []Skipped
	for i, name := range todo {
		if err := errs[i]; err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed between listing and reading
			}
			fresh = append(fresh, Skipped{File: name, Reason: err.Error()})
			r.seen[name] = struct{}{}
			continue
		}
		added[n] = added[i]
		added[n].File = name
		n++
		r.seen[name] = struct{}{}
	}
	clear(added[n:])
	if n > 0 {
		r.msgs = mergeSorted(r.msgs, added[:n:n])
	}
	return fresh
}

// parallelRead is the batch size from which new files are parsed on every
// core: opening a large room reads thousands of small files.
const parallelRead = 256

// readAll parses message files, in parallel for a large batch: msgs[i] is
// names[i] parsed, unless errs[i] says why it could not be.
func (r *Room) readAll(names []string) (msgs []Message, errs []error) {
	msgs = make([]Message, len(names))
	errs = make([]error, len(names))
	dir := r.MessagesDir()
	workers := 1
	if len(names) >= parallelRead {
		workers = max(runtime.GOMAXPROCS(0), 1)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(names); i += workers {
				msgs[i], errs[i] = readMessage(filepath.Join(dir, names[i]))
			}
		})
	}
	wg.Wait()
	return msgs, errs
}

func lessMsg(a, b *Message) bool {
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	return a.File < b.File
}

// mergeSorted adds new messages to a sorted slice. New files nearly always
// sort after the old ones, so that case is an append.
func mergeSorted(old, added []Message) []Message {
	sort.Slice(added, func(i, j int) bool { return lessMsg(&added[i], &added[j]) })
	if len(old) == 0 {
		return added
	}
	if lessMsg(&old[len(old)-1], &added[0]) {
		return append(old, added...)
	}
	all := make([]Message, 0, len(old)+len(added))
	all = append(all, old...)
	all = append(all, added...)
	sort.SliceStable(all, func(i, j int) bool { return lessMsg(&all[i], &all[j]) })
	return all
}

func readMessage(path string) (Message, error) {
	data, err := readRegular(path, maxFileBytes)
	if err != nil {
		return Message{}, err
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return Message{}, fmt.Errorf("not a message: %v", err)
	}
	if m.Seat == "" {
		return Message{}, errors.New("not a message: no seat")
	}
	if seq, ok := ParseMessageFileName(filepath.Base(path)); ok && m.Seq <= 0 {
		m.Seq = seq
	}
	return m, nil
}

func readClosed(dir string) (*Closed, error) {
	data, err := readRegular(filepath.Join(dir, "closed.json"), 1<<20)
	if err != nil {
		return nil, err
	}
	var c Closed
	if err := json.Unmarshal(data, &c); err != nil {
		// A closed.json that does not parse still closes the room.
		return &Closed{Reason: "closed (closed.json unreadable: " + err.Error() + ")"}, nil
	}
	return &c, nil
}

// randHex returns n random hex characters.
func randHex(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}
