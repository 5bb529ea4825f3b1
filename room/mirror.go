package room

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// A mirror is a local, read-only copy of a room on another machine, written
// from the Snapshots its host sends (snapshot.go) in the room's own file
// formats: room.json, messages/, notes/, closed.json, paused.json, server.log, drafts/
// and the spec. Everything a snapshot holds came over the network and is
// checked here: the room's name, every file name (made here, never taken
// from the host), every size; nothing is written outside
// <cwd>/.roundtable/<room>/ but the spec, which goes to a safe path inside
// cwd; no symbolic link is followed.

// Bounds of what a mirror accepts from one snapshot.
const (
	mirrorMaxItems = 10000   // messages and notes
	mirrorMaxLog   = 4 << 20 // server.log bytes
	// mirrorLogCap is the largest the mirror's server.log grows; beyond,
	// its older half is dropped (ReadSeats reads at most 64 MiB).
	mirrorLogCap = 48 << 20
)

// MirrorSkipError reports parts of a snapshot that were not mirrored
// because they broke the format's rules; everything else was.
type MirrorSkipError struct {
	Reasons []string
}

func (e *MirrorSkipError) Error() string {
	if len(e.Reasons) == 1 {
		return "the host sent something the mirror refused: " + e.Reasons[0]
	}
	return fmt.Sprintf("the host sent %d things the mirror refused, the first: %s", len(e.Reasons), e.Reasons[0])
}

// ApplySnapshot writes s into the mirror of room s.Room under cwd
// (cwd/.roundtable/<room>/). Applying the same snapshot twice changes
// nothing more; room.json and closed.json, once written, are kept. A
// snapshot that is not for a valid room name, or too large, is refused as
// a whole; a message, note or draft that breaks the format is skipped and
// reported in a *MirrorSkipError after the rest is written.
func ApplySnapshot(cwd string, s Snapshot) error {
	if err := ValidateName(s.Room); err != nil {
		return fmt.Errorf("the host sent a snapshot for a bad room name: %w", err)
	}
	if n := len(s.Messages) + len(s.Notes); n > mirrorMaxItems {
		return fmt.Errorf("the host sent %d messages and notes at once, over the %d a mirror takes", n, mirrorMaxItems)
	}
	if len(s.Log) > mirrorMaxLog {
		return &TooLargeError{What: "server.log part", Size: len(s.Log), Limit: mirrorMaxLog}
	}
	cwd, err := ResolveDir(cwd)
	if err != nil {
		return err
	}
	top := filepath.Join(cwd, Folder)
	if err := mkdirNoLink(top); err != nil {
		return err
	}
	if err := writeIfAbsent(filepath.Join(top, ".gitignore"), []byte("*\n")); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	dir := filepath.Join(top, s.Room)
	for _, d := range []string{dir, filepath.Join(dir, "messages")} {
		if err := mkdirNoLink(d); err != nil {
			return err
		}
	}
	var skipped []string
	skip := func(format string, args ...any) { skipped = append(skipped, fmt.Sprintf(format, args...)) }

	if s.Config != nil {
		if err := mirrorConfig(dir, s.Room, *s.Config); err != nil {
			skip("%v", err)
		}
	}
	for i := range s.Messages {
		if err := mirrorMessage(dir, &s.Messages[i]); err != nil {
			skip("message %d: %v", s.Messages[i].Seq, err)
		}
	}
	if len(s.Notes) > 0 {
		if err := mkdirNoLink(NotesDir(dir)); err != nil {
			return err
		}
		for i := range s.Notes {
			if err := mirrorNote(dir, &s.Notes[i]); err != nil {
				skip("note %d: %v", s.Notes[i].Seq, err)
			}
		}
	}
	if s.LogReset || s.Log != "" {
		if err := mirrorLog(dir, s.Log, s.LogReset); err != nil {
			return fmt.Errorf("write the mirror's server.log: %w", err)
		}
	}
	if s.DraftsChanged {
		for _, reason := range mirrorDrafts(dir, s.Drafts) {
			skip("%s", reason)
		}
	}
	if s.PausedChanged {
		if err := mirrorPaused(dir, s.Paused); err != nil {
			skip("%s: %v", PauseFile, err)
		}
	}
	// The spec before closed.json: a screen that sees the close may look
	// for the spec at once.
	if s.Spec != nil {
		if err := mirrorSpec(cwd, s.Room, *s.Spec); err != nil {
			skip("the spec: %v", err)
		}
	}
	if s.Closed != nil {
		if err := mirrorClosed(dir, s.Room, *s.Closed); err != nil {
			skip("closed.json: %v", err)
		}
	}
	if len(skipped) > 0 {
		return &MirrorSkipError{Reasons: skipped}
	}
	return nil
}

