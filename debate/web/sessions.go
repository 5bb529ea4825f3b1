package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/mcpserver"
)

// createRequest is seed 002's body of POST /api/sessions, with our
// optional provider, model and agent per persona.
type createRequest struct {
	Topic  *string        `json:"topic"`
	Rounds *int           `json:"rounds"`
	Agents []agentRequest `json:"agents"`
}

type agentRequest struct {
	Name     string `json:"name"`
	Persona  string `json:"persona"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Agent    string `json:"agent"`
}

// maxCreateBody bounds the body of POST /api/sessions.
const maxCreateBody = 64 << 10

// created is the answer to POST /api/sessions.
type created struct {
	ID     string `json:"id"`
	Stream string `json:"stream"`
	Page   string `json:"page"`
}

// badRequest is a refusal of a body: its status (400 or 422) and why.
type badRequest struct {
	code int
	msg  string
}

func (e *badRequest) Error() string { return e.msg }

func unprocessable(format string, a ...any) error {
	return &badRequest{code: http.StatusUnprocessableEntity, msg: fmt.Sprintf(format, a...)}
}

// parseCreate reads and checks a body of POST /api/sessions against the
// host's provider.
func parseCreate(body []byte, provider string) (debateRequest, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req createRequest
	err := dec.Decode(&req)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return debateRequest{}, &badRequest{http.StatusBadRequest, `the body is empty; send JSON like {"topic": "Should we adopt Rust?", "rounds": 2}`}
	case errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF):
		return debateRequest{}, &badRequest{http.StatusBadRequest, fmt.Sprintf(`the body is not valid JSON (%v); send an object like {"topic": "Should we adopt Rust?", "rounds": 2}`, err)}
	case errors.As(err, &typ):
		return debateRequest{}, unprocessable("the field %s is a JSON %s, not a %s; fix its type", typ.Field, typ.Value, typ.Type)
	case err != nil && strings.HasPrefix(err.Error(), "json: unknown field"):
		return debateRequest{}, unprocessable("%s; the body takes topic, rounds and agents (each with name, persona, and optionally provider, model, agent)", strings.TrimPrefix(err.Error(), "json: "))
	case err != nil:
		return debateRequest{}, &badRequest{http.StatusBadRequest, fmt.Sprintf("the body could not be read as a session (%v); send a JSON object with topic, rounds and agents", err)}
	}
	if dec.More() {
		return debateRequest{}, &badRequest{http.StatusBadRequest, "the body holds more than one JSON value; send one object"}
	}
	var out debateRequest
	if req.Topic == nil || strings.TrimSpace(*req.Topic) == "" {
		return out, unprocessable("topic is missing or blank; say the decision to debate, e.g. \"Should we adopt Rust?\"")
	}
	out.Topic = strings.TrimSpace(*req.Topic)
	if len(out.Topic) > room.MaxTopicBytes {
		return out, unprocessable("topic is %d bytes, more than %d; shorten it", len(out.Topic), room.MaxTopicBytes)
	}
	if strings.ContainsFunc(out.Topic, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		return out, unprocessable("topic holds control characters; send plain text")
	}
	out.Rounds = debate.DefaultRounds
	if req.Rounds != nil {
		out.Rounds = *req.Rounds
	}
	if out.Rounds < debate.MinRounds || out.Rounds > debate.MaxRounds {
		return out, unprocessable("rounds is %d; give a number from %d to %d", out.Rounds, debate.MinRounds, debate.MaxRounds)
	}
	if req.Agents != nil && len(req.Agents) == 0 {
		return out, unprocessable("agents is an empty list; leave it out for the default panel, or give at least one {name, persona}")
	}
	var ps []debate.Persona
	for i, a := range req.Agents {
		if a.Provider != "" && !strings.EqualFold(a.Provider, provider) {
			return out, unprocessable("agents[%d].provider is %q, but this host runs debates on %q; leave provider out, or restart the host with --provider %s", i, clipName(a.Provider), provider, clipName(a.Provider))
		}
		p := debate.Persona{Name: a.Name, Persona: a.Persona, Model: a.Model}
		if a.Agent != "" {
			preset := strings.TrimPrefix(a.Agent, "acp:")
			if !slices.Contains(debate.AgentPresets(), preset) {
				return out, unprocessable("agents[%d].agent is %q; give one of %s (or leave it out)", i, clipName(a.Agent), strings.Join(debate.AgentPresets(), ", "))
			}
			p.Agent = []string{"acp:" + preset}
		}
		if strings.TrimSpace(a.Persona) == "" && p.Agent != nil {
			p.Persona = debate.DefaultAgentPersona
		}
		ps = append(ps, p)
	}
	if ps != nil {
		v, err := debate.ValidatePersonas(ps)
		if err != nil {
			return out, unprocessable("agents: %s", strings.TrimPrefix(err.Error(), debate.ErrBadPersona.Error()+": "))
		}
		out.Personas = v
	}
	return out, nil
}

// serveCreate starts a debate in a new room: POST /api/sessions.
func (s *Server) serveCreate(w http.ResponseWriter, r *http.Request) {
	g, ok := grant(w, r)
	if !ok {
		return
	}
	if g.Grant != mcpserver.GrantStarter {
		writeError(w, http.StatusForbidden, fmt.Sprintf("this token is room %q's %s token, which watches that room but starts no debate; use the starter token the host printed at its start", g.Room, g.Grant))
		return
	}
	if s.opt.Starter == nil {
		writeError(w, http.StatusServiceUnavailable, "this host starts no debates; start one with roundtable debate in the host's folder, or restart the host with its starter token")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxCreateBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "the body could not be read: "+err.Error())
		return
	}
	if len(body) > maxCreateBody {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes; send a shorter topic and personas", maxCreateBody))
		return
	}
	req, err := parseCreate(body, s.opt.Provider)
	var bad *badRequest
	if errors.As(err, &bad) {
		writeError(w, bad.code, bad.msg)
		return
	}
	name, err := s.opt.Starter.Start(r.Context(), req)
	if err != nil {
		var busy *busyError
		code := http.StatusInternalServerError
		if errors.As(err, &busy) {
			code = http.StatusTooManyRequests
		}
		writeError(w, code, err.Error())
		return
	}
	w.Header().Set("Location", "/api/sessions/"+name)
	writeJSON(w, http.StatusCreated, created{ID: name, Stream: StreamPath(name), Page: PagePath(name)})
}
