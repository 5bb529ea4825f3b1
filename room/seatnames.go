package room

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A room's seats are names, in order. An MCP room has the lead and the
// peer (DefaultSeats) unless its room.json lists others under "seats"; a
// debate room's seats are its personas, in speaking order, then the
// moderator's (SeatModerator), who gives the verdict.
//
// A seat's files (drafts/<file>.json, seats/<file>.lock) are named by
// SeatFile: the lead and the peer keep their own names, which the original
// server's tools and older readers know; any other seat, whatever its name
// holds (spaces, other scripts, "..", slashes), gets a lowercase ASCII slug
// and a short hash of the name, so it is always one safe file name. The
// seat's real name is in the file (a draft's "seat"), and readers match by
// it.

// DefaultSeats are the seats of an MCP room whose room.json lists none.
func DefaultSeats() []string { return []string{SeatLead, SeatPeer} }

// maxSeatBytes bounds a seat's name.
const maxSeatBytes = 256

// A council is an MCP room of more than the default two seats (or of
// other names): MinSeats to MaxSeats seats, the lead first. Its turn order
// is its seats' order (State.Seats): the lead, then each other seat, one
// round being every seat once.
const (
	MinSeats = 2
	MaxSeats = 8
)

// KindPass is the kind of a post that passes the seat's turn: it takes the
// turn, is a message (the transcript shows it), and may have no text.
const KindPass = "pass"

// Seats is the room's seats in order: see the comment above.
func (c Config) Seats() []string {
	if c.IsDebate() {
		var out []string
		if len(c.Personas) > 0 {
			for _, p := range c.Personas {
				out = append(out, p.Name)
			}
		} else {
			out = append(out, c.Agents...)
		}
		if !slices.Contains(out, SeatModerator) {
			out = append(out, SeatModerator)
		}
		return out
	}
	if len(c.SeatNames) > 0 {
		return slices.Clone(c.SeatNames)
	}
	return DefaultSeats()
}

// HasSeat reports whether seat is one of the room's seats.
func (c Config) HasSeat(seat string) bool {
	if seat == "" {
		return false
	}
	return slices.Contains(c.Seats(), seat)
}

// IsCouncil reports whether the room is an MCP room whose seats are not the
// default lead and peer: its room.json lists them.
func (c Config) IsCouncil() bool { return !c.IsDebate() && len(c.SeatNames) > 0 }

// TurnOrder is the order in which the seats of an MCP room take turns
// (Seats); a debate's engine owns its order, and its state keeps the lead
// and peer rule, so a debate room answers DefaultSeats.
func (c Config) TurnOrder() []string {
	if c.IsCouncil() {
		return slices.Clone(c.SeatNames)
	}
	return DefaultSeats()
}

// CheckSeat refuses, with ErrBadSeat and a sentence naming the room's
// seats, a seat that is not one of the room's.
func (c Config) CheckSeat(seat string) error {
	if c.HasSeat(seat) {
		return nil
	}
	return fmt.Errorf("%w: %q is not a seat of room %s (its seats: %s)", ErrBadSeat, seat, c.Room, strings.Join(c.Seats(), ", "))
}

// ValidateSeatName checks that name can be a seat of some room: 1-256
// bytes of UTF-8 text without control characters. Whether it is a seat of
// a given room is the room's to say (Config.CheckSeat).
func ValidateSeatName(name string) error {
	if !validSeatName(name) {
		return fmt.Errorf("%w: %q: a seat is 1-%d bytes of text without control characters", ErrBadSeat, name, maxSeatBytes)
	}
	return nil
}

// checkSeat refuses a seat that is not one of the room's (ErrBadSeat).
func (r *Room) checkSeat(seat string) error {
	return r.cfg.CheckSeat(seat)
}

// validSeatName reports whether name can be a seat at all: not empty,
// valid UTF-8, without control characters, at most maxSeatBytes.
func validSeatName(name string) bool {
	if name == "" || len(name) > maxSeatBytes || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// checkSeatList validates the seats a new room is created with: distinct
// valid names, at least two. The default list comes back nil, so room.json
// leaves it out and stays as the original server writes it.
func checkSeatList(seats []string) ([]string, error) {
	if len(seats) == 0 || slices.Equal(seats, DefaultSeats()) {
		return nil, nil
	}
	if len(seats) < 2 {
		return nil, fmt.Errorf("%w: a room needs at least two seats, not %q", ErrBadSeat, seats)
	}
	seen := map[string]bool{}
	for _, s := range seats {
		if !validSeatName(s) {
			return nil, fmt.Errorf("%w: %q: a seat is 1-%d bytes of text without control characters", ErrBadSeat, s, maxSeatBytes)
		}
		if seen[s] {
			return nil, fmt.Errorf("%w: the seat %q is listed twice", ErrBadSeat, s)
		}
		seen[s] = true
	}
	return slices.Clone(seats), nil
}

// ParseSeatList reads a comma-separated list of an MCP room's seats
// ("lead,critic,security,peer", as `seed --seats` takes it) and checks it
// as Create will: 2-8 distinct names, the lead first. The error says what
// to change.
func ParseSeatList(v string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(v, ",") {
		out = append(out, strings.TrimSpace(s))
	}
	if len(out) < MinSeats || len(out) > MaxSeats {
		return nil, fmt.Errorf("%w: %q lists %d seats: a room has %d to %d, the lead first, e.g. lead,critic,security,peer", ErrBadSeat, v, len(out), MinSeats, MaxSeats)
	}
	if _, err := checkSeatList(out); err != nil {
		return nil, err
	}
	if err := checkCouncil(out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkCouncil adds the rules of an MCP room's seats to checkSeatList's:
// at most MaxSeats, the lead first (it briefs, spends the rounds, writes
// the spec and closes), and no seat named "observer", the grant of a
// host's watch-only token.
func checkCouncil(seats []string) error {
	if len(seats) == 0 {
		return nil
	}
	if len(seats) > MaxSeats {
		return fmt.Errorf("%w: a room has %d to %d seats, not %d", ErrBadSeat, MinSeats, MaxSeats, len(seats))
	}
	if seats[0] != SeatLead {
		return fmt.Errorf("%w: the first seat is %q; the first seat of a room is %q, who briefs, spends the rounds, writes the spec and closes: list it first", ErrBadSeat, seats[0], SeatLead)
	}
	if slices.Contains(seats, GrantObserver) {
		return fmt.Errorf("%w: %q names the host's watch-only token, not a seat: choose another name", ErrBadSeat, GrantObserver)
	}
	return nil
}

// SeatFile is the file name stem of seat's files (its draft, its lock):
// "lead" and "peer" as they are; any other name as a lowercase ASCII slug
// of at most 32 characters, a dash and 8 hex characters of its SHA-256
// ("dr-ada-lovelace-1f2e3d4c"), so no name can leave its folder or collide
// with another's.
func SeatFile(seat string) string {
	if seat == SeatLead || seat == SeatPeer {
		return seat
	}
	sum := sha256.Sum256([]byte(seat))
	slug := Slug(seat)
	if len(slug) > 32 {
		slug = strings.Trim(slug[:32], "-")
	}
	if slug == "" {
		slug = "seat"
	}
	return slug + "-" + hex.EncodeToString(sum[:4])
}
