package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofrs/flock"
)

// Post is a message a seat wants to add.
type Post struct {
	Seat  string
	Agent string
	Kind  string // empty: the seat's default kind
	Text  string
	Round int // debates only
	// Activity is saved with a debate turn: what its agent did.
	Activity []Activity
	// Usage is saved with a debate turn or verdict: its token counts.
	Usage *Usage
	// Retries are saved with a debate turn: its requests made again.
	Retries []DraftRetry
	// Ranking is saved with a debate's ranking (KindRanking): the order
	// it gave, by persona name.
	Ranking []string
}

// staleTemp is how old a temporary file must be before a writer removes it
// as left behind by a process that died between write and rename.
const staleTemp = 30 * time.Second

// withLock runs fn holding the room's cross-process lock. The lock is an
// flock, so it is released by the kernel when its holder dies.
func (r *Room) withLock(fn func() error) error {
	// flock creates a missing lock file 0600, which would lock out a second
	// user sharing the room; create it as every room file is created.
	if f, err := os.OpenFile(r.lock, os.O_RDONLY|os.O_CREATE, fileMode); err == nil {
		f.Close()
	}
	l := flock.New(r.lock)
	if err := l.Lock(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: the folder of room %q is gone (%s)", ErrNoRoom, r.cfg.Room, r.dir)
		}
		return fmt.Errorf("lock room %q (%s): %w", r.cfg.Room, r.lock, err)
	}
	defer func() { _ = l.Unlock() }()
	crashPoint("in-lock")
	return fn()
}

// PostMessage appends a message from an MCP seat. Under the room lock it
// refreshes the room, then enforces the rules: the seat is one of the
// room's (ErrBadSeat), the room is open (*ClosedError), it is the seat's
// turn (*NotYourTurnError), the lead has rounds left (*BudgetSpentError),
// the text is non-empty (*EmptyError; a council seat's pass, kind
// KindPass, may be empty) and within MaxTextBytes (*TooLargeError), and the
// kind is a short label (*BadKindError, see ValidateKind). The returned
// State includes the new message.
func (r *Room) PostMessage(p Post) (Message, State, error) {
	if r.cfg.IsDebate() {
		if err := ValidateSeat(p.Seat); err != nil {
			return Message{}, State{}, err
		}
	} else if err := r.checkSeat(p.Seat); err != nil {
		return Message{}, State{}, err
	}
	p.Kind = strings.TrimSpace(p.Kind)
	if err := ValidateKind(p.Kind); err != nil {
		return Message{}, State{}, err
	}
	if p.Kind == "" {
		p.Kind = DefaultKind(p.Seat)
	}
	pass := p.Kind == KindPass && r.cfg.IsCouncil()
	if pass && strings.TrimSpace(p.Text) == "" {
		p.Text = ""
	}
	return r.appendChecked(p, pass, func(st State) error {
		if st.Turn != p.Seat {
			last := ""
			if n := len(st.Messages); n > 0 {
				last = st.Messages[n-1].Seat
			}
			return &NotYourTurnError{Seat: p.Seat, Turn: st.Turn, Last: last}
		}
		if p.Seat == SeatLead && st.OutOfBudget {
			return &BudgetSpentError{Round: st.Round, Budget: r.cfg.Budget}
		}
		return nil
	})
}

// Record appends a finished debate turn (or the moderator's verdict). There
// is no turn rule: the debate engine owns the order.
func (r *Room) Record(p Post) (Message, error) {
	m, _, err := r.appendChecked(p, false, func(State) error { return nil })
	return m, err
}

// appendChecked writes p as the next message once check passes under the
// lock; mayBeEmpty lets a pass carry no text.
func (r *Room) appendChecked(p Post, mayBeEmpty bool, check func(State) error) (Message, State, error) {
	if strings.TrimSpace(p.Text) == "" && !mayBeEmpty {
		return Message{}, State{}, &EmptyError{What: "message"}
	}
	if len(p.Text) > MaxTextBytes {
		return Message{}, State{}, &TooLargeError{What: "message", Size: len(p.Text), Limit: MaxTextBytes}
	}
	if !utf8.ValidString(p.Text) {
		p.Text = strings.ToValidUTF8(p.Text, "\uFFFD")
	}
	var msg Message
	var st State
	err := r.withLock(func() error {
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, err := r.refreshLocked(); err != nil {
			return err
		}
		st = r.stateLocked(nil, r.closedNow())
		if st.Closed != nil {
			return &ClosedError{Reason: st.Closed.Reason}
		}
		if err := check(st); err != nil {
			return err
		}
		now := time.Now()
		msg = Message{
			Seq: r.nextSeqLocked(), At: formatTime(now),
			Seat: p.Seat, Agent: p.Agent, Kind: p.Kind, Text: p.Text, Round: p.Round,
			Activity: p.Activity, Usage: p.Usage, Retries: p.Retries, Ranking: p.Ranking,
		}
		data, err := encodeJSON(msg)
		if err != nil {
			return err
		}
		msg.File = messageFileName(msg.Seq, now, randHex(6))
		tmp, err := writeTemp(r.MessagesDir(), data)
		if err != nil {
			return fmt.Errorf("write message %d of room %q: %w", msg.Seq, r.cfg.Room, err)
		}
		crashPoint("after-temp")
		if err := os.Rename(tmp, filepath.Join(r.MessagesDir(), msg.File)); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("write message %d of room %q: %w", msg.Seq, r.cfg.Room, err)
		}
		crashPoint("after-rename")
		r.seen[msg.File] = struct{}{}
		r.msgs = mergeSorted(r.msgs, []Message{msg})
		st = r.stateLocked(nil, st.Closed) // nil: the write lock keeps it open
		r.cleanTempLocked(now)
		return nil
	})
	return msg, st, err
}

