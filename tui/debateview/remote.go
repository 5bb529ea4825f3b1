package debateview

import (
	"context"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// A debate a host serves on another machine (roundtable watch --url) is
// shown from a local mirror of its room, which the remote watch keeps
// written as the host's snapshots arrive: the same columns, drafts
// streaming and verdict as on the machine that runs it (applyRoom). What
// differs: no run of it is here, so its run lock is not read (the header
// says where it runs instead); the link's state (lost, reconnected) shows
// in the status line; and nothing is written to the room: no r, R or i.

// RemoteLink is a mirror's link to the host serving its room, as the
// screen needs it (watch.RemoteLink is one).
type RemoteLink interface {
	// Label names the host (host:port).
	Label() string
	// Wake receives once after each new status.
	Wake() <-chan struct{}
	// Status is the latest status; ok is false for trouble.
	Status() (status string, ok bool)
}

// OpenRemote is OpenRoom for r, the local mirror of a debate room a host
// serves, followed through link: the screen built from it (NewFromRoom,
// with no rerun) says the debate runs on link's host, shows the link's
// state and is read-only. It reads from disk: call it in a tea.Cmd or
// before the program starts.
func OpenRemote(ctx context.Context, r *room.Room, link RemoteLink) (RoomFeed, error) {
	return openRoom(ctx, r, link)
}

// linkStatus is a status of the link, read when it woke the feed.
type linkStatus struct {
	text string
	ok   bool
}

func newLinkStatus(l RemoteLink) *linkStatus {
	text, ok := l.Status()
	return &linkStatus{text: text, ok: ok}
}

// remote reports a screen on a mirror of a room a host serves.
func (m *Model) remote() bool { return m.feed != nil && m.feed.link != nil }

// whereLabel ends the header's state while the debate runs elsewhere:
// in another process here, or on the host a mirror follows.
func (m *Model) whereLabel() string {
	if m.remote() {
		return " · on " + mdrender.Inline(m.feed.link.Label())
	}
	return " · in another process"
}

// setRemoteStatus says that the debate runs on the host and this screen
// only watches it.
func (m *Model) setRemoteStatus() {
	m.setStatus("Watching room " + m.roomName() + " on " + mdrender.Inline(m.feed.link.Label()) +
		", read-only: the debate runs there and streams here as it goes. q quits; the debate goes on.")
}

// showLink puts a new status of the link in the status line: trouble as
// an error, a link back up saying the stream goes on.
func (m *Model) showLink(ls *linkStatus) {
	if ls == nil || ls.text == "" {
		return
	}
	if !ls.ok {
		m.setError(mdrender.Inline(ls.text))
		return
	}
	m.setStatus(mdrender.Inline(ls.text) + ". The debate streams here again as it goes.")
}
