// Package page draws a room in a browser, live: the page `roundtable
// host` serves at /rooms/{name}, its index at /, and the form that takes an
// observer token. The page is the HTML transcript's markup and styles
// (room/transcript) with one column per seat, made live by one small
// script (live.js) on the room's event stream: no framework, no build
// step, nothing loaded from outside the host, and a Content-Security-Policy
// that lets the page run only its own script, talk only to its own host
// and show only its own style sheet. Agent text is sanitized exactly as in
// the HTML export: rendered and cleaned on the host (and cached, once per
// message); text still being written is drawn as Markdown by the script
// from page elements alone, never as HTML, each finished block once.
//
// The package draws; the host (room/host, with room/host/web's routes)
// decides who may see what.
package page

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the page's script and style sheet
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

//go:embed live.css
var liveCSS string

//go:embed live.js
var liveJS []byte

//go:embed index.js
var indexJS []byte

// ScriptPath is where the host serves the page's script (Script), and
// IndexScriptPath the index's (IndexScript).
const (
	ScriptPath      = "/assets/live.js"
	IndexScriptPath = "/assets/index.js"
)

// LogoutPath is where every page's sign-out button posts (a form, so it
// works without script): the host ends the browser's session there.
const LogoutPath = "/api/logout"

// maxColumns is the most columns a row holds: a debate seats at most 12
// personas, each in a column of its own, scrolled sideways past the
// screen's width (the speaker's column is brought into view).
const maxColumns = 12

// Options are the URLs a room's page uses.
type Options struct {
	// Stream is the room's event stream (text/event-stream).
	Stream string
	// Parts is where the page fetches the turns written since its last
	// (Parts answers it).
	Parts string
	// After is the stream's position at the end of what the page was
	// drawn with: the stream is opened from there (?after=), so the page
	// gets the turn in progress and what follows, nothing twice.
	After string
	// Markdown and HTML are the transcript's exports.
	Markdown, HTML string
}

// RoomPath is a room's page.
func RoomPath(name string) string { return "/rooms/" + url.PathEscape(name) }

type pageData struct {
	*transcript.Live
	Opt              Options
	Style            template.CSS
	Seq, Note        int
	Total            int // rounds of a debate, the budget of an MCP room
	ByCol            map[string][]template.HTML
	Notes, Verdict   []template.HTML
	Columns          int
	StateText, State string
	SpecHTML         template.HTML
	// Empty are an MCP room's seats nobody holds now (the stream says
	// when that changes).
	Empty map[string]bool
}

// Page writes r's live page to w, with its security headers.
func Page(w http.ResponseWriter, r *room.Room, o Options) error {
	l, err := transcript.LiveView(r)
	if err != nil {
		return err
	}
	return FromLive(w, r, l, o)
}

// FromLive is Page for a room already laid out (l, read from r).
func FromLive(w http.ResponseWriter, r *room.Room, l *transcript.Live, o Options) error {
	cfg := r.Config()
	d := pageData{Live: l, Opt: o, ByCol: map[string][]template.HTML{}, Columns: min(max(1, len(l.Seats)), maxColumns)}
	d.Seq, d.Note = l.LastSeqs()
	d.Total = cfg.Budget
	if cfg.IsDebate() {
		d.Total = cfg.Rounds
	}
	for _, p := range l.Parts {
		h := template.HTML(p.HTML) //nolint:gosec // the HTML export's own article: escaped header, bluemonday body
		switch {
		case p.Note:
			d.Notes = append(d.Notes, h)
		case p.Verdict:
			d.Verdict = append(d.Verdict, h)
		default:
			d.ByCol[p.Seat] = append(d.ByCol[p.Seat], h)
		}
	}
	if !cfg.IsDebate() && !l.Closed {
		d.Empty = map[string]bool{}
		for _, s := range l.Seats {
			d.Empty[s.Name] = !room.SeatHolder(r.Dir(), s.Name).Live
		}
	}
	d.SpecHTML = template.HTML(l.Spec) //nolint:gosec // rendered and sanitized as a message is (transcript.LiveView)
	d.StateText, d.State = "connecting…", "open"
	if l.Status != "" {
		d.StateText = l.Status
	}
	if l.Closed {
		d.StateText, d.State = "finished", "closed"
	}
	style := l.Style + liveCSS
	d.Style = template.CSS(style) //nolint:gosec // our own style sheets and palette, no room data
	var b bytes.Buffer
	if err := pageTemplate().ExecuteTemplate(&b, "room", d); err != nil {
		return fmt.Errorf("draw the page of room %s: %w", cfg.Room, err)
	}
	writeHead(w, style, http.StatusOK)
	_, err := w.Write(b.Bytes())
	return err
}

