package mcpserver

import (
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// postRefusal words a refused post for the agent: what happened, from the
// data the store's error carries, and which tool to call next. The store
// states facts only (room/errors.go); the sentences an agent acts on are
// written here, next to the tools they name.
func (s *Seat) postRefusal(err error) (*mcp.CallToolResult, error) {
	other := otherSeat(s.opt.Seat)
	var (
		closed *room.ClosedError
		turn   *room.NotYourTurnError
		budget *room.BudgetSpentError
		empty  *room.EmptyError
		large  *room.TooLargeError
		kind   *room.BadKindError
	)
	switch {
	case errors.As(err, &closed):
		return refuse("This room is closed (%s). Stop posting and end your turn.", closed.Reason)
	case errors.As(err, &turn) && s.takesTurns():
		return refuse("It is the %s's turn, not yours: the seats speak in the order %s, one round being every seat once. Call wait_for_message: it returns at your turn with every message since you last read.", turn.Turn, strings.Join(s.room.Config().TurnOrder(), ", "))
	case errors.As(err, &turn):
		return refuse("It is the %s's turn: your post was the last one. Call wait_for_message to receive their reply before posting again.", turn.Turn)
	case errors.As(err, &budget):
		return refuse("The round budget of %d is spent (%d lead posts). Write the spec with write_spec now, then call close_room.", budget.Budget, budget.Round)
	case errors.As(err, &empty) && s.takesTurns():
		return refuse("post needs non-empty text: say what you want the others to read, or pass your turn with kind %q (a pass may have no text).", room.KindPass)
	case errors.As(err, &empty):
		return refuse("post needs non-empty text: say what you want the %s to read.", other)
	case errors.As(err, &large):
		return refuse("Your post is %d KiB, over the %d KiB limit. Shorten it, or make the point in this post and the details in the next turn.", (large.Size+1023)>>10, large.Limit>>10)
	case errors.As(err, &kind):
		return refuse("The kind %q was not accepted: it %s. A kind is a short label of up to %d characters on one line, such as %s; or leave kind out.",
			kind.Kind, kind.Reason, room.MaxKindRunes, quoteList(room.KindsFor(s.opt.Seat)))
	default:
		return fault(err)
	}
}

func quoteList(words []string) string {
	out := ""
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			out += " or "
		default:
			out += ", "
		}
		out += w
	}
	return out
}
