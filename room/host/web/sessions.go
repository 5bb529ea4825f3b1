package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// createRequest is seed 002's body of POST /api/sessions, with our
// optional provider, model and agent per persona.
type createRequest struct {
	Topic  *string        `json:"topic"`
	Rounds *int           `json:"rounds"`
	Agents []agentRequest `json:"agents"`
	// MaxTokensTotal and MaxCost ask for caps below the host's (Limits).
	MaxTokensTotal *int     `json:"max_tokens_total"`
	MaxCost        *float64 `json:"max_cost"`
	// Rank and Stances turn on the peer protocols (roundtable debate
	// --rank, --stances).
	Rank    bool `json:"rank"`
	Stances bool `json:"stances"`
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

// bodyHint is what a body of POST /api/sessions looks like, for a refusal.
const bodyHint = `send a JSON object like {"topic": "Should we adopt Rust?", "rounds": 2}`

// parseCreate reads and checks a body of POST /api/sessions against the
// host's provider and limits.
func parseCreate(body []byte, provider string, lim Limits, eng *Engine) (debateRequest, error) {
	lim = lim.withDefaults()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req createRequest
	err := dec.Decode(&req)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return debateRequest{}, &badRequest{http.StatusBadRequest, "the body is empty; " + bodyHint}
	case errors.As(err, &syn):
		return debateRequest{}, &badRequest{http.StatusBadRequest, fmt.Sprintf("the body is not valid JSON (%s, at byte %d); %s", strings.TrimPrefix(syn.Error(), "json: "), syn.Offset, bodyHint)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return debateRequest{}, &badRequest{http.StatusBadRequest, "the body is not valid JSON (it ends in the middle of a value); " + bodyHint}
	case errors.As(err, &typ):
		return debateRequest{}, typeRefusal(typ)
	case err != nil && strings.HasPrefix(err.Error(), "json: unknown field"):
		return debateRequest{}, unprocessable("%s; the body takes topic, rounds, agents (each with name, persona, and optionally provider, model, agent), max_tokens_total and max_cost", strings.TrimPrefix(err.Error(), "json: "))
	case err != nil:
		return debateRequest{}, &badRequest{http.StatusBadRequest, "the body could not be read as a session; " + bodyHint}
	}
	if dec.More() {
		return debateRequest{}, &badRequest{http.StatusBadRequest, "the body holds more than one JSON value; send one object"}
	}
	var out debateRequest
	if req.Topic == nil || strings.TrimSpace(*req.Topic) == "" {
		return out, unprocessable("topic is missing or blank; say the decision to debate, e.g. \"Should we adopt Rust?\"")
	}
	out.Topic = strings.TrimSpace(*req.Topic)
	if n := utf8.RuneCountInString(out.Topic); n > eng.MaxTopic {
		return out, unprocessable("topic is %d characters, more than the %d a debate takes; state the decision in a sentence or two", n, eng.MaxTopic)
	}
	if strings.ContainsFunc(out.Topic, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		return out, unprocessable("topic holds control characters; send plain text")
	}
	out.Rank, out.Stances = req.Rank, req.Stances
	out.Rounds = eng.DefaultRounds
	if req.Rounds != nil {
		out.Rounds = *req.Rounds
	}
	if out.Rounds < eng.MinRounds || out.Rounds > eng.MaxRounds {
		return out, unprocessable("rounds is %d; give a number from %d to %d", out.Rounds, eng.MinRounds, eng.MaxRounds)
	}
	if req.Agents != nil && len(req.Agents) == 0 {
		return out, unprocessable("agents is an empty list; leave it out for the default panel, or give at least one {name, persona}")
	}
	if err := out.setCaps(req, lim); err != nil {
		return out, err
	}
	var ps []Persona
	for i, a := range req.Agents {
		if a.Provider != "" && !strings.EqualFold(a.Provider, provider) {
			return out, unprocessable("agents[%d].provider is %q, but this host runs debates on %q; leave provider out, or restart the host with --provider %s", i, clipName(a.Provider), provider, clipName(a.Provider))
		}
		model := strings.TrimSpace(a.Model)
		if !lim.modelAllowed(model) {
			return out, &badRequest{http.StatusForbidden, fmt.Sprintf("agents[%d].model is %q, but this host lets its API's debates use %s only; leave model out (the host's own), or restart the host with --allow-models %s", i, clipName(model), lim.modelsSaid(), clipName(model))}
		}
		p := Persona{Name: a.Name, Persona: a.Persona, Model: model}
		if a.Agent != "" {
			preset := strings.TrimPrefix(a.Agent, "acp:")
			if !slices.Contains(eng.AgentPresets, preset) {
				return out, unprocessable("agents[%d].agent is %q; give one of %s (or leave it out)", i, clipName(a.Agent), strings.Join(eng.AgentPresets, ", "))
			}
			if !lim.agentAllowed(preset) {
				return out, &badRequest{http.StatusForbidden, fmt.Sprintf("agents[%d].agent is %q, but this host lets its API's debates run %s (a coding agent runs on the host's machine); leave agent out, or restart the host with --allow-agents %s", i, preset, lim.agentsSaid(), preset)}
			}
			p.Agent = []string{"acp:" + preset}
		}
		if strings.TrimSpace(a.Persona) == "" && p.Agent != nil {
			p.Persona = eng.DefaultAgentPersona
		}
		ps = append(ps, p)
	}
	if ps != nil {
		v, err := eng.ValidatePersonas(ps)
		if err != nil {
			return out, unprocessable("agents: %s", err)
		}
		out.Personas = v
	}
	return out, nil
}

// setCaps sets the debate's caps: the host's, or lower ones the body asks
// for; a body asking for more is refused, naming the host's cap.
func (out *debateRequest) setCaps(req createRequest, lim Limits) error {
	out.MaxTokensTotal = lim.MaxTokensTotal
	if n := req.MaxTokensTotal; n != nil {
		switch {
		case *n < 1:
			return unprocessable("max_tokens_total is %d; give a number of tokens from 1 to %d (this host's cap per debate), or leave it out for %d", *n, lim.MaxTokensTotal, lim.MaxTokensTotal)
		case *n > lim.MaxTokensTotal:
			return unprocessable("max_tokens_total is %d, more than this host's cap of %d tokens per debate; ask for %d or fewer, or leave it out (the host's owner sets the cap with roundtable host --max-tokens-total)", *n, lim.MaxTokensTotal, lim.MaxTokensTotal)
		}
		out.MaxTokensTotal = *n
	}
	out.MaxCost = lim.MaxCost
	if c := req.MaxCost; c != nil {
		switch {
		case *c <= 0 || math.IsNaN(*c) || math.IsInf(*c, 0):
			return unprocessable("max_cost is %v; give dollars of more than 0, like 0.50, or leave it out", *c)
		case lim.MaxCost > 0 && *c > lim.MaxCost:
			return unprocessable("max_cost is %s, more than this host's cap of %s per debate; ask for %s or less, or leave it out (the host's owner sets the cap with roundtable host --max-cost)", prompts.Dollars(*c), prompts.Dollars(lim.MaxCost), prompts.Dollars(lim.MaxCost))
		case !lim.CostCounted && !lim.CostFree:
			return unprocessable("max_cost needs a cost to count, and this host's provider reports none; use max_tokens_total instead")
		}
		out.MaxCost = *c
	}
	out.CostCounted = lim.CostCounted
	return nil
}

// typeRefusal words a JSON value of the wrong type in the body's terms,
// naming the field and the JSON it takes (never a Go type).
func typeRefusal(e *json.UnmarshalTypeError) error {
	got := e.Value
	if got == "" {
		got = "value"
	}
	if e.Field == "" {
		return unprocessable("the body is a JSON %s, not an object; %s", got, bodyHint)
	}
	return unprocessable("the field %s is a JSON %s, not %s; give it %s", e.Field, got, jsonKind(e.Type), jsonKind(e.Type))
}

// jsonKind says what JSON a Go type takes: "an object", "a list",
// "text", "a whole number", "a number".
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "what it takes"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "text (a JSON string)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	default:
		return "what it takes"
	}
}

