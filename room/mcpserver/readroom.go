package mcpserver

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// readRoom answers read_room. Without since or before it returns the other
// seat's messages this seat has not been shown; with either, every message
// whose seq is after since and before before. limit keeps the newest N of
// those and says in a note how to read the ones left out: no agent can take
// a 6 MB transcript into its context, and the newest messages are the ones
// it needs first.
func (s *Seat) readRoom(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st, err := s.state()
	if err != nil {
		return fault(err)
	}
	args := req.GetArguments()
	_, hasSince := args["since"]
	_, hasBefore := args["before"]
	var msgs []room.Message
	if hasSince || hasBefore {
		msgs = between(st.Messages, req.GetFloat("since", 0), req.GetFloat("before", math.Inf(1)))
	} else {
		msgs = s.unshown(st)
	}
	extra := map[string]any{}
	if limit := req.GetInt("limit", 0); limit > 0 && len(msgs) > limit {
		left := msgs[:len(msgs)-limit]
		msgs = msgs[len(msgs)-limit:]
		extra["note"] = leftOutNote(left, msgs, limit)
	}
	s.markShown(lastOf(msgs, s.fromOther))
	notes := s.takeNotes(st)
	if hasSince || hasBefore {
		since := req.GetFloat("since", 0)
		if len(msgs) > 0 {
			since = max(since, float64(msgs[0].Seq-1))
		}
		notes = unionNotes(notesPlaced(st.Notes, since, req.GetFloat("before", math.Inf(1))), notes)
	}
	s.addNotes(extra, notes, st, false)
	extra["messages"] = nonNil(msgs)
	return s.replyLarge(merge(extra, s.status(st)))
}

// between returns the messages whose seq is after since and before before,
// from messages sorted by seq; it shares their storage.
func between(msgs []room.Message, since, before float64) []room.Message {
	lo := sort.Search(len(msgs), func(i int) bool { return float64(msgs[i].Seq) > since })
	hi := sort.Search(len(msgs), func(i int) bool { return float64(msgs[i].Seq) >= before })
	if hi <= lo {
		return nil
	}
	return msgs[lo:hi]
}

// lastOf is the newest message in msgs of a seat that from accepts, as a
// one-message slice for markShown, or nil.
func lastOf(msgs []room.Message, from func(string) bool) []room.Message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if from(msgs[i].Seat) {
			return msgs[i : i+1]
		}
	}
	return nil
}

// leftOutNote tells the agent which messages limit left out and the call
// that reads them, newest first, page by page.
func leftOutNote(left, shown []room.Message, limit int) string {
	return fmt.Sprintf("Only the newest %d messages are shown (#%d to #%d). %d earlier ones (#%d to #%d) were left out: "+
		"to read them, call read_room with since=%d, before=%d and limit=%d, then lower before to the first seq you got for the page before that.",
		len(shown), shown[0].Seq, shown[len(shown)-1].Seq, len(left), left[0].Seq, left[len(left)-1].Seq,
		left[0].Seq-1, shown[0].Seq, limit)
}
