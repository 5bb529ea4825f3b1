package debate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// RoomVerdict asks the moderator for the verdict a persona debate ends
// with (decision, confidence, agreement, dissent, risks, next steps) over
// the transcript of r, an MCP room (or a council): every seat's messages
// and the person's notes, in order, the seats as the panel. It streams the
// verdict to onDelta (nil: nowhere) and returns it whole with its usage.
// A room with no message has nothing to judge: an error says so.
func RoomVerdict(ctx context.Context, r *room.Room, p Provider, moderator Persona, onDelta func(string) error) (string, Usage, error) {
	cfg := r.Config()
	if cfg.IsDebate() {
		return "", Usage{}, fmt.Errorf("%w: room %q is a persona debate, which ends with its own verdict; roundtable verdict is for MCP rooms", ErrBadConfig, cfg.Room)
	}
	st, err := r.State()
	if err != nil {
		return "", Usage{}, err
	}
	if len(st.Messages) == 0 {
		return "", Usage{}, fmt.Errorf("%w: room %q has no message yet; ask for a verdict once its seats have spoken", ErrBadConfig, cfg.Room)
	}
	info := TurnInfo{
		Purpose: PurposeVerdict, Topic: cfg.Topic, Speaker: moderator,
		Round: st.Round, Rounds: cfg.Budget, Transcript: roomTurns(st),
	}
	for _, seat := range cfg.Seats() {
		info.Personas = append(info.Personas, Persona{Name: seat})
	}
	if onDelta == nil {
		onDelta = func(string) error { return nil }
	}
	var text strings.Builder
	usage, err := p.Stream(ctx, Request{Messages: verdictMessages(info), Model: moderator.Model, Info: info}, func(s string) error {
		text.WriteString(s)
		return onDelta(s)
	})
	if err != nil {
		return text.String(), usage, err
	}
	if strings.TrimSpace(text.String()) == "" {
		return "", usage, errors.New("the moderator's reply was empty; run roundtable verdict again, or with another model")
	}
	return text.String(), usage, nil
}

// SaveRoomVerdict is RoomVerdict, then the verdict saved beside the room's
// spec (room.WriteVerdict): what roundtable verdict and watch's V do. It
// returns the file's path relative to the room's cwd.
func SaveRoomVerdict(ctx context.Context, r *room.Room, p Provider, onDelta func(string) error) (string, error) {
	text, _, err := RoomVerdict(ctx, r, p, DefaultModerator(), onDelta)
	if err != nil {
		return "", err
	}
	st, err := r.State()
	if err != nil {
		return "", err
	}
	path, err := r.WriteVerdict(text, st.Closed)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(r.Cwd(), path); err == nil {
		path = rel
	}
	return path, nil
}

// roomTurns is an MCP room's transcript as a debate's turns: each message
// under its seat (and agent), in the round the lead's post opened; each
// note where it was given.
func roomTurns(st room.State) []Turn {
	notes := room.NotesAfter(st.Notes, 0)
	var out []Turn
	round := 0
	for _, m := range st.Messages {
		for len(notes) > 0 && notes[0].AfterSeq < m.Seq {
			out = append(out, Turn{Round: max(round, 1), Agent: NoteFrom, Text: notes[0].Text, Note: true})
			notes = notes[1:]
		}
		if m.Seat == room.SeatLead {
			round++
		}
		who := m.Seat
		if m.Agent != "" {
			who += " (" + m.Agent + ")"
		}
		if m.Kind != "" {
			who += ", " + m.Kind
		}
		out = append(out, Turn{Round: max(round, 1), Agent: who, Text: m.Text, Kind: m.Kind})
	}
	for _, n := range notes {
		out = append(out, Turn{Round: max(round, 1), Agent: NoteFrom, Text: n.Text, Note: true})
	}
	return out
}
