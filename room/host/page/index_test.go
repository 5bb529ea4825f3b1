package page

import (
	"encoding/json"
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
// time; the start form only for a visitor who may start, its button
// disabled until the script takes the form; the list as
// JSON, in the same order, each room with its time (none when unknown).
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
			CanStart: can, Rounds: 3, MinRounds: 1, MaxRounds: 10, MaxTopic: 2000, MaxPersonas: 12, Src: "/rooms.events",
			Personas: []IndexPersona{{Name: "Product Manager", Persona: `a "PM"`}},
		})
		page := rec.Body.String()
		if strings.Contains(page, `id="start"`) != can {
			t.Errorf("CanStart %v: the start form shown %v", can, !can)
		}
		// Clicked before index.js has taken the form, the button would
		// submit a plain GET that reloads the page and loses the text:
		// it comes disabled, and the script enables it.
		if can && !strings.Contains(page, `id="start-debate" class="primary" disabled>`) {
			t.Errorf("the start button is not disabled until the script takes the form")
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
	var got struct {
		Rooms []struct{ Name, Last, Href string }
	}
	if err := json.Unmarshal(IndexListJSON(rooms), &got); err != nil || len(got.Rooms) != 3 || got.Rooms[0].Name != "beta" || got.Rooms[0].Last != "2026-12-06T10:30:00Z" || got.Rooms[0].Href != "/rooms/beta" || got.Rooms[2].Last != "" {
		t.Fatalf("the list as JSON: %v %s", err, IndexListJSON(rooms))
	}
}
