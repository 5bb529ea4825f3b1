package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/page"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

// The pages: the index of the rooms a visitor may watch (/), latest
// activity first, kept live by an event stream its script follows
// (/rooms.events, roomlist.go), and the start form for the starter token; each room's live page
// (/rooms/{id}) with the parts it fetches as they land and the
// transcript's exports; and the pages' scripts. A visitor without a
// token gets the form that takes one (posted to the host's LoginPath,
// kept in a cookie); the API's refusals are JSON, the pages' are pages.
func (s *Server) routePages(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.HandleFunc("GET "+indexStreamPath, s.serveIndexStream)
	mux.HandleFunc("GET /rooms/{id}", s.servePage)
	mux.HandleFunc("GET /rooms/{id}/parts", s.serveParts)
	mux.HandleFunc("GET /rooms/{id}/transcript.md", s.serveExport(false))
	mux.HandleFunc("GET /rooms/{id}/transcript.html", s.serveExport(true))
	mux.HandleFunc("GET "+page.ScriptPath, func(w http.ResponseWriter, _ *http.Request) { page.Script(w) })
	mux.HandleFunc("GET "+page.IndexScriptPath, func(w http.ResponseWriter, _ *http.Request) { page.IndexScript(w) })
}

// pageGrant is the visitor's grant for the page of room id ("" for the
// index), or the sign-in form written in its stead.
func pageGrant(w http.ResponseWriter, r *http.Request, id string) (room.Grant, bool) {
	g, ok := webauth.GrantOf(r.Context())
	if !ok {
		page.Login(w, http.StatusUnauthorized, webauth.LoginPath, r.URL.Path, "")
		return g, false
	}
	if id != "" && !mayWatch(g, id) {
		page.Login(w, http.StatusForbidden, webauth.LoginPath, r.URL.Path,
			fmt.Sprintf("The token you signed in with opens room %q only. Paste the observer token of room %q, or the host's starter token.", g.Room, clipName(id)))
		return g, false
	}
	return g, true
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	g, ok := pageGrant(w, r, "")
	if !ok {
		return
	}
	o := page.IndexOptions{
		CanStart: g.Grant == webauth.GrantStarter && s.opt.Starter != nil,
		Rounds:   s.opt.Engine.DefaultRounds, MinRounds: s.opt.Engine.MinRounds, MaxRounds: s.opt.Engine.MaxRounds,
		MaxTopic: room.MaxTopicBytes, MaxPersonas: s.opt.Engine.MaxPersonas, Src: indexStreamPath,
	}
	if o.CanStart {
		for _, p := range s.opt.Engine.DefaultPersonas {
			o.Personas = append(o.Personas, page.IndexPersona{Name: p.Name, Persona: p.Persona})
		}
	}
	page.Index(w, s.indexRooms(g), o)
}

// indexRooms are the rooms g may watch, the latest activity first.
func (s *Server) indexRooms(g room.Grant) []page.IndexRoom {
	var rooms []page.IndexRoom
	for _, name := range s.opt.Host.Rooms() {
		if !mayWatch(g, name) {
			continue
		}
		rm, ok := s.opt.Host.Room(name)
		if !ok {
			continue
		}
		st, _ := rm.State() // a room that cannot be read is listed by its room.json
		rooms = append(rooms, indexRow(rm.Config(), st))
	}
	page.SortRooms(rooms)
	return rooms
}

// pageRoom is room id for a page request, or the refusal written.
func (s *Server) pageRoom(w http.ResponseWriter, r *http.Request) (*room.Room, bool) {
	id := r.PathValue("id")
	if _, ok := pageGrant(w, r, id); !ok {
		return nil, false
	}
	rm, ok := s.opt.Host.Room(id)
	if !ok {
		http.Error(w, fmt.Sprintf("roundtable: this host serves no room %q; the rooms your token opens are listed at /", clipName(id)), http.StatusNotFound)
		return nil, false
	}
	return rm, true
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	rm, ok := s.pageRoom(w, r)
	if !ok {
		return
	}
	name := rm.Config().Room
	l, err := transcript.LiveView(rm)
	if err != nil {
		http.Error(w, fmt.Sprintf("roundtable: the host could not read room %q: %v; try again, or look at the room's folder on the host", name, err), http.StatusInternalServerError)
		return
	}
	turns := 0
	for _, p := range l.Parts {
		if !p.Note {
			turns++
		}
	}
	o := page.Options{
		Stream: StreamPath(name), Parts: PagePath(name) + "/parts", After: s.afterTurns(r.Context(), rm, turns),
		Markdown: PagePath(name) + "/transcript.md", HTML: PagePath(name) + "/transcript.html",
	}
	if err := page.FromLive(w, rm, l, o); err != nil {
		http.Error(w, "roundtable: "+err.Error(), http.StatusInternalServerError)
	}
}

// pageCatchUp bounds how long a page waits for the room's stream to reach
// the turns the page was drawn with; past it the page's stream starts at
// the beginning (the page then skips what it has).
const pageCatchUp = 2 * time.Second

// afterTurns is the stream position just after the turns-th finished turn
// (or verdict) of rm: where a page drawn with that many turns picks the
// stream up, so it gets the turn in progress from its first word and
// nothing twice. "" (the start) when it has none or the stream does not
// get there in time.
func (s *Server) afterTurns(ctx context.Context, rm *room.Room, turns int) string {
	if turns == 0 {
		return ""
	}
	h := s.hubs.acquire(rm)
	defer s.hubs.release(rm.Config().Room, h)
	limit := time.NewTimer(pageCatchUp)
	defer limit.Stop()
	seen := 0
	for i := 0; ; {
		evs, wake, ended := h.look(i)
		i += len(evs)
		for k := range evs {
			if evs[k].name == evTurnEnd || evs[k].name == evSummary {
				if seen++; seen == turns {
					return evs[k].id
				}
			}
		}
		if ended {
			return ""
		}
		select {
		case <-wake:
		case <-limit.C:
			return ""
		case <-ctx.Done():
			return ""
		}
	}
}

func (s *Server) serveParts(w http.ResponseWriter, r *http.Request) {
	rm, ok := s.watchable(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	seq, note := page.PartsQuery(r.URL.Query())
	if err := page.Parts(w, rm, seq, note); err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("the host could not read room %q: %v; reload the page", rm.Config().Room, err))
	}
}

// serveExport answers the transcript as the HTML export (html) or as
// Markdown, to save.
func (s *Server) serveExport(html bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rm, ok := s.pageRoom(w, r)
		if !ok {
			return
		}
		if err := page.Export(w, rm, html); err != nil {
			http.Error(w, fmt.Sprintf("roundtable: the host could not export room %q: %v", rm.Config().Room, err), http.StatusInternalServerError)
		}
	}
}