// writeOnce writes a file that never changes: a second write of it is a
// no-op.
func writeOnce(p string, v any, limit int) error {
	data, err := encodeJSON(v)
	if err != nil {
		return err
	}
	if len(data) > limit {
		return &TooLargeError{What: "file", Size: len(data), Limit: limit}
	}
	if err := writeIfAbsent(p, data); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

func mirrorConfig(dir, name string, cfg Config) error {
	if len(cfg.Topic) > MaxTopicBytes {
		return &TooLargeError{What: "topic", Size: len(cfg.Topic), Limit: MaxTopicBytes}
	}
	cfg.Room = name
	cfg.Spec, _ = SafeSpec(name, cfg.Spec)
	return writeOnce(filepath.Join(dir, "room.json"), cfg, 1<<20)
}

// checkItem checks what a message and a note share.
func checkItem(seq int, text string) error {
	switch {
	case seq <= 0 || seq > 999_999_999:
		return fmt.Errorf("seq %d is not 1 to 999999999", seq)
	case len(text) > MaxTextBytes:
		return &TooLargeError{What: "text", Size: len(text), Limit: MaxTextBytes}
	case !utf8.ValidString(text):
		return errors.New("the text is not valid UTF-8")
	}
	return nil
}

// itemName is the file name of a mirrored message or note: its seq and
// time as the format has them, and a hash of its content, so the same
// item is the same file and two items sharing a seq are two files.
func itemName(seq int, at string, data []byte) string {
	ms := int64(0)
	if t := (Message{At: at}).Time(); !t.IsZero() && t.UnixMilli() > 0 {
		ms = t.UnixMilli()
	}
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%04d-%d-%s.json", seq, ms, hex.EncodeToString(sum[:3]))
}

func mirrorMessage(dir string, m *Message) error {
	if err := checkItem(m.Seq, m.Text); err != nil {
		return err
	}
	if m.Seat == "" || len(m.Seat) > 64 || len(m.Agent) > 4<<10 || len(m.Kind) > 1<<10 {
		return errors.New("its seat, agent or kind is missing or too long")
	}
	data, err := encodeJSON(m)
	if err != nil {
		return err
	}
	if len(data) > maxFileBytes {
		return &TooLargeError{What: "message", Size: len(data), Limit: maxFileBytes}
	}
	p := filepath.Join(dir, "messages", itemName(m.Seq, m.At, data))
	if err := writeIfAbsent(p, data); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

func mirrorNote(dir string, n *Note) error {
	if err := checkItem(n.Seq, n.Text); err != nil {
		return err
	}
	if strings.TrimSpace(n.Text) == "" || len(n.From) > 64 {
		return errors.New("it has no text, or its sender is too long")
	}
	data, err := encodeJSON(n)
	if err != nil {
		return err
	}
	p := filepath.Join(NotesDir(dir), itemName(n.Seq, n.At, data))
	if err := writeIfAbsent(p, data); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

func mirrorClosed(dir, name string, c Closed) error {
	if len(c.Reason) > MaxTopicBytes || len(c.At) > 64 {
		return errors.New("its reason or time is too long")
	}
	if c.SpecPath != "" {
		c.SpecPath, _ = SafeSpec(name, c.SpecPath)
	}
	return writeOnce(filepath.Join(dir, "closed.json"), c, 1<<20)
}

// mirrorDrafts makes the mirror's drafts those of ds: a seat's draft is
// written, or removed when ds has none for it. The seats are those of the
// mirror's room.json (the default when it cannot be read yet).
func mirrorDrafts(dir string, ds []Draft) []string {
	var bad []string
	seats := DefaultSeats()
	if data, err := readRegular(filepath.Join(dir, "room.json"), 1<<20); err == nil {
		var cfg Config
		if json.Unmarshal(data, &cfg) == nil {
			seats = cfg.Seats()
		}
	}
	have := map[string]bool{}
	for _, s := range seats {
		have[s] = true
	}
	want := map[string]Draft{}
	for _, d := range ds {
		switch {
		case !have[d.Seat]:
			bad = append(bad, fmt.Sprintf("a draft for the seat %q, which the room does not have", d.Seat))
		case len(d.Text) > MaxTextBytes || len(d.Agent) > 4<<10:
			bad = append(bad, fmt.Sprintf("the %s draft is too large", d.Seat))
		default:
			want[d.Seat] = d
		}
	}
	ddir := DraftsDir(dir)
	if err := mkdirNoLink(ddir); err != nil {
		return append(bad, err.Error())
	}
	for _, seat := range seats {
		p := DraftFile(dir, seat)
		d, ok := want[seat]
		if !ok {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				bad = append(bad, err.Error())
			}
			continue
		}
		data, err := encodeJSON(d)
		if err == nil {
			// A rename replaces a link in the way; it never writes
			// through it.
			err = writeAtomic(p, data)
		}
		if err != nil {
			bad = append(bad, fmt.Sprintf("the %s draft: %v", seat, err))
		}
	}
	return bad
}

// mirrorSpec writes the spec inside cwd at its safe path, making the
// folders on the way without following a link.
func mirrorSpec(cwd, name string, sp SpecFile) error {
	if len(sp.Text) > MaxSpecBytes {
		return &TooLargeError{What: "spec", Size: len(sp.Text), Limit: MaxSpecBytes}
	}
	rel, note := SafeSpec(name, sp.Path)
	if note != "" || rel != path.Clean(sp.Path) {
		return fmt.Errorf("%w: %s", ErrUnsafePath, note)
	}
	parts := strings.Split(rel, "/")
	d := cwd
	for _, part := range parts[:len(parts)-1] {
		d = filepath.Join(d, part)
		if err := mkdirNoLink(d); err != nil {
			return err
		}
	}
	p := filepath.Join(d, parts[len(parts)-1])
	if !insideDir(cwd, p) {
		return fmt.Errorf("%w: %s leaves %s", ErrUnsafePath, rel, cwd)
	}
	return writeAtomic(p, []byte(sp.Text))
}

// mirrorLog appends log lines to the mirror's server.log (emptied first
// when reset), without following a link in its place. A pid names a
// process on the host, not here: it is dropped, so no reader checks a
// local process of that number.
func mirrorLog(dir, log string, reset bool) error {
	p := filepath.Join(dir, LogFile)
	f, err := openLogNoFollow(p, reset)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%w: %s is not a regular file", ErrUnsafePath, p)
	}
	if err == nil {
		_, err = f.WriteString(withoutPIDs(log))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if fi.Size()+int64(len(log)) > mirrorLogCap {
		return halveLog(p)
	}
	return nil
}

// halveLog drops the older half of the mirror's server.log, at a line.
func halveLog(p string) error {
	data, err := readRegular(p, 2*mirrorLogCap)
	if err != nil {
		return err
	}
	keep := data[len(data)/2:]
	if i := strings.IndexByte(string(keep), '\n'); i >= 0 {
		keep = keep[i+1:]
	}
	return writeAtomic(p, keep)
}

// withoutPIDs removes the pid field from every log line.
func withoutPIDs(log string) string {
	if !strings.Contains(log, "pid=") {
		return log
	}
	lines := strings.SplitAfter(log, "\n")
	var b strings.Builder
	b.Grow(len(log))
	for _, line := range lines {
		body := strings.TrimSuffix(line, "\n")
		ts, rest, ok := strings.Cut(body, " ")
		if !ok || !strings.Contains(rest, "pid=") {
			b.WriteString(line)
			continue
		}
		b.WriteString(ts)
		for _, tok := range SplitLogTokens(rest) {
			if strings.HasPrefix(tok, "pid=") {
				continue
			}
			b.WriteByte(' ')
			b.WriteString(tok)
		}
		if len(body) < len(line) {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// mirrorPaused writes the mirror's paused.json (p nil: removes it).
func mirrorPaused(dir string, p *Pause) error {
	if p == nil {
		return removePause(dir)
	}
	if p.Round < 1 || p.Round > 1<<20 || len(p.At) > 64 {
		return fmt.Errorf("round %d at %q is no pause", p.Round, p.At)
	}
	return writePause(dir, *p)
}
