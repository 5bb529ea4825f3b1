package room

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxKindRunes is the longest message kind a post may carry. A kind is a
// label shown beside the seat's name in every view, not a second message.
const MaxKindRunes = 32

// LeadKinds and PeerKinds are the kinds suggested to each seat; the first of
// each is the default. They are suggestions, as in the original server: a
// post may carry any short kind (ValidateKind), so an agent that concedes
// as the lead, or names a kind of its own, is not refused.
var (
	LeadKinds = []string{"brief", "challenge", "question", "decision"}
	PeerKinds = []string{"answer", "objection", "proposal", "concession"}
)

// DefaultKind is the kind a seat's post gets when it names none: the
// lead's first kind for the lead, the peer's for every other seat (a
// council's seats answer the lead as the peer does).
func DefaultKind(seat string) string {
	return KindsFor(seat)[0]
}

// KindsFor lists the kinds suggested to a seat: LeadKinds to the lead,
// PeerKinds to any other.
func KindsFor(seat string) []string {
	if seat == SeatLead {
		return LeadKinds
	}
	return PeerKinds
}

// ValidateKind accepts any kind that can be shown as a short label: valid
// UTF-8, at most MaxKindRunes characters, one line of printable characters
// (spaces, letters, digits, punctuation, symbols, emoji). It refuses, with
// a *BadKindError saying why, a kind that carries line breaks, control or
// invisible formatting characters (which could forge or hide text on a
// screen), or a paragraph. The empty kind is valid: the seat's default.
func ValidateKind(kind string) error {
	bad := func(reason string) error { return &BadKindError{Kind: kind, Reason: reason} }
	if !utf8.ValidString(kind) {
		return bad("is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(kind); n > MaxKindRunes {
		return bad(fmt.Sprintf("is %d characters long, over %d", n, MaxKindRunes))
	}
	if strings.TrimSpace(kind) != kind {
		return bad("starts or ends with white space")
	}
	for _, r := range kind {
		switch {
		case r == '\n' || r == '\r':
			return bad("contains a line break")
		case r == '\u200d': // zero-width joiner: part of many emoji
		case !unicode.IsPrint(r):
			return bad(fmt.Sprintf("contains the control or invisible character %U", r))
		}
	}
	return nil
}
