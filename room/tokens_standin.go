package room

// STAND-IN for helper H7's room/tokens.go (issue 15). It implements the
// contract's API only so the host (H6) can be built and tested before
// H7's file lands; the lead deletes this file at merge in favour of H7's.
// Do not build on anything here beyond the contract's signatures.

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The grants a token gives.
const (
	GrantLead     = "lead"
	GrantPeer     = "peer"
	GrantObserver = "observer"
)

// TokensFile is the name of a room's token hashes file.
const TokensFile = "tokens.json"

// Grant is what a verified token allows: one grant of one room.
type Grant struct{ Room, Grant string }

type tokenEntry struct {
	Grant   string `json:"grant"`
	SHA256  string `json:"sha256"`
	Created string `json:"created"`
}

type tokensDoc struct {
	Tokens []tokenEntry `json:"tokens"`
}

var allGrants = []string{GrantLead, GrantPeer, GrantObserver}

func (r *Room) tokensPath() string { return filepath.Join(r.dir, TokensFile) }

func (r *Room) readTokens() (tokensDoc, error) {
	var d tokensDoc
	b, err := os.ReadFile(r.tokensPath())
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	return d, json.Unmarshal(b, &d)
}

func (r *Room) writeTokens(d tokensDoc) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp := r.tokensPath() + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, r.tokensPath())
}

func newToken() (string, string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	tok := "rt_" + base64.RawURLEncoding.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(tok))
	return tok, hex.EncodeToString(sum[:])
}

// IssueTokens makes a token for each grant of r that has none yet.
func (r *Room) IssueTokens() (map[string]string, error) {
	d, err := r.readTokens()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, g := range allGrants {
		have := false
		for _, e := range d.Tokens {
			have = have || e.Grant == g
		}
		if !have {
			tok, h := newToken()
			d.Tokens = append(d.Tokens, tokenEntry{Grant: g, SHA256: h, Created: time.Now().UTC().Format(time.RFC3339)})
			out[g] = tok
		}
	}
	if len(out) > 0 {
		if err := r.writeTokens(d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RotateToken replaces grant's token.
func (r *Room) RotateToken(grant string) (string, error) {
	if grant != GrantLead && grant != GrantPeer && grant != GrantObserver {
		return "", fmt.Errorf("unknown grant %q: use lead, peer or observer", grant)
	}
	d, err := r.readTokens()
	if err != nil {
		return "", err
	}
	kept := d.Tokens[:0]
	for _, e := range d.Tokens {
		if e.Grant != grant {
			kept = append(kept, e)
		}
	}
	tok, h := newToken()
	d.Tokens = append(kept, tokenEntry{Grant: grant, SHA256: h, Created: time.Now().UTC().Format(time.RFC3339)})
	return tok, r.writeTokens(d)
}

// TokenSet verifies tokens for many rooms.
type TokenSet struct {
	mu    sync.Mutex
	rooms []*Room
	mtime map[string]time.Time
	keys  map[string][]tokenEntry // room name → entries
}

// NewTokenSet loads the token hashes of rooms.
func NewTokenSet(rooms []*Room) (*TokenSet, error) {
	t := &TokenSet{rooms: rooms, mtime: map[string]time.Time{}, keys: map[string][]tokenEntry{}}
	for _, r := range rooms {
		if err := t.load(r); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *TokenSet) load(r *Room) error {
	fi, err := os.Stat(r.tokensPath())
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			t.keys[r.cfg.Room] = nil
			return nil
		}
		return err
	}
	if m, ok := t.mtime[r.cfg.Room]; ok && m.Equal(fi.ModTime()) {
		return nil
	}
	d, err := r.readTokens()
	if err != nil {
		return err
	}
	t.keys[r.cfg.Room] = d.Tokens
	t.mtime[r.cfg.Room] = fi.ModTime()
	return nil
}

// Verify returns the grant token gives, comparing SHA-256 sums in constant time.
func (t *TokenSet) Verify(token string) (Grant, bool) {
	if token == "" {
		return Grant{}, false
	}
	sum := sha256.Sum256([]byte(token))
	t.mu.Lock()
	defer t.mu.Unlock()
	var found Grant
	ok := false
	for _, r := range t.rooms {
		_ = t.load(r)
		for _, e := range t.keys[r.cfg.Room] {
			want, err := hex.DecodeString(e.SHA256)
			if err != nil || len(want) != len(sum) {
				continue
			}
			if subtle.ConstantTimeCompare(want, sum[:]) == 1 {
				found, ok = Grant{Room: r.cfg.Room, Grant: e.Grant}, true
			}
		}
	}
	return found, ok
}

// ParseBearer reads an Authorization header value: "Bearer <token>".
func ParseBearer(header string) (string, error) {
	if header == "" {
		return "", errors.New("no Authorization header: send Authorization: Bearer <token>")
	}
	scheme, rest, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", errors.New("the Authorization header is not a Bearer token: send Authorization: Bearer <token>")
	}
	tok := strings.TrimLeft(rest, " ")
	if tok == "" || strings.ContainsAny(tok, " \t\r\n") {
		return "", errors.New("the bearer token is empty or has spaces in it: send the token exactly as roundtable host printed it")
	}
	return tok, nil
}
