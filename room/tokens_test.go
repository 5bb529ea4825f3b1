package room

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// issuedRoom makes room name under cwd and issues its tokens.
func issuedRoom(t *testing.T, cwd, name string) (*Room, map[string]string) {
	t.Helper()
	r, _, err := Create(cwd, name, CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	return r, toks
}

func mustTokenSet(t *testing.T, rooms ...*Room) *TokenSet {
	t.Helper()
	ts, err := NewTokenSet(rooms)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// wantVerify checks that token gives exactly room's grant, or nothing when
// grant is "".
func wantVerify(t *testing.T, ts *TokenSet, token, room, grant string) {
	t.Helper()
	g, ok := ts.Verify(token)
	if grant == "" {
		if ok {
			t.Fatalf("token %.8s… verified as %+v; want refused", token, g)
		}
		return
	}
	if !ok || g != (Grant{Room: room, Grant: grant}) {
		t.Fatalf("token %.8s… gave %+v, %v; want %s/%s", token, g, ok, room, grant)
	}
}

func TestIssueTokensShapeAndOnce(t *testing.T) {
	r, toks := issuedRoom(t, t.TempDir(), "alpha")
	if len(toks) != 3 {
		t.Fatalf("first issue gave %d tokens, want 3: %v", len(toks), toks)
	}
	seen := map[string]bool{}
	for _, g := range Grants() {
		tok := toks[g]
		if !strings.HasPrefix(tok, TokenPrefix) || !tokenShape(tok) {
			t.Fatalf("%s token %q is not rt_ + base64url", g, tok)
		}
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(tok, TokenPrefix))
		if err != nil || len(raw) < 16 {
			t.Fatalf("%s token carries %d random bytes (%v); want ≥ 16", g, len(raw), err)
		}
		if seen[tok] {
			t.Fatalf("two grants got the same token")
		}
		seen[tok] = true
	}
	again, err := r.IssueTokens()
	if err != nil || len(again) != 0 {
		t.Fatalf("second issue gave %v, %v; want no token (all grants have one)", again, err)
	}
	ts := mustTokenSet(t, r)
	for g, tok := range toks {
		wantVerify(t, ts, tok, "alpha", g)
	}
}

func TestTokenVerifiesOnlyForItsRoomAndGrant(t *testing.T) {
	cwd := t.TempDir()
	a, ta := issuedRoom(t, cwd, "alpha")
	b, tb := issuedRoom(t, cwd, "beta")
	both := mustTokenSet(t, a, b)
	onlyA := mustTokenSet(t, a)
	for _, g := range Grants() {
		wantVerify(t, both, ta[g], "alpha", g)
		wantVerify(t, both, tb[g], "beta", g)
		wantVerify(t, onlyA, ta[g], "alpha", g)
		wantVerify(t, onlyA, tb[g], "", "") // another room's token
	}
	tok := ta[GrantPeer]
	sum := sha256.Sum256([]byte(tok))
	last := tok[len(tok)-1]
	flip := byte('A')
	if last == 'A' {
		flip = 'B'
	}
	for name, bad := range map[string]string{
		"empty":           "",
		"one char off":    tok[:len(tok)-1] + string(flip),
		"cut":             tok[:len(tok)-1],
		"longer":          tok + "A",
		"no prefix":       strings.TrimPrefix(tok, TokenPrefix),
		"stored hash":     hex.EncodeToString(sum[:]),
		"upper case":      strings.ToUpper(tok),
		"bearer included": "Bearer " + tok,
		"padded":          " " + tok,
	} {
		if g, ok := both.Verify(bad); ok {
			t.Errorf("%s: %q verified as %+v", name, bad, g)
		}
	}
}

func TestTokensAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		tok, err := newToken()
		if err != nil {
			t.Fatal(err)
		}
		if seen[tok] || !tokenShape(tok) {
			t.Fatalf("token %q repeated or malformed", tok)
		}
		seen[tok] = true
	}
}

