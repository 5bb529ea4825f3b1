package home

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// loaded is a home screen on cwd, sized w×h, its list read (without the
// folder watch: nothing runs in the background).
func loaded(t *testing.T, cwd string, w, h int) Model {
	t.Helper()
	m := New(Options{Cwd: cwd, Now: func() time.Time { return fixedNow }, NoWatch: true, Dark: true, Provider: "mock"})
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	msg := listCmd(m.id, cwd, m.opts.Now)()
	m, _ = m.Update(msg)
	return m
}

func msgOf(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

func TestUpdateKeys(t *testing.T) {
	cwd := sampleRooms(t)
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, m Model, last tea.Msg)
	}{
		{"enter opens the room under the cursor", []string{"down", "enter"}, func(t *testing.T, m Model, last tea.Msg) {
			open, ok := last.(OpenMsg)
			if !ok || open.Room.Name != "move-to-kubernetes-20261130-140000" {
				t.Errorf("enter sent %#v", last)
			}
		}},
		{"n asks for the debate form", []string{"n"}, func(t *testing.T, m Model, last tea.Msg) {
			if _, ok := last.(NewDebateMsg); !ok {
				t.Errorf("n sent %#v", last)
			}
		}},
		{"m asks for the room form", []string{"m"}, func(t *testing.T, m Model, last tea.Msg) {
			if _, ok := last.(NewRoomMsg); !ok {
				t.Errorf("m sent %#v", last)
			}
		}},
		{"q quits", []string{"q"}, func(t *testing.T, m Model, last tea.Msg) {
			if _, ok := last.(tea.QuitMsg); !ok {
				t.Errorf("q sent %#v", last)
			}
		}},
		{"the cursor stops at the ends", []string{"up", "G", "down", "down"}, func(t *testing.T, m Model, _ tea.Msg) {
			if m.cursor != 3 {
				t.Errorf("cursor %d, want 3", m.cursor)
			}
		}},
		{"/ filters by every word typed, q included", []string{"/", "d", "e", "b", "a", "t", "e", " ", "q", "q"}, func(t *testing.T, m Model, last tea.Msg) {
			if _, quit := last.(tea.QuitMsg); quit {
				t.Fatal("q quit while typing a filter")
			}
			if len(m.shown) != 0 {
				t.Errorf("debate q matched %d rooms", len(m.shown))
			}
			if !strings.Contains(plain(m.View()), "No room matches “debate qq”") {
				t.Errorf("no empty-filter note:\n%s", plain(m.View()))
			}
		}},
		{"a filter keeps the rooms matching name, topic or status", []string{"/", "s", "t", "o", "p", "enter"}, func(t *testing.T, m Model, _ tea.Msg) {
			if m.filtering || len(m.shown) != 1 || m.rooms[m.shown[0]].Status() != "stopped" {
				t.Errorf("filtering %v shown %v", m.filtering, m.shown)
			}
		}},
		{"typing a letter no key uses starts the filter", []string{"s", "t", "o", "p", "enter"}, func(t *testing.T, m Model, _ tea.Msg) {
			if m.filtering || m.filter.Value() != "stop" || len(m.shown) != 1 || m.rooms[m.shown[0]].Status() != "stopped" {
				t.Errorf("filtering %v value %q shown %v", m.filtering, m.filter.Value(), m.shown)
			}
		}},
		{"esc clears the filter", []string{"/", "x", "y", "z", "esc"}, func(t *testing.T, m Model, _ tea.Msg) {
			if m.filtering || m.filter.Value() != "" || len(m.shown) != 4 {
				t.Errorf("filtering %v value %q shown %d", m.filtering, m.filter.Value(), len(m.shown))
			}
		}},
		{"? shows the full help", []string{"?"}, func(t *testing.T, m Model, _ tea.Msg) {
			if !strings.Contains(plain(m.View()), "page down") {
				t.Errorf("no full help:\n%s", plain(m.View()))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := loaded(t, cwd, 120, 30)
			var last tea.Msg
			for _, k := range tt.keys {
				var cmd tea.Cmd
				m, cmd = m.Update(press(k))
				if msg := msgOf(cmd); msg != nil {
					last = msg
				}
			}
			tt.check(t, m, last)
		})
	}
}

func TestCursorFollowsRoomAcrossReloads(t *testing.T) {
	cwd := sampleRooms(t)
	m := loaded(t, cwd, 120, 30)
	m, _ = m.Update(press("down"))
	m, _ = m.Update(press("down"))
	sel, _ := m.Selected()
	writeRoom(t, cwd, fixture{name: "newest", cfg: roomCfg("A new room"), created: time.Minute})
	m, _ = m.Update(listCmd(m.id, cwd, m.opts.Now)())
	if now, _ := m.Selected(); now.Name != sel.Name {
		t.Errorf("cursor moved from %s to %s", sel.Name, now.Name)
	}
	if m.rooms[0].Name != "newest" {
		t.Errorf("the new room is not first: %s", m.rooms[0].Name)
	}
}

// TestLiveList: a room created while the screen is open shows up.
func TestLiveList(t *testing.T) {
	cwd := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := New(Options{Cwd: cwd, Now: func() time.Time { return fixedNow }, Context: ctx})
	defer m.Close()
	msgs := make(chan tea.Msg, 16)
	run := func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		go func() {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					c := c
					go func() {
						if msg := c(); msg != nil {
							msgs <- msg
						}
					}()
				}
				return
			}
			if msg != nil {
				msgs <- msg
			}
		}()
	}
	run(m.Init())
	deadline := time.After(10 * time.Second)
	created := false
	for len(m.rooms) == 0 {
		select {
		case msg := <-msgs:
			var cmd tea.Cmd
			m, cmd = m.Update(msg)
			run(cmd)
			if _, ok := msg.(roomsMsg); ok && !created {
				created = true
				writeRoom(t, cwd, fixture{name: "appeared", cfg: roomCfg("It appeared"), created: time.Minute})
			}
		case <-deadline:
			t.Fatal("the new room never showed up")
		}
	}
	if m.rooms[0].Name != "appeared" {
		t.Errorf("rooms %v", m.rooms)
	}
	cancel()
}

// press builds a key press by name.
var press = keytest.Press
