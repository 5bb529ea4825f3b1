package page

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestColumnsCarryTheSeatsOwnName: each column carries its seat's own
// name (data-key), escaped as an attribute, beside the cleaned name it
// shows, isolated; a seat whose name holds a right-to-left override
// keeps it in the key (the stream's name) and shows it made visible.
func TestColumnsCarryTheSeatsOwnName(t *testing.T) {
	personas := []string{"\u202eRTL Reviewer", `"><b>Optimist</b>`}
	r, _, err := room.Create(t.TempDir(), "keys", room.CreateOptions{Topic: "Keys", Mode: room.ModeDebate, Agents: personas, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := Page(rec, r, Options{Stream: "/s", Parts: "/p"}); err != nil {
		t.Fatal(err)
	}
	page := rec.Body.String()
	for _, want := range []string{
		`data-key="` + "\u202e" + `RTL Reviewer"`,
		`<bdi class="who s0">&lt;U&#43;202E&gt;RTL Reviewer</bdi>`,
		`data-key="&#34;&gt;&lt;b&gt;Optimist&lt;/b&gt;"`,
		`<form class="signout" method="post" action="/api/logout">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, "<b>Optimist") {
		t.Errorf("a persona's name became markup")
	}
}

// TestIndexListsRoomsByLastActivity: the latest room first, each with its
// time; the start form only for a visitor who may start; the list as
// JSON with an ETag that a request holding it gets 304 for.
func TestIndexListsRoomsByLastActivity(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	rooms := []IndexRoom{
		{Name: "alpha", Topic: "Old", Mode: "MCP room", State: "finished", Last: t0},
		{Name: "beta", Topic: "New <i>one</i>", Mode: "persona debate", State: "live", Last: t0.Add(time.Hour)},
		{Name: "gamma", Topic: "Unknown", Mode: "MCP room", State: "live"},
	}
	SortRooms(rooms)
	if got := rooms[0].Name + rooms[1].Name + rooms[2].Name; got != "betaalphagamma" {
		t.Fatalf("order %s, want beta, alpha, gamma (latest first, unknown last)", got)
	}
	for _, can := range []bool{false, true} {
		rec := httptest.NewRecorder()
		Index(rec, rooms, IndexOptions{
			CanStart: can, Rounds: 3, MinRounds: 1, MaxRounds: 10, MaxTopic: 2000, MaxPersonas: 12, Src: "/rooms.json",
			Personas: []IndexPersona{{Name: "Product Manager", Persona: `a "PM"`}},
		})
		page := rec.Body.String()
		if strings.Contains(page, `id="start"`) != can {
			t.Errorf("CanStart %v: the start form shown %v", can, !can)
		}
		if !strings.Contains(page, `<time datetime="2026-12-06T10:30:00Z">2026-12-06 10:30 UTC</time>`) {
			t.Errorf("the index does not date the rooms:\n%s", page)
		}
		if strings.Index(page, `data-name="beta"`) > strings.Index(page, `data-name="alpha"`) {
			t.Errorf("the index does not list the latest room first")
		}
		if strings.Contains(page, "<i>one</i>") || !strings.Contains(page, `action="/api/logout"`) {
			t.Errorf("a topic became markup, or the sign-out button is missing")
		}
	}
	rec := httptest.NewRecorder()
	IndexList(rec, httptest.NewRequest(http.MethodGet, "/rooms.json", nil), rooms)
	var got struct {
		Rooms []struct{ Name, Last, Href string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.Rooms) != 3 || got.Rooms[0].Name != "beta" || got.Rooms[0].Last != "2026-12-06T10:30:00Z" || got.Rooms[0].Href != "/rooms/beta" {
		t.Fatalf("the list as JSON: %v %s", err, rec.Body)
	}
	etag := rec.Header().Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/rooms.json", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	IndexList(rec, req, rooms)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Errorf("a request holding the list got %d and %d bytes, want 304 and none", rec.Code, rec.Body.Len())
	}
	rooms[2].Last = t0.Add(2 * time.Hour)
	SortRooms(rooms)
	rec = httptest.NewRecorder()
	IndexList(rec, req, rooms)
	if rec.Code != http.StatusOK || rec.Header().Get("ETag") == etag {
		t.Errorf("a changed list answered %d with the same ETag", rec.Code)
	}
}
