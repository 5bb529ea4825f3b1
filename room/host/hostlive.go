package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// A host started with `roundtable host --all` serves the rooms created
// under its folder after it started too: AddRoom adds one while the host
// serves. An added room is served exactly as the rooms given to NewHost:
// its tokens verify (TokenSet.Add), its sessions share one service (the
// room and its notifier) and get the same seats, observers, limits and
// graceful stop.

// ErrHostStopping is AddRoom's error once Shutdown has begun.
var ErrHostStopping = errors.New("the host is stopping")

// AddRoom serves room r from now on; ctx bounds its notifier, as NewHost's
// ctx bounds the others'. added is false when the host serves a room of
// r's name already. An error (r's tokens.json cannot be used, another
// room of its name, the host stopping) leaves r unserved. Safe while the
// host serves.
func (h *Host) AddRoom(ctx context.Context, r *room.Room) (added bool, err error) {
	name := r.Config().Room
	h.mu.Lock()
	_, have := h.services[name]
	h.mu.Unlock()
	if have {
		return false, nil
	}
	if h.stopping() {
		return false, fmt.Errorf("serve room %q: %w", name, ErrHostStopping)
	}
	if _, err := h.opt.Tokens.Add(r); err != nil {
		return false, err
	}
	n := room.Watch(ctx, r)
	h.mu.Lock()
	defer h.mu.Unlock()
	// Shutdown closes h.stop before it takes the services (under mu), so
	// a room added here either is among them or is refused.
	if h.stopping() {
		n.Close()
		return false, fmt.Errorf("serve room %q: %w", name, ErrHostStopping)
	}
	if _, have := h.services[name]; have {
		n.Close()
		return false, nil
	}
	h.services[name] = &service{room: r, notifier: n}
	close(h.roomsChanged) // the web face's room list learns of it
	h.roomsChanged = make(chan struct{})
	return true, nil
}

// RoomsChanged is a channel closed when the next room is added (AddRoom),
// for the web face's room list.
func (h *Host) RoomsChanged() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.roomsChanged
}

// Serves reports whether the host serves room name.
func (h *Host) Serves(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.services[name] != nil
}

func (h *Host) stopping() bool {
	select {
	case <-h.stop:
		return true
	default:
		return false
	}
}

// stopServices returns every service, for Shutdown to close their
// notifiers; it is called after h.stop is closed.
func (h *Host) stopServices() []*service {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*service, 0, len(h.services))
	for _, svc := range h.services {
		out = append(out, svc)
	}
	return out
}

// roomGone answers a request for a room deleted or renamed while the host
// served it, with what happened and what to do: a JSON-RPC request (a
// POST) gets a JSON-RPC error holding the sentence, which clients show to
// the agent (most show only the status of an HTTP error); anything else
// gets 410 Gone with the sentence as its body.
func roomGone(w http.ResponseWriter, r *http.Request, err error) {
	msg := strings.TrimPrefix(err.Error(), room.ErrRoomGone.Error()+": ")
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body) // at most MaxBody (serveMCP bounds it)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) == nil && len(req.ID) > 0 && string(req.ID) != "null" && req.Method != "" {
			reply, _ := json.Marshal(map[string]any{
				"jsonrpc": "2.0", "id": req.ID,
				"error": map[string]any{"code": codeRoomGone, "message": msg},
			})
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(reply)
			return
		}
	}
	httpError(w, http.StatusGone, msg)
}

// codeRoomGone is the JSON-RPC error code of a request for a gone room,
// in the range JSON-RPC leaves to servers.
const codeRoomGone = -32010

// Room is the room name the host serves; ok is false when it serves none
// of that name.
func (h *Host) Room(name string) (r *room.Room, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if svc := h.services[name]; svc != nil {
		return svc.room, true
	}
	return nil, false
}