func TestRotatedTokenStopsVerifying(t *testing.T) {
	cwd := t.TempDir()
	r, toks := issuedRoom(t, cwd, "alpha")
	ts := mustTokenSet(t, r) // a running host
	wantVerify(t, ts, toks[GrantPeer], "alpha", GrantPeer)

	// The rotation comes through another Room, as from another process.
	other, err := Open(cwd, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	p1, err := other.RotateToken(GrantPeer)
	if err != nil {
		t.Fatal(err)
	}
	wantVerify(t, ts, toks[GrantPeer], "", "")
	wantVerify(t, ts, p1, "alpha", GrantPeer)
	wantVerify(t, ts, toks[GrantLead], "alpha", GrantLead)
	wantVerify(t, ts, toks[GrantObserver], "alpha", GrantObserver)

	// Two rotations in a row, within one clock tick of the file system:
	// neither earlier token may survive, whatever inode the file gets.
	p2, err := other.RotateToken(GrantPeer)
	if err != nil {
		t.Fatal(err)
	}
	p3, err := other.RotateToken(GrantPeer)
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{toks[GrantPeer], p1, p2} {
		wantVerify(t, ts, old, "", "")
	}
	wantVerify(t, ts, p3, "alpha", GrantPeer)

	// A rotation issued before the host read the file is seen too, and
	// IssueTokens leaves a rotated grant alone.
	if fresh, err := r.IssueTokens(); err != nil || len(fresh) != 0 {
		t.Fatalf("IssueTokens after a rotation gave %v, %v", fresh, err)
	}
	wantVerify(t, mustTokenSet(t, r), p3, "alpha", GrantPeer)

	if _, err := r.RotateToken("admin"); !errors.Is(err, ErrBadGrant) {
		t.Fatalf("rotating grant admin: %v; want ErrBadGrant", err)
	}
}

// TestRotatedTokenStopsVerifyingAfterTheCacheSettles: once tokens.json is
// older than racyWindow, Verify trusts its size, time and inode; a rotation
// then must still be seen.
func TestRotatedTokenStopsVerifyingAfterTheCacheSettles(t *testing.T) {
	cwd := t.TempDir()
	r, toks := issuedRoom(t, cwd, "alpha")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(r.TokensPath(), old, old); err != nil {
		t.Fatal(err)
	}
	ts := mustTokenSet(t, r)
	if ts.rooms[0].recent {
		t.Fatal("a file an hour old is taken as just changed")
	}
	wantVerify(t, ts, toks[GrantLead], "alpha", GrantLead)
	lead, err := r.RotateToken(GrantLead)
	if err != nil {
		t.Fatal(err)
	}
	wantVerify(t, ts, toks[GrantLead], "", "")
	wantVerify(t, ts, lead, "alpha", GrantLead)
}

// rotateHelperEnv makes TestRotateFromAnotherProcess run as the helper
// process: rotate the peer's token of the room it names and print it.
const rotateHelperEnv = "ROOM_ROTATE_HELPER"

func TestRotateFromAnotherProcess(t *testing.T) {
	if dir := os.Getenv(rotateHelperEnv); dir != "" {
		r, err := Open(filepath.Dir(filepath.Dir(dir)), filepath.Base(dir))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := r.RotateToken(GrantPeer)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("TOKEN=" + tok)
		return
	}
	r, toks := issuedRoom(t, t.TempDir(), "alpha")
	ts := mustTokenSet(t, r)
	wantVerify(t, ts, toks[GrantPeer], "alpha", GrantPeer)
	cmd := exec.Command(os.Args[0], "-test.run=^TestRotateFromAnotherProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), rotateHelperEnv+"="+r.Dir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	_, after, ok := strings.Cut(string(out), "TOKEN=")
	if !ok {
		t.Fatalf("helper printed no token:\n%s", out)
	}
	fresh := strings.Fields(after)[0]
	wantVerify(t, ts, toks[GrantPeer], "", "")
	wantVerify(t, ts, fresh, "alpha", GrantPeer)
}

// TestVerifyWhileRotating races verifiers against rotations (go test
// -race): no race, no torn read, and once the rotations end only the last
// token verifies.
func TestVerifyWhileRotating(t *testing.T) {
	cwd := t.TempDir()
	r, toks := issuedRoom(t, cwd, "alpha")
	ts := mustTokenSet(t, r)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				// The lead's token is never rotated: it must always verify.
				if g, ok := ts.Verify(toks[GrantLead]); !ok || g.Grant != GrantLead {
					t.Errorf("the lead's token failed during a peer rotation: %+v %v", g, ok)
					return
				}
				ts.Verify(toks[GrantPeer])
			}
		})
	}
	var last string
	for range 50 {
		tok, err := r.RotateToken(GrantPeer)
		if err != nil {
			t.Error(err)
			break
		}
		last = tok
	}
	close(stop)
	wg.Wait()
	wantVerify(t, ts, toks[GrantPeer], "", "")
	wantVerify(t, ts, last, "alpha", GrantPeer)
}

