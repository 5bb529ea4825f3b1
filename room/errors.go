package room

import "errors"

// Sentinel errors. Callers match them with errors.Is; the wrapped message
// says what to do next.
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
