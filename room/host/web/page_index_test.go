package web_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestBoardroomIndexIsPushed: the index's room list follows the host
// without a reload and without asking again: a room made in the host's
// folder by another program, and a debate started through the API, each
// come first as they appear; a message posted to the oldest room brings it
// back to the top. Once the list's stream is open the page sends no
// request at all: nothing polls.
func TestBoardroomIndexIsPushed(t *testing.T) {
	cwd := t.TempDir()
	older, _, err := room.Create(cwd, "older", room.CreateOptions{Topic: "An older room", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	newer, _, err := room.Create(cwd, "newer", room.CreateOptions{Topic: "A newer room", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := newer.PostMessage(room.Post{Seat: room.SeatLead, Text: "The newer room speaks."}); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 900)
	b.navigate(h.base + "/rooms/older")
	b.signIn(ctx, h.starter)
	b.navigate(h.base + "/")
	b.waitFor(ctx, "the index's list from its stream, the newer room first", `document.getElementById('rooms')?.dataset.list && document.querySelector('#rooms li')?.dataset.name === 'newer'`)
	b.mu.Lock()
	mark := len(b.requests)
	b.mu.Unlock()
	b.eval(`window.notReloaded = true`, nil)
	first := func(what, name string) {
		t.Helper()
		b.waitFor(ctx, what, `window.notReloaded && document.querySelector('#rooms li')?.dataset.name === `+jsString(name))
	}

	// Made by another program in the host's folder (the host picks it up).
	if _, _, err := room.Create(cwd, "fresh", room.CreateOptions{Topic: "Made elsewhere", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	first("the room made in the folder first", "fresh")
	// Started through the API, run to its end.
	id := h.create(`{"topic":"Pushed, not polled","rounds":1}`)
	first("the debate started through the API first", id)
	waitClosed(t, cwd, id)
	b.waitFor(ctx, "the debate shown finished", `document.querySelector('#rooms li')?.textContent.includes('finished')`)
	// A message to the oldest room moves it to the top.
	if _, _, err := older.PostMessage(room.Post{Seat: room.SeatLead, Text: "Back to the older room."}); err != nil {
		t.Fatal(err)
	}
	first("the older room first after its message", "older")
	var order []string
	b.eval(`[...document.querySelectorAll('#rooms li')].map(li => li.dataset.name)`, &order)
	if want := []string{"older", id, "fresh", "newer"}; strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("the list: %v, want %v", order, want)
	}
	b.screenshot(filepath.Join(artifacts(t), "boardroom-index-pushed.png"))

	b.mu.Lock()
	all, since := append([]string(nil), b.requests...), append([]string(nil), b.requests[mark:]...)
	b.mu.Unlock()
	for _, u := range all {
		if strings.Contains(u, "/rooms.json") {
			t.Errorf("the page polled the room list: %s", u)
		}
	}
	for _, u := range since {
		if !strings.HasSuffix(u, "/favicon.ico") {
			t.Errorf("the page sent a request once its list's stream was open: %s", u)
		}
	}
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}