// serveCreate starts a debate in a new room: POST /api/sessions.
func (s *Server) serveCreate(w http.ResponseWriter, r *http.Request) {
	g, ok := grant(w, r)
	if !ok {
		return
	}
	if g.Grant != webauth.GrantStarter {
		writeError(w, http.StatusForbidden, fmt.Sprintf("this token is room %q's %s token, which watches that room but starts no debate; use the starter token the host printed at its start", g.Room, g.Grant))
		return
	}
	if s.opt.Starter == nil {
		writeError(w, http.StatusServiceUnavailable, "this host starts no debates; start one with roundtable debate in the host's folder, or restart the host with its starter token")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxCreateBody+1))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, s.tooLarge())
			return
		}
		writeError(w, http.StatusBadRequest, "the body could not be read to its end; send it again")
		return
	}
	if len(body) > maxCreateBody {
		writeError(w, http.StatusRequestEntityTooLarge, s.tooLarge())
		return
	}
	req, err := parseCreate(body, s.opt.Provider, s.opt.Limits, &s.opt.Engine)
	var bad *badRequest
	if errors.As(err, &bad) {
		writeError(w, bad.code, bad.msg)
		return
	}
	giveBack, wait := s.starts.take(g.Room + "/" + g.Grant)
	if wait > 0 {
		w.Header().Set("Retry-After", retryAfter(wait))
		writeError(w, http.StatusTooManyRequests, fmt.Sprintf("this token has used its %d debate starts a minute (the host's owner sets how many with roundtable host --starts-per-minute); retry in %s s", s.opt.Limits.withDefaults().StartsPerMinute, retryAfter(wait)))
		return
	}
	name, err := s.opt.Starter.Start(r.Context(), req)
	if err != nil {
		giveBack()
		var busy *busyError
		code := http.StatusInternalServerError
		switch {
		case errors.As(err, &busy):
			code = http.StatusTooManyRequests
			w.Header().Set("Retry-After", retryAfter(busyRetry))
		case errors.Is(err, errStopping):
			code = http.StatusServiceUnavailable
		}
		writeError(w, code, err.Error())
		return
	}
	w.Header().Set("Location", "/api/sessions/"+name)
	writeJSON(w, http.StatusCreated, created{ID: name, Stream: StreamPath(name), Page: PagePath(name)})
}

// tooLarge refuses a body over maxCreateBody.
func (s *Server) tooLarge() string {
	return fmt.Sprintf("the body is over %d bytes, the most this API reads; a topic takes at most %d characters: state the decision in a sentence or two, with fewer or shorter personas", maxCreateBody, s.opt.Engine.MaxTopic)
}

// busyRetry is the Retry-After of a start refused while MaxRunning
// debates run: a mock debate's length, a small part of a model's.
const busyRetry = 10 * time.Second
