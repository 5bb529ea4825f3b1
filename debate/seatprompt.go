package debate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room"
)

// seatRequest is what the seat's mind is asked: the seat prompt as `seed`
// writes it (lead.md or peer.md, topic filled in), how roundtable plays the
// seat (played-<seat>.md), the persona, and the room so far. purpose is
// PurposeSeatLead, PurposeSeatPeer or PurposeSeatSpec; attempt counts the
// empty replies already received for this turn, and from the first one on
// the instruction says so.
func (g *SeatGame) seatRequest(purpose Purpose, st room.State, attempt int) (Request, error) {
	cfg := g.r.Config()
	v := prompts.SeatValues{Room: cfg.Room, Topic: cfg.Topic, Spec: cfg.Spec, Budget: cfg.Budget}
	round := st.Round
	if purpose == PurposeSeatLead {
		round++ // the round this post opens
	}
	fill := func(name string) (string, error) {
		text, err := prompts.Seat(name, v)
		if err != nil {
			return "", fmt.Errorf("seat prompt %s: %w", name, err)
		}
		return strings.ReplaceAll(text, "{{ROUND}}", strconv.Itoa(max(round, 1))), nil
	}
	// A council's seats have the council's prompts (their role, the
	// others' names, the order); every seat but the lead is played as a
	// peer is.
	council := cfg.IsCouncil()
	var seatPrompt string
	var err error
	if council {
		seatPrompt, err = prompts.CouncilSeat(g.s.Seat, cfg.Seats(), v)
		if err == nil {
			seatPrompt = strings.ReplaceAll(seatPrompt, "{{ROUND}}", strconv.Itoa(max(round, 1)))
		}
	} else {
		seatPrompt, err = fill(g.s.Seat)
	}
	if err != nil {
		return Request{}, err
	}
	playedAs := room.SeatPeer
	if g.s.Seat == room.SeatLead {
		playedAs = room.SeatLead
	}
	played, err := fill("played-" + playedAs)
	if err != nil {
		return Request{}, err
	}
	system := seatPrompt + "\n\n" + played
	speaker := Persona{Name: g.s.Seat}
	if p := g.s.Persona; p.Name != "" {
		speaker = p
		system += fmt.Sprintf("\n\n## Who you are\nYou speak in this seat as **%s**: %s", p.Name, p.Persona)
	}
	var user strings.Builder
	writeRoomSoFar(&user, st) // the messages and the host's notes (seatnotes.go)
	// The instruction ends the user message and is also handed over on its
	// own: an agent, which keeps its session, is sent only the new posts
	// and the instruction on later turns.
	var instruction string
	switch purpose {
	case PurposeSeatSpec:
		text, err := fill("played-spec")
		if err != nil {
			return Request{}, err
		}
		instruction = text
	case PurposeSeatLead:
		instruction = fmt.Sprintf("Write your post for round %d of %d now.", round, cfg.Budget)
	default:
		instruction = "Write your answer to the lead now."
		if council {
			instruction = "Write your post for this round now, as the " + g.s.Seat + " (or pass: a first line `kind: pass` and nothing else, when you have nothing to add)."
		}
	}
	if attempt > 0 {
		instruction = "Your last reply was empty, so nothing was posted. " + instruction
	}
	turns := seatTurns(st)
	return Request{
		Messages: []Message{
			{Role: RoleSystem, Content: system},
			{Role: RoleUser, Content: strings.TrimSpace(user.String() + instruction)},
		},
		Info: TurnInfo{
			Purpose: purpose, Topic: cfg.Topic, Speaker: speaker,
			Round: round, Rounds: cfg.Budget, Transcript: turns,
			Instruction: strings.TrimSpace(instruction),
		},
	}, nil
}

// parsePost reads a post as the seat prompt asks for it: a first line
// "kind: <kind>" (Markdown emphasis allowed) naming one of the seat's kinds,
// and for the lead a last line CLOSE. A first line that names no kind of
// the seat's stays in the text and the seat's default kind is used.
func parsePost(seat, text string) (kind, body string, closeAfter bool) {
	body = strings.TrimSpace(text)
	if seat == room.SeatLead {
		lines := strings.Split(body, "\n")
		if last := strings.Trim(strings.TrimSpace(lines[len(lines)-1]), "*_`"); last == closeMark {
			body, closeAfter = strings.TrimSpace(strings.Join(lines[:len(lines)-1], "\n")), true
		}
	}
	first, rest, _ := strings.Cut(body, "\n")
	if k, ok := KindLine(first); ok {
		for _, allowed := range room.KindsFor(seat) {
			if k == allowed {
				return k, strings.TrimSpace(rest), closeAfter
			}
		}
	}
	return room.DefaultKind(seat), body, closeAfter
}

// KindLine reads a post's first line "kind: <kind>" (in Markdown emphasis
// or not), the kind lowercased; ok is false when the line names no kind
// (no "kind:" label, or not one word after it).
func KindLine(line string) (kind string, ok bool) {
	label, value, found := strings.Cut(strings.Trim(strings.TrimSpace(line), "*_`#> "), ":")
	if !found || !strings.EqualFold(strings.Trim(label, "*_` "), "kind") {
		return "", false
	}
	k := strings.ToLower(strings.Trim(strings.TrimSpace(value), "*_`.\"' "))
	return k, k != "" && !strings.ContainsAny(k, " \t")
}
