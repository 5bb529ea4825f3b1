package room

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestTokenSetAddWhileVerifying: rooms added while other goroutines verify
// tokens (run under -race) verify from the moment Add returns, and the
// tokens of the rooms there before keep verifying throughout.
func TestTokenSetAddWhileVerifying(t *testing.T) {
	cwd := t.TempDir()
	first, tf := issuedRoom(t, cwd, "first")
	ts := mustTokenSet(t, first)
	const n = 12
	rooms := make([]*Room, n)
	toks := make([]map[string]string, n)
	for i := range n {
		rooms[i], toks[i] = issuedRoom(t, cwd, fmt.Sprintf("room-%02d", i))
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad atomic.Value
	var verified atomic.Int64
	// The rooms are added once a verifier runs: on a busy machine the
	// adds could otherwise all be done before any verifier was scheduled.
	began := make(chan struct{})
	var once sync.Once
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				once.Do(func() { close(began) })
				select {
				case <-stop:
					return
				default:
				}
				if g, ok := ts.Verify(tf[GrantPeer]); !ok || g != (Grant{Room: "first", Grant: GrantPeer}) {
					bad.Store(fmt.Sprintf("first's peer token gave %+v, %v while rooms were added", g, ok))
					return
				}
				// A token of a room maybe not added yet: either nothing or
				// exactly its grant, never another room's.
				i := (k + w) % n
				if g, ok := ts.Verify(toks[i][GrantLead]); ok && g != (Grant{Room: rooms[i].cfg.Room, Grant: GrantLead}) {
					bad.Store(fmt.Sprintf("room %d's lead token gave %+v", i, g))
					return
				}
				verified.Add(1)
			}
		}()
	}
	<-began
	for i, r := range rooms {
		added, err := ts.Add(r)
		if err != nil || !added {
			t.Fatalf("Add(room %d) = %v, %v; want added", i, added, err)
		}
		for _, g := range Grants() {
			wantVerify(t, ts, toks[i][g], r.cfg.Room, g)
		}
	}
	close(stop)
	wg.Wait()
	if msg := bad.Load(); msg != nil {
		t.Fatal(msg)
	}
	if verified.Load() == 0 {
		t.Fatal("no verification ran while rooms were added")
	}
	// Adding a room again is no change; another room of its name is refused.
	if added, err := ts.Add(rooms[0]); added || err != nil {
		t.Fatalf("Add(the same room) = %v, %v; want false, nil", added, err)
	}
	other, _ := issuedRoom(t, t.TempDir(), rooms[0].cfg.Room)
	if _, err := ts.Add(other); err == nil || !strings.Contains(err.Error(), "two rooms are named") {
		t.Fatalf("Add(another room of the same name) = %v; want refused", err)
	}
}

