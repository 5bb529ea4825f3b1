// Package webengine is the debate engine as the host's web face asks for
// it (room/host/web.Engine): what a debate started through the API
// takes, and a room's events as the debate reads them (FollowStore). The
// web face may not import debate (packages depend cmd → tui → debate →
// room); cmd hands it New().
package webengine

import (
	"context"
	"errors"
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/web"
)

// New is the engine's part of the web face.
func New() web.Engine {
	e := web.Engine{
		MinRounds: debate.MinRounds, MaxRounds: debate.MaxRounds, DefaultRounds: debate.DefaultRounds,
		MaxTopic: debate.MaxTopicLen, MaxPersonas: debate.MaxPersonas,
		DefaultAgentPersona: debate.DefaultAgentPersona,
		AgentPresets:        debate.AgentPresets(),
		Moderator:           debate.DefaultModerator().Name,
		ValidatePersonas:    validate,
		RoomName:            debate.RoomName,
		Follow:              follow,
	}
	for _, p := range debate.DefaultPersonas() {
		e.DefaultPersonas = append(e.DefaultPersonas, web.Persona(p))
	}
	return e
}

// validate is debate.ValidatePersonas, its error said without the
// package's prefix.
func validate(ps []web.Persona) ([]web.Persona, error) {
	in := make([]debate.Persona, len(ps))
	for i, p := range ps {
		in[i] = debate.Persona(p)
	}
	v, err := debate.ValidatePersonas(in)
	if err != nil {
		if errors.Is(err, debate.ErrBadPersona) {
			return nil, errors.New(strings.TrimPrefix(err.Error(), debate.ErrBadPersona.Error()+": "))
		}
		return nil, err
	}
	out := make([]web.Persona, len(v))
	for i, p := range v {
		out[i] = web.Persona(p)
	}
	return out, nil
}

// follow is debate.FollowStore, its events as the web face reads them.
func follow(ctx context.Context, r *room.Room) (web.Follower, []web.Event, error) {
	st, first, err := debate.FollowStore(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	return follower{st}, events(first), nil
}

type follower struct{ *debate.StoreEvents }

func (f follower) Next(ctx context.Context) ([]web.Event, error) {
	evs, err := f.StoreEvents.Next(ctx)
	return events(evs), err
}

// events are evs as the web face reads them.
func events(evs []debate.Event) []web.Event {
	if len(evs) == 0 {
		return nil
	}
	out := make([]web.Event, len(evs))
	for i, e := range evs {
		out[i] = Event(e)
	}
	return out
}

// Event is e as the web face reads it.
func Event(e debate.Event) web.Event {
	var u *web.Usage
	if e.Usage != nil {
		c := web.Usage(*e.Usage)
		u = &c
	}
	return web.Event{
		Type: string(e.Type), Topic: e.Topic, Agents: e.Agents, Rounds: e.Rounds, Provider: e.Provider,
		Round: e.Round, Agent: e.Agent, Model: e.Model, Text: e.Text, Usage: u,
		MessageKind: e.MessageKind, Incomplete: e.Incomplete, Truncated: e.Truncated, Consensus: e.Consensus,
		From: e.From, Kind: e.Kind, Ranking: e.Ranking,
		Attempt: e.Attempt, Attempts: e.Attempts, Status: e.Status, Wait: e.Wait, Seq: e.Seq, Line: e.Line,
	}
}
