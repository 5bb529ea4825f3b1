package room

import (
	"errors"
	"fmt"
)

// Sentinel errors. Callers match them with errors.Is; where a refusal
// carries data (whose turn it is, how many rounds were used) the store
// returns one of the typed errors below, which match their sentinel too.
//
// The store states facts. What to do about them depends on who reads the
// error: an agent is told which tool to call by the seat server
// (room/mcpserver), a person is told which key or flag to use by the
// screens and commands. So no message here names a tool or a key.
var (
	ErrBadName     = errors.New("bad room name")
	ErrBadSeat     = errors.New("bad seat")
	ErrNoRoom      = errors.New("no such room")
	ErrUnsafePath  = errors.New("unsafe path")
	ErrClosed      = errors.New("room is closed")
	ErrNotYourTurn = errors.New("not your turn")
	ErrBudgetSpent = errors.New("round budget spent")
	ErrEmpty       = errors.New("empty text")
	ErrTooLarge    = errors.New("text too large")
	ErrBadKind     = errors.New("bad kind")
	ErrNoSpec      = errors.New("no spec written")
)

// NotYourTurnError refuses a post from Seat while it is Turn's turn.
type NotYourTurnError struct {
	Seat string // who tried to post
	Turn string // whose turn it is
	Last string // who posted last; "" when nobody has
}

func (e *NotYourTurnError) Error() string {
	last := e.Last
	if last == "" {
		last = e.Seat
	}
	return fmt.Sprintf("not your turn: the %s posted last, it is the %s's turn", last, e.Turn)
}

// Unwrap makes errors.Is(err, ErrNotYourTurn) hold.
func (e *NotYourTurnError) Unwrap() error { return ErrNotYourTurn }

// BudgetSpentError refuses a lead post once Round lead posts have used the
// room's Budget.
type BudgetSpentError struct {
	Round  int // lead posts so far
	Budget int // the room's round budget
}

func (e *BudgetSpentError) Error() string {
	return fmt.Sprintf("round budget spent: %d of %d rounds used", e.Round, e.Budget)
}

// Unwrap makes errors.Is(err, ErrBudgetSpent) hold.
func (e *BudgetSpentError) Unwrap() error { return ErrBudgetSpent }

// ClosedError refuses a post to, or a second close of, a closed room.
type ClosedError struct {
	Reason string // closed.json's reason
}

func (e *ClosedError) Error() string {
	if e.Reason == "" {
		return "room is closed"
	}
	return fmt.Sprintf("room is closed (%s)", e.Reason)
}

// Unwrap makes errors.Is(err, ErrClosed) hold.
func (e *ClosedError) Unwrap() error { return ErrClosed }

// EmptyError refuses a message or spec whose text is only white space.
type EmptyError struct {
	What string // "message", "spec"
}

func (e *EmptyError) Error() string { return fmt.Sprintf("empty text: the %s has no text", e.What) }

// Unwrap makes errors.Is(err, ErrEmpty) hold.
func (e *EmptyError) Unwrap() error { return ErrEmpty }

// TooLargeError refuses a text over its limit.
type TooLargeError struct {
	What  string // "message", "topic"
	Size  int    // bytes given
	Limit int    // bytes allowed
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("text too large: the %s is %d bytes, over the %d KiB limit", e.What, e.Size, e.Limit>>10)
}

// Unwrap makes errors.Is(err, ErrTooLarge) hold.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// BadKindError refuses a message kind that cannot be shown as a short
// label (see ValidateKind).
type BadKindError struct {
	Kind   string // as given
	Reason string // why it was refused: "is 40 characters long, over 32"
}

func (e *BadKindError) Error() string { return fmt.Sprintf("bad kind %q: it %s", e.Kind, e.Reason) }

// Unwrap makes errors.Is(err, ErrBadKind) hold.
func (e *BadKindError) Unwrap() error { return ErrBadKind }

// NoSpecError refuses a close that requires a spec before the spec exists.
type NoSpecError struct {
	Spec string // the spec path, relative to the room's cwd
}

func (e *NoSpecError) Error() string {
	return fmt.Sprintf("no spec written: %s does not exist yet", e.Spec)
}

// Unwrap makes errors.Is(err, ErrNoSpec) hold.
func (e *NoSpecError) Unwrap() error { return ErrNoSpec }
