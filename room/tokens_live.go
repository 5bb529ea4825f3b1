package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A host started with --all serves the rooms created after it started too
// (Add), and the rooms it serves may be deleted or renamed under it. These
// are the TokenSet's parts for both.

// Errors of Authorize, matched with errors.Is.
var (
	// ErrNoToken: the token matches no room of the set (or, from a copied
	// tokens.json, more than one).
	ErrNoToken = errors.New("the token matches no room")
	// ErrRoomGone: the token matches only a room whose folder was deleted
	// or renamed after the set read its tokens.
	ErrRoomGone = errors.New("the room is gone")
)

// Add adds room r to the set, reading its tokens.json as NewTokenSet does;
// its tokens verify from then on. added is false when the set has r
// already. A room of r's name in another folder, or a tokens.json that
// cannot be used, is an error and r is not added. Safe while other
// goroutines Verify.
func (t *TokenSet) Add(r *Room) (added bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.addLocked(r)
}

func (t *TokenSet) addLocked(r *Room) (bool, error) {
	if r == nil {
		return false, nil
	}
	if t.dirs == nil {
		t.dirs = make(map[string]string)
	}
	name := r.cfg.Room
	if d, ok := t.dirs[name]; ok {
		if d == r.dir {
			return false, nil
		}
		return false, fmt.Errorf("two rooms are named %q (%s and %s): a token names its room by name, so host them from two processes", name, d, r.dir)
	}
	tr := &tokenRoom{name: name, path: r.TokensPath(), grants: r.cfg.tokenGrants()}
	tr.load()
	if tr.err != nil {
		return false, tr.err // the caller's to say, not OnProblem's
	}
	tr.set = t
	t.dirs[name] = r.dir
	t.rooms = append(t.rooms, tr)
	return true, nil
}

// RoomGone returns an error wrapping ErrRoomGone when room name of the set
// has been deleted or renamed since its tokens were read, else nil.
func (t *TokenSet) RoomGone(name string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range t.rooms {
		if tr.name != name {
			continue
		}
		if tr.stale() {
			tr.load()
		}
		if tr.gone {
			return tr.goneErr()
		}
		return nil
	}
	return nil
}

// keepGone is load's case of a tokens.json that vanished with its room's
// room.json: the room was deleted or renamed, not its tokens revoked (a
// removed tokens.json in a room that is still there). The hashes read
// before are kept and the room marked gone; it reports whether it did.
func (tr *tokenRoom) keepGone(sig fileSig, err error) bool {
	if err != nil || sig.exists || (len(tr.hashes) == 0 && !tr.gone) {
		tr.gone = false
		return false
	}
	_, serr := os.Lstat(filepath.Join(filepath.Dir(tr.path), "room.json"))
	tr.gone = errors.Is(serr, fs.ErrNotExist)
	return tr.gone
}

// goneErr says that the room is gone and what to do.
func (tr *tokenRoom) goneErr() error {
	// It goes to remote clients: it names the room, not the host's folder.
	return fmt.Errorf("%w: room %q was deleted or renamed while this host served it (its folder is gone); if it was renamed and its host serves the new name (host --all does so by itself), start a new session with the same token, else ask the room's host for a token of a room that exists",
		ErrRoomGone, tr.name)
}

// splitGone counts the matches of rooms still there and of gone rooms,
// and returns the first of each.
func splitGone(rooms []*tokenRoom, ms []match) (live match, nLive int, gone match, nGone int) {
	for _, m := range ms {
		if rooms[m.room].gone {
			if nGone == 0 {
				gone = m
			}
			nGone++
		} else {
			if nLive == 0 {
				live = m
			}
			nLive++
		}
	}
	return live, nLive, gone, nGone
}

// Refresh reads again the tokens.json of every room whose file may have
// changed since it was read, as Verify does when a token matches nothing.
// A host calls it once it has issued tokens, so that the hashes are held
// before a room can be deleted or renamed: its tokens are then told the
// room is gone (Authorize) even if none was used before.
func (t *TokenSet) Refresh() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range t.rooms {
		if tr.stale() {
			tr.load()
		}
	}
}