// PartsReply is what Parts answers: the parts after the page's last, and
// how the room stands.
type PartsReply struct {
	Parts  []transcript.LivePart `json:"parts"`
	Rounds string                `json:"rounds"`
	End    string                `json:"end"`
	Closed bool                  `json:"closed"`
	// Status is an MCP room's turn and budget ("peer's turn"), "" for a
	// debate, whose stream says who speaks.
	Status string `json:"status,omitempty"`
	// Spec is a closed MCP room's spec, rendered as a message is, and
	// SpecPath its path.
	Spec     string `json:"spec,omitempty"`
	SpecPath string `json:"spec_path,omitempty"`
}

// Parts writes, as JSON, r's messages after seq and notes after noteSeq,
// rendered as the HTML export renders them.
func Parts(w http.ResponseWriter, r *room.Room, seq, noteSeq int) error {
	l, err := transcript.LiveViewAfter(r, seq, noteSeq)
	if err != nil {
		return err
	}
	parts := l.Parts
	if parts == nil {
		parts = []transcript.LivePart{}
	}
	data, err := json.Marshal(PartsReply{Parts: parts, Rounds: l.Rounds, End: l.End, Closed: l.Closed, Status: l.Status, Spec: l.Spec, SpecPath: l.SpecPath})
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	_, err = w.Write(data)
	return err
}

// PartsQuery reads Parts' seq and note from a request's query; absent or
// bad numbers are 0 (everything).
func PartsQuery(q url.Values) (seq, noteSeq int) {
	seq, _ = strconv.Atoi(q.Get("seq"))
	noteSeq, _ = strconv.Atoi(q.Get("note"))
	return max(seq, 0), max(noteSeq, 0)
}

// Export writes r's transcript to save: the HTML export (html) or the
// Markdown one, as a download named after the room.
func Export(w http.ResponseWriter, r *room.Room, html bool) error {
	var b bytes.Buffer
	ext, ctype := ".md", "text/markdown; charset=utf-8"
	render := transcript.Markdown
	if html {
		ext, ctype, render = ".html", "text/html; charset=utf-8", transcript.HTML
	}
	if err := render(&b, r); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", `attachment; filename="`+r.Config().Room+ext+`"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	_, err := w.Write(b.Bytes())
	return err
}

// Script writes the page's script.
func Script(w http.ResponseWriter) { writeScript(w, liveJS) }

// IndexScript writes the index's script: the room list kept fresh, and
// the form that starts a debate.
func IndexScript(w http.ResponseWriter) { writeScript(w, indexJS) }

func writeScript(w http.ResponseWriter, js []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(js)
}

// IndexRoom is one room on the index.
type IndexRoom struct {
	Name, Topic, Mode, State string
	// Last is the room's last activity: its latest message, else its
	// creation; zero when unknown.
	Last time.Time
}

// IndexPersona is a persona the start form offers (checked).
type IndexPersona struct{ Name, Persona string }

// IndexOptions are what the index shows beside the rooms: the form that
// starts a debate, for a visitor who may (CanStart), with its limits and
// the host's default panel.
type IndexOptions struct {
	CanStart                     bool
	Rounds, MinRounds, MaxRounds int
	MaxTopic, MaxPersonas        int
	Personas                     []IndexPersona
	// Src is the room list as an event stream, which the index's script
	// follows: "rooms" events whose data is IndexListJSON, the whole list
	// at each change.
	Src string
}

