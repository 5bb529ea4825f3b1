package home

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
)

// listCmd reads the list of rooms.
func listCmd(id int64, cwd string, now func() time.Time) tea.Cmd {
	return func() tea.Msg {
		rooms, err := List(cwd)
		return roomsMsg{id: id, rooms: rooms, err: err, at: now()}
	}
}

// waitChangeCmd waits for ch to close (a change under .roundtable), lets
// the burst settle, and asks for the list again.
func waitChangeCmd(ctx context.Context, id int64, ch <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ch:
		case <-ctx.Done():
			return nil
		}
		t := time.NewTimer(debounce)
		defer t.Stop()
		select {
		case <-t.C:
			return changedMsg{id: id}
		case <-ctx.Done():
			return nil
		}
	}
}
