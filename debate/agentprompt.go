package debate

import (
	"fmt"
	"strings"
)

// promptFor is what the speaker's agent is sent for req: the first time,
// the whole prompt (instructions, the debate so far, the turn) with a note
// on how to work as an agent; after that, only what it has not seen: the
// instructions of a new purpose (the moderator's verdict after its
// consensus checks), the turns spoken since, and the turn's request. An
// agent keeps its session, so it remembers the rest.
func (a *agentProc) promptFor(req Request) string {
	info := req.Info
	purpose := info.Purpose
	if purpose == "" {
		purpose = PurposeTurn
	}
	system, user := "", ""
	for _, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			system = joinPara(system, m.Content)
		default:
			user = joinPara(user, m.Content)
		}
	}
	first := len(a.sent) == 0
	if !first && isSeatPurpose(purpose) {
		a.sent[purpose] = true
		return a.seatFollowup(req)
	}
	newPurpose := !a.sent[purpose]
	a.sent[purpose] = true
	if purpose == PurposeRank && !first {
		// A ranking request carries what it ranks, unlabelled: it goes
		// whole (with its instructions the first time); the agent's
		// session holds the debate it ranks.
		a.seen = max(a.seen, len(info.Transcript))
		if newPurpose {
			return joinPara(system, user)
		}
		return user
	}
	var fresh []Turn
	if a.seen < len(info.Transcript) {
		for _, t := range info.Transcript[a.seen:] {
			if t.Agent != info.Speaker.Name || purpose != PurposeTurn {
				fresh = append(fresh, t)
			}
		}
	}
	a.seen = max(a.seen, len(info.Transcript))
	if !first && len(info.Transcript) == 0 && purpose == PurposeTurn && !info.Blind {
		// A caller that writes its own prompt (a seat of an MCP room)
		// and hands over no transcript: its request is sent whole.
		return user
	}
	if first {
		note := render("agent_note.md", promptData{ReadOnly: a.client.tools == 0})
		return joinPara(joinPara(system, note), user)
	}
	d := promptData{
		Topic: info.Topic, Name: info.Speaker.Name, Round: info.Round, Rounds: info.Rounds,
		Final:      info.Round == info.Rounds && info.Rounds > 1,
		Transcript: FormatTranscript(fresh), Purpose: purpose,
	}
	if purpose == PurposeVerdict {
		names := make([]string, len(info.Personas))
		for i, p := range info.Personas {
			names[i] = p.Name
		}
		d.Rankings = FormatRankings(info.Rankings, names)
	}
	follow := render("agent_followup.md", d)
	if newPurpose {
		return joinPara(system, follow)
	}
	return follow
}

// isSeatPurpose reports whether purpose is a turn of an MCP room's seat
// that roundtable plays (`roundtable seat`).
func isSeatPurpose(p Purpose) bool {
	return p == PurposeSeatLead || p == PurposeSeatPeer || p == PurposeSeatSpec
}

// seatFollowup is a seat's later prompt: the posts that landed since the
// agent last read the room, then the request's instruction
// (Info.Instruction: write your post, your answer, or the spec). The agent's
// session holds the seat prompt and the room before that.
func (a *agentProc) seatFollowup(req Request) string {
	instruction := req.Info.Instruction
	t := req.Info.Transcript
	var b strings.Builder
	if a.seen < len(t) {
		b.WriteString("Posted in the room since you last read it:\n\n")
		for _, turn := range t[a.seen:] {
			fmt.Fprintf(&b, "### %s (%s)\n\n%s\n\n", turn.Agent, turn.Model, strings.TrimSpace(turn.Text))
		}
	} else {
		b.WriteString("Nothing new was posted in the room since you last read it.\n\n")
	}
	a.seen = max(a.seen, len(t))
	b.WriteString(instruction)
	return b.String()
}

// joinPara joins two blocks of text with a blank line, skipping empties.
func joinPara(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}