// indexRow is a room as the index lists it, in the page and as JSON.
type indexRow struct {
	Name  string `json:"name"`
	Href  string `json:"href"`
	Topic string `json:"topic"`
	Mode  string `json:"mode"`
	State string `json:"state"`
	ISO   string `json:"last,omitempty"` // RFC 3339, UTC
	When  string `json:"when"`           // as the page first shows it (the script shows local time)
}

// SortRooms orders rooms by last activity, the latest first (then by
// name, so equal times keep one order).
func SortRooms(rooms []IndexRoom) {
	slices.SortStableFunc(rooms, func(a, b IndexRoom) int {
		if c := b.Last.Compare(a.Last); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

func indexRows(rooms []IndexRoom) []indexRow {
	rows := make([]indexRow, len(rooms))
	for i, r := range rooms {
		rows[i] = indexRow{Name: r.Name, Href: RoomPath(r.Name), Topic: r.Topic, Mode: r.Mode, State: r.State, When: "time unknown"}
		if !r.Last.IsZero() {
			rows[i].ISO = r.Last.UTC().Format(time.RFC3339)
			rows[i].When = r.Last.UTC().Format("2006-01-02 15:04") + " UTC"
		}
	}
	return rows
}

// Index writes the host's index page: the rooms the visitor may watch, in
// the order given (SortRooms), and the start form if o allows it.
func Index(w http.ResponseWriter, rooms []IndexRoom, o IndexOptions) {
	var b bytes.Buffer
	style := transcript.PageCSS() + liveCSS
	data := map[string]any{
		"Rooms": indexRows(rooms), "Style": template.CSS(style), //nolint:gosec // our style sheets
		"CanStart": o.CanStart, "Rounds": o.Rounds, "MinRounds": o.MinRounds, "MaxRounds": o.MaxRounds,
		"MaxTopic": o.MaxTopic, "MaxPersonas": o.MaxPersonas, "Personas": o.Personas, "Src": o.Src,
	}
	if err := pageTemplate().ExecuteTemplate(&b, "index", data); err != nil {
		http.Error(w, "roundtable: could not draw the room list: "+err.Error(), http.StatusInternalServerError)
		return
	}
	writeHead(w, style, http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

// IndexListJSON is the room list as JSON ({"rooms": [...]}), in the
// order given: what each event of the index's stream carries for its
// script.
func IndexListJSON(rooms []IndexRoom) []byte {
	data, err := json.Marshal(map[string]any{"rooms": indexRows(rooms)})
	if err != nil { // strings and times only: cannot fail
		panic(err)
	}
	return data
}

// Login writes the form that takes an observer token (status: 401 when
// the visitor has none that opens what it asked for). action is where the
// form posts; next, the page to go back to; problem, what went wrong last
// time ("" for none).
func Login(w http.ResponseWriter, status int, action, next, problem string) {
	var b bytes.Buffer
	style := transcript.PageCSS() + liveCSS
	data := map[string]any{"Action": action, "Next": next, "Problem": problem, "Style": template.CSS(style)} //nolint:gosec // our style sheets
	if err := pageTemplate().ExecuteTemplate(&b, "login", data); err != nil {
		http.Error(w, "roundtable: could not draw the sign-in form: "+err.Error(), http.StatusInternalServerError)
		return
	}
	writeHead(w, style, status)
	_, _ = w.Write(b.Bytes())
}

// writeHead sends the headers of a page whose only style sheet is style.
func writeHead(w http.ResponseWriter, style string, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", CSP(style))
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make a form post's Origin "null", refused by the host
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
}

// CSP is the pages' Content-Security-Policy: the host's own script only,
// the one inline style sheet named by its hash, requests to the host only
// (the stream, the parts), forms posted to the host only, no frames, no
// images, no fonts, no plugins.
func CSP(style string) string {
	sum := sha256.Sum256([]byte(style))
	return "default-src 'none'; script-src 'self'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; connect-src 'self'; form-action 'self'; img-src 'none'; font-src 'none'; media-src 'none';" +
		" object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; frame-ancestors 'none'"
}

var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("webpage").Parse(pageHTML))
})