func TestTokensFileHoldsOnlyHashes(t *testing.T) {
	r, toks := issuedRoom(t, t.TempDir(), "alpha")
	rotated, err := r.RotateToken(GrantObserver)
	if err != nil {
		t.Fatal(err)
	}
	toks["rotated"] = rotated
	data, err := os.ReadFile(r.TokensPath())
	if err != nil {
		t.Fatal(err)
	}
	for g, tok := range toks {
		body := strings.TrimPrefix(tok, TokenPrefix)
		if bytes.Contains(data, []byte(body)) || bytes.Contains(data, []byte(body[:16])) {
			t.Fatalf("tokens.json holds (part of) the %s token:\n%s", g, data)
		}
	}
	var doc struct {
		Tokens []map[string]string `json:"tokens"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("tokens.json is not JSON: %v\n%s", err, data)
	}
	want := map[string]string{GrantLead: toks[GrantLead], GrantPeer: toks[GrantPeer], GrantObserver: rotated}
	if len(doc.Tokens) != 3 {
		t.Fatalf("tokens.json has %d entries, want 3:\n%s", len(doc.Tokens), data)
	}
	for i, e := range doc.Tokens {
		if e["grant"] != Grants()[i] {
			t.Fatalf("entry %d is %q, want grants in order lead, peer, observer", i, e["grant"])
		}
		sum := sha256.Sum256([]byte(want[e["grant"]]))
		if e["sha256"] != hex.EncodeToString(sum[:]) {
			t.Fatalf("the %s entry's sha256 is not the SHA-256 of its token", e["grant"])
		}
		if _, err := time.Parse(time.RFC3339, e["created"]); err != nil {
			t.Fatalf("the %s entry's created %q is not RFC 3339: %v", e["grant"], e["created"], err)
		}
		if len(e) != 3 {
			t.Fatalf("the %s entry has fields %v; want grant, sha256, created only", e["grant"], e)
		}
	}
	fi, err := os.Lstat(r.TokensPath())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("tokens.json has mode %04o, want 0600", fi.Mode().Perm())
	}
	entries, err := os.ReadDir(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Fatalf("a temporary file is left behind: %s", e.Name())
		}
	}
}

// validEntry is a well-formed tokens.json entry for the tampering cases.
const validEntry = `{"grant":"lead","sha256":"` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `","created":"2026-12-01T10:00:00.000Z"}`

func TestTamperedTokensFileIsAClearError(t *testing.T) {
	cases := map[string]struct {
		body string
		prep func(t *testing.T, path string) // instead of writing body
		want string
	}{
		"garbage":        {body: "\x00\xff{not json", want: "is not valid tokens JSON"},
		"empty":          {body: "", want: "is empty"},
		"null":           {body: "null", want: `has no "tokens" list`},
		"array":          {body: "[]", want: "is not valid tokens JSON"},
		"tokens a map":   {body: `{"tokens":{}}`, want: "is not valid tokens JSON"},
		"unknown grant":  {body: `{"tokens":[{"grant":"admin","sha256":"` + strings.Repeat("ab", 32) + `"}]}`, want: `grant "admin"`},
		"short hash":     {body: `{"tokens":[{"grant":"peer","sha256":"abcd"}]}`, want: "no valid sha256"},
		"not hex":        {body: `{"tokens":[{"grant":"peer","sha256":"` + strings.Repeat("zz", 32) + `"}]}`, want: "no valid sha256"},
		"plain token":    {body: `{"tokens":[{"grant":"peer","token":"rt_x"}]}`, want: "no valid sha256"},
		"two leads":      {body: `{"tokens":[` + validEntry + `,` + validEntry + `]}`, want: "two entries for the lead grant"},
		"too large":      {body: `{"tokens":[],"pad":"` + strings.Repeat("x", maxTokensFile) + `"}`, want: "larger than 64 KiB"},
		"truncated":      {body: `{"tokens":[` + validEntry[:40], want: "is not valid tokens JSON"},
		"a folder":       {prep: func(t *testing.T, p string) { mustMkdir(t, p) }, want: "not a regular file"},
		"symbolic link":  {prep: func(t *testing.T, p string) { mustSymlink(t, filepath.Join(filepath.Dir(p), "room.json"), p) }, want: "symbolic link"},
		"world writable": {prep: func(t *testing.T, p string) { writeMode(t, p, `{"tokens":[`+validEntry+`]}`, 0o666) }, want: "can be written by other users"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if runtime.GOOS == "windows" && (name == "symbolic link" || name == "world writable") {
				return // no symlinks without privileges, no group bits
			}
			cwd := t.TempDir()
			r, _, err := Create(cwd, "alpha", CreateOptions{Topic: "t"})
			if err != nil {
				t.Fatal(err)
			}
			p := r.TokensPath()
			if c.prep != nil {
				c.prep(t, p)
			} else {
				writeMode(t, p, c.body, 0o600)
			}
			before := snapshotPath(t, p)
			checkErr := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, ErrBadTokens) || !strings.Contains(err.Error(), c.want) ||
					!strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "remove it to revoke") && !strings.Contains(err.Error(), "to fix it: chmod go-w") {
					t.Fatalf("%s: %v; want an ErrBadTokens naming %s, saying %q and what to do", what, err, p, c.want)
				}
			}
			_, err = NewTokenSet([]*Room{r})
			checkErr("NewTokenSet", err)
			_, err = r.IssueTokens()
			checkErr("IssueTokens", err)
			_, err = r.RotateToken(GrantPeer)
			checkErr("RotateToken", err)
			if after := snapshotPath(t, p); after != before {
				t.Fatalf("a refused tokens.json was changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestTamperingInARunningHostFailsClosed: a running set whose file turns
// bad refuses every token of that room (and only that room), says why in
// Problems, and takes new tokens once the file is replaced.
func TestTamperingInARunningHostFailsClosed(t *testing.T) {
	cwd := t.TempDir()
	a, ta := issuedRoom(t, cwd, "alpha")
	b, tb := issuedRoom(t, cwd, "beta")
	ts := mustTokenSet(t, a, b)
	wantVerify(t, ts, ta[GrantLead], "alpha", GrantLead)
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems with good files: %v", p)
	}
	writeMode(t, a.TokensPath(), `{"tokens":[{"grant":"lead","sha256":"nope"}]}`, 0o600)
	wantVerify(t, ts, ta[GrantLead], "", "")
	wantVerify(t, ts, tb[GrantLead], "beta", GrantLead)
	if p := ts.Problems(); len(p) != 1 || !errors.Is(p[0], ErrBadTokens) || !strings.Contains(p[0].Error(), "alpha") {
		t.Fatalf("Problems = %v; want one ErrBadTokens for alpha", p)
	}
	if err := os.Remove(a.TokensPath()); err != nil {
		t.Fatal(err)
	}
	fresh, err := a.IssueTokens()
	if err != nil || len(fresh) != 3 {
		t.Fatalf("IssueTokens after removal: %v, %v", fresh, err)
	}
	wantVerify(t, ts, ta[GrantLead], "", "")
	wantVerify(t, ts, fresh[GrantLead], "alpha", GrantLead)
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("problems after the fix: %v", p)
	}
}

// TestRemovedTokensFileRevokesAll: removing tokens.json revokes every
// token of the room at once.
func TestRemovedTokensFileRevokesAll(t *testing.T) {
	r, toks := issuedRoom(t, t.TempDir(), "alpha")
	ts := mustTokenSet(t, r)
	wantVerify(t, ts, toks[GrantObserver], "alpha", GrantObserver)
	if err := os.Remove(r.TokensPath()); err != nil {
		t.Fatal(err)
	}
	for _, tok := range toks {
		wantVerify(t, ts, tok, "", "")
	}
	if p := ts.Problems(); len(p) != 0 {
		t.Fatalf("a removed file is no problem, got %v", p)
	}
}

// TestCopiedTokensFileVerifiesNothing: the same hash in two rooms (a
// tokens.json copied from one room to another) makes the token ambiguous,
// so it gives no room at all.
func TestCopiedTokensFileVerifiesNothing(t *testing.T) {
	cwd := t.TempDir()
	a, ta := issuedRoom(t, cwd, "alpha")
	b, _, err := Create(cwd, "beta", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(a.TokensPath())
	if err != nil {
		t.Fatal(err)
	}
	writeMode(t, b.TokensPath(), string(data), 0o600)
	ts := mustTokenSet(t, a, b)
	wantVerify(t, ts, ta[GrantPeer], "", "")
}

func TestNewTokenSetRooms(t *testing.T) {
	a, ta := issuedRoom(t, t.TempDir(), "alpha")
	// A room without tokens.json: nothing verifies until tokens are issued,
	// and then they do, in the same set.
	cwd := t.TempDir()
	b, _, err := Create(cwd, "beta", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	same, err := Open(filepath.Dir(filepath.Dir(a.Dir())), "alpha")
	if err != nil {
		t.Fatal(err)
	}
	ts := mustTokenSet(t, a, b, same, nil) // the same room twice is one room
	if len(ts.rooms) != 2 {
		t.Fatalf("set holds %d rooms, want 2", len(ts.rooms))
	}
	wantVerify(t, ts, ta[GrantLead], "alpha", GrantLead)
	tb, err := b.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	wantVerify(t, ts, tb[GrantPeer], "beta", GrantPeer)

	// Two different rooms of one name cannot share a set.
	other, _ := issuedRoom(t, t.TempDir(), "alpha")
	if _, err := NewTokenSet([]*Room{a, other}); err == nil || !strings.Contains(err.Error(), `two rooms are named "alpha"`) {
		t.Fatalf("two rooms named alpha: %v", err)
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// writeMode writes body to p with exactly mode, whatever the umask.
func writeMode(t *testing.T, p, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// snapshotPath is what p is: its kind, mode and content.
func snapshotPath(t *testing.T, p string) string {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		return "missing"
	}
	if !fi.Mode().IsRegular() {
		return fi.Mode().String()
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().String() + " " + string(data)
}

// TestDebateRoomIsWatchOnly checks that a persona debate is hosted with
// the observer's token alone: IssueTokens gives no seat's, and rotating a
// seat's is refused with ErrWatchOnly, saying why and what to do.
func TestDebateRoomIsWatchOnly(t *testing.T) {
	r, _, err := Create(t.TempDir(), "panel", CreateOptions{Topic: "t", Mode: ModeDebate, Agents: []string{"Ada", "Linus"}, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 1 || toks[GrantObserver] == "" {
		t.Fatalf("a debate room was issued %v; want the observer's token alone", toks)
	}
	wantVerify(t, mustTokenSet(t, r), toks[GrantObserver], "panel", GrantObserver)
	for _, g := range []string{GrantLead, GrantPeer} {
		_, err := r.RotateToken(g)
		if !errors.Is(err, ErrWatchOnly) || !strings.Contains(err.Error(), "roundtable watch --url") {
			t.Errorf("rotate %s of a debate: %v; want ErrWatchOnly saying how to watch it", g, err)
		}
	}
	if _, err := r.RotateToken(GrantObserver); err != nil {
		t.Errorf("rotate the observer of a debate: %v", err)
	}
	if again, err := r.IssueTokens(); err != nil || len(again) != 0 {
		t.Errorf("second issue on a debate gave %v, %v; want none", again, err)
	}
}