// TestTokenSetAddBeforeTokens: a room added before its tokens exist (how
// host --all adds a new room: add, then issue) verifies them once issued;
// a room whose tokens.json cannot be used is not added.
func TestTokenSetAddBeforeTokens(t *testing.T) {
	cwd := t.TempDir()
	ts := mustTokenSet(t)
	r, _, err := Create(cwd, "late", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if added, err := ts.Add(r); !added || err != nil {
		t.Fatalf("Add = %v, %v", added, err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	wantVerify(t, ts, toks[GrantObserver], "late", GrantObserver)

	bad, _, err := Create(cwd, "broken", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	writeMode(t, bad.TokensPath(), "{not json", 0o600)
	if added, err := ts.Add(bad); added || !errors.Is(err, ErrBadTokens) {
		t.Fatalf("Add(a room with a bad tokens.json) = %v, %v; want ErrBadTokens", added, err)
	}
}

// TestAuthorizeGoneRoom: the tokens of a room deleted or renamed after the
// set read them are told the room is gone (what happened, what to do), not
// that they are wrong; a renamed room added under its new name verifies
// the same tokens there; a room whose tokens.json alone was removed is
// revoked, not gone.
func TestAuthorizeGoneRoom(t *testing.T) {
	cwd := t.TempDir()
	del, td := issuedRoom(t, cwd, "doomed")
	ren, tr := issuedRoom(t, cwd, "before")
	rev, tv := issuedRoom(t, cwd, "revoked")
	ts := mustTokenSet(t, del, ren, rev)

	if err := os.RemoveAll(del.Dir()); err != nil {
		t.Fatal(err)
	}
	_, err := ts.Authorize(td[GrantPeer])
	if !errors.Is(err, ErrRoomGone) || !strings.Contains(err.Error(), `room "doomed" was deleted or renamed`) || !strings.Contains(err.Error(), "ask the room's host") ||
		strings.Contains(err.Error(), string(filepath.Separator)+Folder) {
		t.Fatalf("token of a deleted room: %v; want ErrRoomGone saying what to do", err)
	}
	if err := ts.RoomGone("doomed"); !errors.Is(err, ErrRoomGone) {
		t.Fatalf("RoomGone(doomed) = %v", err)
	}
	if _, ok := ts.Verify(td[GrantPeer]); ok {
		t.Fatal("a deleted room's token verified")
	}

	if err := Rename(cwd, "before", "after"); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Authorize(tr[GrantLead]); !errors.Is(err, ErrRoomGone) {
		t.Fatalf("token of a renamed room before its new name is added: %v; want ErrRoomGone", err)
	}
	after, err := Open(cwd, "after")
	if err != nil {
		t.Fatal(err)
	}
	if added, err := ts.Add(after); !added || err != nil {
		t.Fatalf("Add(after) = %v, %v", added, err)
	}
	wantVerify(t, ts, tr[GrantLead], "after", GrantLead)
	if err := ts.RoomGone("before"); !errors.Is(err, ErrRoomGone) {
		t.Fatalf("RoomGone(before) = %v; want gone", err)
	}
	if err := ts.RoomGone("after"); err != nil {
		t.Fatalf("RoomGone(after) = %v; want nil", err)
	}

	if err := os.Remove(rev.TokensPath()); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Authorize(tv[GrantPeer]); !errors.Is(err, ErrNoToken) {
		t.Fatalf("token of a room whose tokens.json was removed: %v; want ErrNoToken (revoked)", err)
	}

	// A gone room made again under its name, without its old tokens, does
	// not take them back.
	if _, _, err := Create(cwd, "doomed", CreateOptions{Topic: "t"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Authorize(td[GrantPeer]); !errors.Is(err, ErrNoToken) {
		t.Fatalf("old token of a room made again: %v; want ErrNoToken", err)
	}
	if err := ts.RoomGone("doomed"); err != nil {
		t.Fatalf("RoomGone(doomed) after it was made again = %v", err)
	}
}

// TestRefreshHoldsIssuedTokens: a room added before its tokens were issued
// (as a host does) and deleted before any of them was used still has them
// told the room is gone once the set was refreshed after issuing.
func TestRefreshHoldsIssuedTokens(t *testing.T) {
	for _, refresh := range []bool{false, true} {
		ts := mustTokenSet(t)
		r, _, err := Create(t.TempDir(), "brief", CreateOptions{Topic: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.Add(r); err != nil {
			t.Fatal(err)
		}
		toks, err := r.IssueTokens()
		if err != nil {
			t.Fatal(err)
		}
		if refresh {
			ts.Refresh()
		}
		if err := os.RemoveAll(r.Dir()); err != nil {
			t.Fatal(err)
		}
		_, err = ts.Authorize(toks[GrantLead])
		if refresh && !errors.Is(err, ErrRoomGone) {
			t.Fatalf("after Refresh, a deleted room's unused token: %v; want ErrRoomGone", err)
		}
		if !refresh && !errors.Is(err, ErrNoToken) {
			t.Fatalf("without Refresh, a deleted room's never-read token: %v; want ErrNoToken", err)
		}
	}
}
