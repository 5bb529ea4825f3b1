package mcpserver

import (
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// Tool annotations, set in full: mcp.NewTool marks a tool destructive and
// open-world unless told otherwise.
var (
	readOnly = mcp.ToolAnnotation{
		ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false),
	}
	// Reading marks messages as shown, so read_room and wait_for_message are
	// not idempotent, though they change nothing on disk.
	reading = mcp.ToolAnnotation{
		ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint: mcp.ToBoolPtr(false), OpenWorldHint: mcp.ToBoolPtr(false),
	}
	appending = mcp.ToolAnnotation{
		ReadOnlyHint: mcp.ToBoolPtr(false), DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint: mcp.ToBoolPtr(false), OpenWorldHint: mcp.ToBoolPtr(false),
	}
	// write_spec writes the room's one spec file; what it replaces is
	// kept in the room's spec-history/ (room.WriteSpec), so it destroys
	// nothing, and the same text twice changes nothing the second time.
	// Marked destructive, headless Codex refused it with its default
	// approval policy, and a lead could not close its room.
	specWriting = mcp.ToolAnnotation{
		ReadOnlyHint: mcp.ToBoolPtr(false), DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false),
	}
)

func annotated(a mcp.ToolAnnotation, title string) mcp.ToolOption {
	a.Title = title
	return mcp.WithToolAnnotation(a)
}

// tools lists the seat's tools: four for every seat, two more for the
// lead. A council's seat gets descriptions of its own (no "other seat":
// there are several, and turns go round them).
func (s *Seat) tools() []server.ServerTool {
	isLead := s.opt.Seat == room.SeatLead
	other := otherSeat(s.opt.Seat)
	postDesc := "Post your reply to the room. Disagree where you actually disagree: agreeing to be agreeable wastes the round."
	if isLead {
		postDesc = "Post to the room. Each post you make uses one round of the budget. Use it to set the brief, push back on the peer, or ask a narrower question."
	}
	statusDesc := "Where the discussion stands: whose turn it is, which round of the budget you are on, and whether the room has closed."
	readDesc := "Read the messages posted so far. Without since, returns every message of the " + other + " you have not been shown yet; with since, every message after that sequence number. In a long room pass limit: you get the newest messages and a note saying how to read the earlier ones." + hostNotesDesc
	waitDesc := `Block until the ` + other + ` posts, then return their message. Returns {"idle": true} if nothing arrives before the timeout: call it again. Returns {"closed": true} when the room is over, which is your signal to stop. This is how you stay in the conversation; do not end your turn while the room is open.` + hostNotesDesc
	waitTitle := "Wait for the " + other
	textDesc := "What you want to say. Markdown; cite real file paths and line numbers."
	specDesc := "The whole document, Markdown. Decision first, then reasoning, then the work as steps, then a Dissent section in the peer's own words."
	if s.takesTurns() {
		postDesc = "Post your reply to the room when it is your turn. Disagree where you actually disagree: agreeing to be agreeable wastes the round. With nothing to add, pass: kind pass (the text may then be empty); a pass takes your turn."
		if isLead {
			postDesc = "Post to the room. Each post you make opens a round and uses one of the budget; then every other seat speaks in turn. Use it to set the brief, push back on the others, or ask a narrower question."
		}
		statusDesc = "Where the discussion stands: the seats in turn order and who holds each, whose turn it is, who has passed this round, which round of the budget you are on, and whether the room has closed."
		readDesc = "Read the messages posted so far. Without since, returns every message of the other seats you have not been shown yet; with since, every message after that sequence number. In a long room pass limit: you get the newest messages and a note saying how to read the earlier ones." + hostNotesDesc
		waitDesc = `Block until it is your turn, then return every message the other seats posted since you last read. Returns {"idle": true} if your turn does not come before the timeout: call it again. Returns {"closed": true} when the room is over, which is your signal to stop. This is how you stay in the conversation; do not end your turn while the room is open.` + hostNotesDesc
		waitTitle = "Wait for your turn"
		textDesc = "What you want to say. Markdown; cite real file paths and line numbers. May be empty when kind is pass."
		specDesc = "The whole document, Markdown. Decision first, then reasoning, then the work as steps, then a Dissent section in each seat's own words."
	}
	list := []server.ServerTool{
		{
			Tool: mcp.NewTool("room_status",
				mcp.WithDescription(statusDesc),
				annotated(readOnly, "Room status"),
			),
			Handler: s.roomStatus,
		},
		{
			Tool: mcp.NewTool("read_room",
				mcp.WithDescription(readDesc),
				mcp.WithNumber("since", mcp.Description("Return only messages after this sequence number (0 for all). Omit to continue from where you left off.")),
				mcp.WithNumber("before", mcp.Description("Return only messages before this sequence number; with limit, pages back through a long room.")),
				mcp.WithInteger("limit", mcp.Min(1), mcp.Description("Return at most this many messages, the newest ones; a note then says how to read the rest.")),
				annotated(reading, "Read the room"),
			),
			Handler: s.readRoom,
		},
		{
			Tool: mcp.NewTool("wait_for_message",
				mcp.WithDescription(waitDesc),
				mcp.WithNumber("timeout_seconds", mcp.Description("How long to wait before returning idle, in seconds: at least 1; default and maximum 55 (45 for opencode, which ends a tool call at 60).")),
				annotated(reading, waitTitle),
			),
			Handler: s.waitForMessage,
		},
		{
			Tool: mcp.NewTool("post",
				mcp.WithDescription(postDesc),
				mcp.WithString("text", mcp.Required(), mcp.Description(textDesc)),
				mcp.WithString("kind", mcp.Description(kindDescription(s.opt.Seat, s.takesTurns()))),
				annotated(appending, "Post to the room"),
			),
			Handler: s.post,
		},
	}
	list = append(list,
		server.ServerTool{
			Tool: mcp.NewTool("write_spec",
				mcp.WithDescription("Write the plan. This is the only way anything leaves this room, and the only file you can create: you are not here to implement anything. Call it once you have converged, then close_room."),
				mcp.WithString("text", mcp.Required(), mcp.Description(specDesc)),
				annotated(specWriting, "Write the spec"),
			),
			Handler: s.writeSpec,
		},
		server.ServerTool{
			Tool: mcp.NewTool("close_room",
				mcp.WithDescription("End the discussion. Write the agreed plan with write_spec first, then call this. The spec path defaults to the one in room_status."),
				mcp.WithString("reason", mcp.Description("Why the room is closing: agreement reached, budget spent, or dead end.")),
				mcp.WithString("spec_path", mcp.Description("Path to the spec file you wrote, relative to the working directory.")),
				annotated(appending, "Close the room"),
			),
			Handler: s.closeRoom,
		},
	)
	return append(list, s.extra...)
}

