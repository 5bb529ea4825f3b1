package room

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roundtable-dev/roundtable/prompts"
)

// SeedResult is what Seed prints: the room, its folder, the spec path and
// the prompt files written.
type SeedResult struct {
	Room    string   `json:"room"`
	Dir     string   `json:"dir"`
	Spec    string   `json:"spec"`
	Prompts []string `json:"prompts"`
}

// ClosedRoomError refuses to seed a closed room again: its prompts would
// no longer match a room that takes no posts. Suggest is a free name for a
// new room.
type ClosedRoomError struct {
	Room, Reason, Suggest string
}

func (e *ClosedRoomError) Error() string {
	reason := ""
	if e.Reason != "" {
		reason = " (" + e.Reason + ")"
	}
	return fmt.Sprintf("room %s is closed%s; choose a new name, such as %s", e.Room, reason, e.Suggest)
}

// Unwrap makes errors.Is(err, ErrClosed) hold.
func (e *ClosedRoomError) Unwrap() error { return ErrClosed }

// Seed creates the room (unless it exists) and writes a prompt for each of
// its seats into its folder (PromptFile), with the room's topic, spec and
// budget filled in: lead.md and peer.md for a two-seat room, as they have
// always been; a council's seats get the council prompts, naming the seat,
// the others and the turn order. A closed room is refused
// (*ClosedRoomError) and left as it is.
func Seed(cwd, name string, opt CreateOptions) (SeedResult, error) {
	res, _, err := SeedNew(cwd, name, opt)
	return res, err
}

// SeedNew is Seed, also reporting whether this call created the room.
func SeedNew(cwd, name string, opt CreateOptions) (SeedResult, bool, error) {
	r, created, err := Create(cwd, name, opt)
	if err != nil {
		return SeedResult{}, false, err
	}
	if !created {
		closed, err := readClosed(r.dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return SeedResult{}, false, err
		}
		if closed != nil {
			return SeedResult{}, false, &ClosedRoomError{Room: name, Reason: closed.Reason, Suggest: FreeName(r.cwd, name)}
		}
	}
	cfg := r.Config()
	if !created && len(opt.Seats) > 0 && !cfg.IsDebate() && !slices.Equal(opt.Seats, cfg.Seats()) {
		return SeedResult{}, false, fmt.Errorf("%w: room %s exists with the seats %s, not %s; a room's seats are set when it is created: choose a new name, such as %s",
			ErrBadSeat, name, strings.Join(cfg.Seats(), ","), strings.Join(opt.Seats, ","), FreeName(r.cwd, name))
	}
	res := SeedResult{Room: cfg.Room, Dir: r.Dir(), Spec: cfg.Spec}
	res.Prompts, err = writePrompts(r.Dir(), cfg)
	return res, created, err
}

// PromptFile is the name of seat's prompt in the room's folder:
// SeatFile(seat) + ".md" ("lead.md", "critic-1a2b3c4d.md").
func PromptFile(seat string) string { return SeatFile(seat) + ".md" }

