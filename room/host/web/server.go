package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

// Rooms is what the web face needs of the host that serves it.
type Rooms interface {
	// Rooms names the rooms served, sorted.
	Rooms() []string
	// Room is the room served under name.
	Room(name string) (*room.Room, bool)
	// AddRoom serves r from now on (a debate this face started).
	AddRoom(ctx context.Context, r *room.Room) (bool, error)
	// RoomsChanged returns a channel closed at the next change of Rooms()
	// after the call (the index's list follows it).
	RoomsChanged() <-chan struct{}
}

// Options configure a Server.
type Options struct {
	Host Rooms
	// Provider names the host's provider, for /health.
	Provider string
	// Heartbeat is how often an idle stream carries a comment line;
	// 0: DefaultHeartbeat.
	Heartbeat time.Duration
	// Keep is how long a room's event log is kept once its last client
	// left (one that reconnects finds it); 0: DefaultKeep.
	Keep time.Duration
	// Starter starts debates (POST /api/sessions); nil: the host starts
	// none, and says so.
	Starter *Starter
	// Limits bound the debates Starter starts (limits.go).
	Limits Limits
	// Engine is the debate engine's part: what a debate takes, and how a
	// room reads as its events (debate/webengine.New).
	Engine Engine
}

// Defaults of Options.
const (
	DefaultHeartbeat = 15 * time.Second
	DefaultKeep      = time.Minute
)

// Server is the web face of a host: seed 002's API over the host's rooms.
type Server struct {
	opt       Options
	heartbeat time.Duration
	hubs      hubs
	mux       *http.ServeMux
	starts    startLimits
	list      *roomList // the index's live room list (roomlist.go)
}

// New is the web face of opt.Host; ctx bounds the rooms it follows.
func New(ctx context.Context, opt Options) *Server {
	if opt.Engine.Follow == nil || opt.Engine.ValidatePersonas == nil || opt.Engine.RoomName == nil {
		panic("web.New: Options.Engine is not set; pass debate/webengine.New()")
	}
	if opt.Starter != nil && opt.Starter.RoomName == nil {
		opt.Starter.RoomName = opt.Engine.RoomName
	}
	s := &Server{opt: opt, heartbeat: opt.Heartbeat}
	if s.heartbeat <= 0 {
		s.heartbeat = DefaultHeartbeat
	}
	keep := opt.Keep
	if keep <= 0 {
		keep = DefaultKeep
	}
	s.hubs = hubs{m: map[string]*hub{}, keep: keep, ctx: ctx, eng: &s.opt.Engine}
	s.starts.perMin = opt.Limits.withDefaults().StartsPerMinute
	s.list = newRoomList(s, ctx, keep)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", s.serveHealth)
	mux.HandleFunc("GET /api/sessions", s.serveList)
	mux.HandleFunc("POST /api/sessions", s.serveCreate)
	mux.HandleFunc("GET /api/sessions/{id}", s.serveTranscript)
	mux.HandleFunc("GET /api/sessions/{id}/stream", s.serveStreamPath)
	s.routePages(mux)
	s.mux = mux
	return s
}

// Handle adds a handler of the web face (the pages, served beside the API).
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// writeJSON answers v with code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers {"error": msg} with code.
func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "provider": s.opt.Provider})
}

// errNoToken and the like are the refusals of who may see what.
var (
	errNoToken = errors.New("this needs a token: send Authorization: Bearer <token>, or sign in at " + webauth.LoginPath + " with the token the host printed")
	errUnknown = errors.New("unknown room")
)

// grant is the request's verified grant, or a 401 written.
func grant(w http.ResponseWriter, r *http.Request) (room.Grant, bool) {
	g, ok := webauth.GrantOf(r.Context())
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="roundtable"`)
		writeError(w, http.StatusUnauthorized, errNoToken.Error())
		return g, false
	}
	return g, true
}

// mayWatch reports whether g may watch room name: the starter every room,
// a room's token its own.
func mayWatch(g room.Grant, name string) bool {
	return g.Grant == webauth.GrantStarter || g.Room == name
}

// watchable is room id if the request may watch it; else the refusal is
// written.
func (s *Server) watchable(w http.ResponseWriter, r *http.Request, id string) (*room.Room, bool) {
	g, ok := grant(w, r)
	if !ok {
		return nil, false
	}
	if !mayWatch(g, id) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("this token is room %q's and watches that room only; ask the host for the token of room %q, or its starter token", g.Room, clipName(id)))
		return nil, false
	}
	rm, ok := s.opt.Host.Room(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("%v: the host serves no room %q; GET /api/sessions lists the rooms this token may watch", errUnknown, clipName(id)))
		return nil, false
	}
	return rm, true
}

// clipName is a room name from a URL, short enough to quote.
func clipName(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

func (s *Server) serveStreamPath(w http.ResponseWriter, r *http.Request) {
	rm, ok := s.watchable(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	s.serveStream(w, r, rm)
}

// sessionInfo is one room of GET /api/sessions.
type sessionInfo struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"` // "debate" or "mcp"
	Topic   string   `json:"topic"`
	State   string   `json:"state"` // "open" or "closed"
	Reason  string   `json:"reason,omitempty"`
	Rounds  int      `json:"rounds,omitempty"` // a debate's rounds
	Budget  int      `json:"budget,omitempty"` // an MCP room's rounds
	Round   int      `json:"round"`
	Seats   []string `json:"seats"`
	Created string   `json:"created"`
	Stream  string   `json:"stream"`
	Page    string   `json:"page"`
}

// StreamPath and PagePath are where room name's stream and page are.
func StreamPath(name string) string { return "/api/sessions/" + name + "/stream" }

// PagePath is where room name's live page is.
func PagePath(name string) string { return "/rooms/" + name }

func (s *Server) serveList(w http.ResponseWriter, r *http.Request) {
	g, ok := grant(w, r)
	if !ok {
		return
	}
	out := []sessionInfo{}
	for _, name := range s.opt.Host.Rooms() {
		if !mayWatch(g, name) {
			continue
		}
		rm, ok := s.opt.Host.Room(name)
		if !ok {
			continue
		}
		out = append(out, infoOf(rm))
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

// infoOf describes rm as the list shows it.
func infoOf(rm *room.Room) sessionInfo {
	cfg := rm.Config()
	in := sessionInfo{
		ID: cfg.Room, Kind: "mcp", Topic: cfg.Topic, State: "open", Seats: cfg.Seats(),
		Created: cfg.CreatedAt, Stream: StreamPath(cfg.Room), Page: PagePath(cfg.Room),
	}
	if cfg.IsDebate() {
		in.Kind, in.Rounds = "debate", cfg.Rounds
	} else {
		in.Budget = cfg.Budget
	}
	if st, err := rm.State(); err == nil {
		in.Round = st.Round
		if cfg.IsDebate() {
			in.Round = 0
			for _, m := range st.Messages {
				in.Round = max(in.Round, m.Round)
			}
		}
		if st.Closed != nil {
			in.State, in.Reason = "closed", st.Closed.Reason
		}
	}
	return in
}

func (s *Server) serveTranscript(w http.ResponseWriter, r *http.Request) {
	rm, ok := s.watchable(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	doc, err := transcript.Model(rm)
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("the host could not read room %q: %v; try again, or look at the room's folder on the host", rm.Config().Room, err))
		return
	}
	writeJSON(w, http.StatusOK, doc)
}

// SetHost names the host the face serves, when it could not be given to
// New (the host is built with the face as its handler).
func (s *Server) SetHost(h Rooms) { s.opt.Host = h }