// leadOnly names the tools only the lead sees.
var leadOnly = map[string]bool{"write_spec": true, "close_room": true}

// observerTools names the tools a host's observer sees: those that read.
var observerTools = map[string]bool{"room_status": true, "read_room": true, "wait_for_message": true, observeTool: true}

// shows reports whether the seat's tool list has the tool name.
func (s *Seat) shows(name string) bool {
	switch s.opt.Seat {
	case room.SeatLead:
		return name != observeTool
	case room.GrantObserver:
		return observerTools[name]
	default:
		return !leadOnly[name] && name != observeTool
	}
}

func instructions(seat string) string {
	return "You hold the " + seat + " seat of a roundtable room. Loop: post when it is your turn, then call " +
		"wait_for_message; on idle call it again; stop only when it returns closed. Notes from the host in a reply " +
		"outrank the course of the debate: follow them."
}

func otherSeat(seat string) string {
	if seat == room.SeatLead {
		return room.SeatPeer
	}
	return room.SeatLead
}

// kindDescription documents post's kind: the seat's usual kinds, and that
// any short label is taken, as by the original server; in a council, that
// pass takes the turn.
func kindDescription(seat string, council bool) string {
	kinds := room.KindsFor(seat)
	desc := fmt.Sprintf("What the post does, shown beside it: usually %s (default %s). Any short label is accepted: up to %d characters on one line.",
		strings.Join(kinds, " | "), kinds[0], room.MaxKindRunes)
	if council {
		desc += " " + room.KindPass + " takes your turn without a point of your own; its text may be empty."
	}
	return desc
}