// writePrompts writes the prompt of each seat of the room of cfg into dir.
func writePrompts(dir string, cfg Config) ([]string, error) {
	var out []string
	v := prompts.SeatValues{Room: cfg.Room, Topic: cfg.Topic, Spec: cfg.Spec, Budget: cfg.Budget}
	for _, seat := range cfg.TurnOrder() {
		var text string
		var err error
		if cfg.IsCouncil() {
			text, err = prompts.CouncilSeat(seat, cfg.TurnOrder(), v)
		} else {
			text, err = prompts.Seat(seat, v)
		}
		if err != nil {
			return nil, fmt.Errorf("seat prompt %s: %w", seat, err)
		}
		p := filepath.Join(dir, PromptFile(seat))
		if err := writeAtomic(p, []byte(text)); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// DiscardNew removes room r, which this process created a moment ago, when
// it never became usable: nothing but what creating and seeding it wrote
// is in its folder (room.json, the prompts, an empty messages/, the room's
// lock, and at most seat's own lock, released). Anything else (a message,
// a note, another seat's lock or log) means someone else uses it, and it
// stays. The .roundtable folder goes too when it then holds no room.
func DiscardNew(r *Room, seat string) error {
	own := map[string]bool{"room.json": true, ".lock": true, "messages": true, "seats": true}
	for _, s := range r.cfg.TurnOrder() {
		own[PromptFile(s)] = true
	}
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !own[e.Name()] {
			return nil
		}
	}
	for sub, allowed := range map[string]string{"messages": "", "seats": SeatFile(seat) + ".lock"} {
		list, err := os.ReadDir(filepath.Join(r.dir, sub))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, e := range list {
			if e.Name() != allowed {
				return nil
			}
		}
	}
	if err := os.RemoveAll(r.dir); err != nil {
		return err
	}
	top := filepath.Join(r.cwd, Folder)
	if rest, err := os.ReadDir(top); err == nil && len(rest) == 1 && rest[0].Name() == ".gitignore" {
		_ = os.Remove(filepath.Join(top, ".gitignore"))
		_ = os.Remove(top)
	}
	return nil
}

// renamed rewrites what in room folder dir (just moved from the name from
// to the name to) still names the old room: room.json's room, its spec when
// it was the old default (SPEC-<from>.md; the spec file moves with it when
// it exists and the new path is free), and the prompts, when they are there.
func renamed(cwd, dir, from, to string) error {
	path := filepath.Join(dir, "room.json")
	data, err := readRegular(path, 1<<20)
	if err != nil {
		return fmt.Errorf("read room.json of %q: %w", to, err)
	}
	var cfg Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return fmt.Errorf("room.json of %q is not valid JSON (%v); fix it by hand: set \"room\" to %q", to, err, to)
	}
	set := map[string]any{"room": to}
	cfg.Room = to
	if cfg.Spec == DefaultSpec(from) {
		oldSpec, newSpec := filepath.Join(cwd, DefaultSpec(from)), filepath.Join(cwd, DefaultSpec(to))
		_, oldErr := os.Lstat(oldSpec)
		_, newErr := os.Lstat(newSpec)
		switch {
		case errors.Is(oldErr, fs.ErrNotExist) && errors.Is(newErr, fs.ErrNotExist):
			cfg.Spec = DefaultSpec(to)
		case oldErr == nil && errors.Is(newErr, fs.ErrNotExist):
			if os.Rename(oldSpec, newSpec) == nil {
				cfg.Spec = DefaultSpec(to)
			}
		}
		set["spec"] = cfg.Spec
		if cfg.Spec == DefaultSpec(to) {
			if err := specMoved(cwd, dir, from, to); err != nil {
				return err
			}
		}
	}
	out, err := setFields(data, set)
	if err != nil {
		return fmt.Errorf("rewrite room.json of %q: %w", to, err)
	}
	if err := writeAtomic(path, out); err != nil {
		return fmt.Errorf("rewrite %s: %w", path, err)
	}
	if cfg.Mode != "" {
		return nil // a persona debate has no seat prompts
	}
	if _, err := os.Lstat(filepath.Join(dir, SeatLead+".md")); err != nil {
		return nil
	}
	_, err = writePrompts(dir, cfg)
	return err
}

// specMoved follows a default spec renamed from SPEC-<from>.md to
// SPEC-<to>.md: the room's endings (closed.json, and the earlier ones kept
// as closed-N.json) that name the old file name the new one, and a
// verdict saved beside the old spec moves along with it.
func specMoved(cwd, dir, from, to string) error {
	oldSpec, newSpec := DefaultSpec(from), DefaultSpec(to)
	ends, _ := filepath.Glob(filepath.Join(dir, "closed*.json"))
	for _, path := range ends {
		data, err := readRegular(path, 1<<20)
		if err != nil {
			continue
		}
		var c Closed
		if json.Unmarshal(data, &c) != nil || c.SpecPath != oldSpec {
			continue
		}
		out, err := setFields(data, map[string]any{"specPath": newSpec})
		if err != nil {
			return fmt.Errorf("rewrite %s: %w", path, err)
		}
		if err := writeAtomic(path, out); err != nil {
			return fmt.Errorf("rewrite %s: %w", path, err)
		}
	}
	oldV := filepath.Join(cwd, VerdictPath(Config{Room: from, Spec: oldSpec}, nil))
	newV := filepath.Join(cwd, VerdictPath(Config{Room: to, Spec: newSpec}, nil))
	if _, err := os.Lstat(newV); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(oldV, newV); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("move the verdict %s to %s: %w", oldV, newV, err)
		}
	}
	return nil
}

// setFields rewrites the top-level fields of JSON object data named in set,
// keeping every other field, and the order, as they were.
func setFields(data []byte, set map[string]any) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var compact bytes.Buffer
	compact.WriteByte('{')
	done := map[string]bool{}
	write := func(k string, v []byte) {
		if compact.Len() > 1 {
			compact.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		compact.Write(kb)
		compact.WriteByte(':')
		compact.Write(v)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if v, ok := set[k]; ok {
			if raw, err = json.Marshal(v); err != nil {
				return nil, err
			}
			done[k] = true
		}
		write(k, raw)
	}
	for k, v := range set {
		if !done[k] {
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			write(k, raw)
		}
	}
	compact.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