// nextSeqLocked is one more than the highest sequence number on disk,
// counting file names too, so a file that could not be parsed still holds
// its number.
func (r *Room) nextSeqLocked() int {
	top := 0
	if n := len(r.msgs); n > 0 {
		top = r.msgs[n-1].Seq
	}
	for _, s := range r.skipped {
		if seq, ok := ParseMessageFileName(s.File); ok && seq > top {
			top = seq
		}
	}
	return top + 1
}

// cleanTempLocked removes temporary files left by writers that died between
// writing and renaming. Fresh ones may belong to a live writer and stay.
func (r *Room) cleanTempLocked(now time.Time) {
	names, err := listNames(r.MessagesDir())
	if err != nil {
		return
	}
	for _, n := range names {
		if !strings.HasPrefix(n, tempPrefix) {
			continue
		}
		p := filepath.Join(r.MessagesDir(), n)
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > staleTemp {
			os.Remove(p)
		}
	}
}

// WriteSpec writes the room's spec file (Config.Spec, relative to the cwd),
// creating missing folders, atomically. It refuses a path that leaves the
// cwd, also through symbolic links.
func (r *Room) WriteSpec(text string) (string, error) {
	if strings.TrimSpace(text) == "" {
		return "", &EmptyError{What: "spec"}
	}
	path := r.SpecPath()
	if !insideDir(r.cwd, path) {
		return "", fmt.Errorf("%w: spec path %s leaves %s", ErrUnsafePath, r.cfg.Spec, r.cwd)
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return "", fmt.Errorf("create the folder for the spec %s: %w", r.cfg.Spec, err)
	}
	if !insideDir(r.cwd, path) {
		return "", fmt.Errorf("%w: spec path %s leaves %s", ErrUnsafePath, r.cfg.Spec, r.cwd)
	}
	switch old, err := os.ReadFile(path); {
	case err == nil && string(old) == text:
		return path, nil // the spec already says this
	case err == nil:
		if err := r.keepSpec(old); err != nil {
			return "", err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("read the spec %s before replacing it: %w", r.cfg.Spec, err)
	}
	if err := writeAtomic(path, []byte(text)); err != nil {
		return "", fmt.Errorf("write the spec %s: %w", r.cfg.Spec, err)
	}
	return path, nil
}

// SpecHistoryDir is the folder of a room that keeps each spec write_spec
// replaced, so writing the spec never loses a file: the room's own earlier
// drafts, or a file that was at the spec path before the room wrote it.
const SpecHistoryDir = "spec-history"

// keepSpec saves old, the spec file about to be replaced, in the room's
// spec-history/ as <n>.md, n one more than the highest there.
func (r *Room) keepSpec(old []byte) error {
	dir := filepath.Join(r.dir, SpecHistoryDir)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("keep the spec %s before replacing it: %w", r.cfg.Spec, err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("keep the spec %s before replacing it: %w", r.cfg.Spec, err)
	}
	n := 0
	for _, e := range ents {
		if k, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".md")); err == nil && k > n {
			n = k
		}
	}
	kept := filepath.Join(dir, fmt.Sprintf("%04d.md", n+1))
	if err := writeAtomic(kept, old); err != nil {
		return fmt.Errorf("keep the spec %s in %s before replacing it: %w", r.cfg.Spec, kept, err)
	}
	return nil
}

// CloseOptions say why a room ends.
type CloseOptions struct {
	Reason      string
	SpecPath    string // relative to the cwd; empty: the room's spec
	RequireSpec bool   // refuse unless the spec file exists
	Detail      string // more on why (Closed.Detail); empty: none
	Seat        string // the seat whose failure ended the room (Closed.Seat)
}

// Close writes closed.json once. A second close returns ErrClosed.
func (r *Room) Close(opt CloseOptions) (Closed, error) {
	spec := r.cfg.Spec
	if opt.SpecPath != "" {
		spec, _ = SafeSpec(r.cfg.Room, opt.SpecPath)
	}
	if opt.RequireSpec {
		fi, err := os.Stat(filepath.Join(r.cwd, filepath.FromSlash(spec)))
		if err != nil || !fi.Mode().IsRegular() {
			return Closed{}, &NoSpecError{Spec: spec}
		}
	}
	if opt.Reason == "" {
		opt.Reason = "closed"
	}
	c := Closed{Reason: opt.Reason, SpecPath: spec, At: formatTime(time.Now()), Detail: opt.Detail, Seat: opt.Seat}
	data, err := encodeJSON(c)
	if err != nil {
		return Closed{}, err
	}
	err = r.withLock(func() error { return writeIfAbsent(filepath.Join(r.dir, "closed.json"), data) })
	if errors.Is(err, fs.ErrExist) {
		prev, _ := readClosed(r.dir)
		reason := ""
		if prev != nil {
			reason = prev.Reason
		}
		return Closed{}, &ClosedError{Reason: reason}
	}
	if err != nil {
		return Closed{}, fmt.Errorf("write closed.json of room %q: %w", r.cfg.Room, err)
	}
	return c, nil
}
