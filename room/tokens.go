package room

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// A hosted room (roundtable host) is reached over HTTP by bearer tokens.
// Each room has one token per grant; the grant, never anything the client
// says, decides what a connection may do: the lead's seat, the peer's seat,
// or an observer's read-only view.
const (
	GrantLead     = "lead"
	GrantPeer     = "peer"
	GrantObserver = "observer"
)

// Grants are every grant, in the order they are shown.
func Grants() []string { return []string{GrantLead, GrantPeer, GrantObserver} }

// HostGrants are the grants a room with this config is hosted with, in
// the order they are shown: a persona debate has only the observer's (its
// seats are its personas, played by the debate itself, so it is watched,
// never joined); a council has one per seat, in turn order, then the
// observer's; any other room has every grant (Grants).
func (c Config) HostGrants() []string {
	if c.IsDebate() {
		return []string{GrantObserver}
	}
	if c.IsCouncil() {
		return append(c.Seats(), GrantObserver)
	}
	return Grants()
}

// tokenGrants are the grants a room's tokens.json may hold: a council's
// (HostGrants), or lead, peer and observer for any other room (a debate's
// file may name a seat's grant, which the host then refuses as
// watch-only).
func (c Config) tokenGrants() []string {
	if c.IsCouncil() {
		return c.HostGrants()
	}
	return Grants()
}

// NoGrantError says that room has no grant of that name, and which it has.
func NoGrantError(cfg Config, grant string) error {
	if cfg.IsDebate() {
		return WatchOnlyError(cfg.Room, grant)
	}
	return fmt.Errorf("%w: room %q has no %q seat; its grants are %s", ErrBadGrant, cfg.Room, grant, strings.Join(cfg.HostGrants(), ", "))
}

// ErrWatchOnly marks a seat's token asked of a persona debate, which has
// only an observer token (HostGrants).
var ErrWatchOnly = errors.New("a persona debate is watch-only")

// WatchOnlyError says that room, a persona debate, gives no seat's token
// (grant), and what to do instead.
func WatchOnlyError(roomName, grant string) error {
	return fmt.Errorf("%w: room %q is a persona debate, whose seats are its personas, played by the debate itself; no %s token is given and no MCP seat may join it. Watch it with the observer token (roundtable watch --url)", ErrWatchOnly, roomName, grant)
}

// TokensFile is the room file that holds the SHA-256 hashes of the room's
// tokens, never a token itself:
//
//	{"tokens":[{"grant":"peer","sha256":"<64 hex>","created":"<RFC 3339>"}]}
//
// It is written atomically with mode 0600.
const TokensFile = "tokens.json"

// TokenPrefix starts every token, so that one pasted in the wrong place is
// recognizable for what it is.
const TokenPrefix = "rt_"

const (
	// tokenRandBytes is a token's randomness: 256 bits.
	tokenRandBytes = 32
	// tokenLen is a token's length: the prefix and 43 base64url characters.
	tokenLen = len(TokenPrefix) + 43
	// maxTokensFile bounds what is read of tokens.json: three entries take
	// under 500 bytes.
	maxTokensFile             = 64 << 10
	tokensMode    fs.FileMode = 0o600
	// racyWindow: a tokens.json changed less than this before it was read
	// may change again without its size, time or inode telling (a second
	// rotation within the file system's clock tick that gets the first
	// one's inode back). Until it is older, Verify reads it again.
	racyWindow = time.Second
)

// Errors of the token functions, matched with errors.Is.
var (
	ErrBadGrant  = errors.New("bad grant")
	ErrBadTokens = errors.New("bad tokens file")
)

// Grant is what a verified token allows: one grant of one room.
type Grant struct{ Room, Grant string }

// ValidateGrant checks a grant name: lead, peer, observer, or the name of
// a council's seat (any valid seat name: the room says whether it has it,
// HostGrants).
func ValidateGrant(grant string) error {
	switch grant {
	case GrantLead, GrantPeer, GrantObserver:
		return nil
	}
	if ValidateSeatName(grant) == nil {
		return nil
	}
	return fmt.Errorf("%w: %q: a token's grant is lead, peer, observer or a seat of a council", ErrBadGrant, grant)
}

// tokenRecord is one entry of tokens.json.
type tokenRecord struct {
	Grant   string `json:"grant"`
	SHA256  string `json:"sha256"`
	Created string `json:"created"`
}

type tokensDoc struct {
	Tokens []tokenRecord `json:"tokens"`
}

// TokensPath is the room's tokens.json.
func (r *Room) TokensPath() string { return filepath.Join(r.dir, TokensFile) }

// IssueTokens makes a fresh random token for each grant of the room
// (HostGrants) that has none yet (all of them the first time the room is
// hosted: three, or a debate's one), saves their
// hashes and returns the plain tokens by grant: they exist nowhere else, so
// the caller shows them once. A grant that has a token is left alone; the
// map is empty when every grant has one.
func (r *Room) IssueTokens() (map[string]string, error) {
	var out map[string]string
	err := r.withLock(func() error {
		recs, _, err := readTokens(r.cfg.Room, r.TokensPath(), r.cfg.tokenGrants())
		if err != nil {
			return err
		}
		have := make(map[string]bool, len(recs))
		for _, rec := range recs {
			have[rec.Grant] = true
		}
		fresh := make(map[string]string)
		for _, g := range r.cfg.HostGrants() {
			if have[g] {
				continue
			}
			tok, err := newToken()
			if err != nil {
				return err
			}
			recs = append(recs, newRecord(g, tok))
			fresh[g] = tok
		}
		if len(fresh) > 0 {
			if err := writeTokens(r.cfg.Room, r.TokensPath(), recs); err != nil {
				return err
			}
		}
		out = fresh
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RotateToken replaces grant's token by a fresh one and returns it. The
// old token stops working at once, in a running host too: a TokenSet reads
// tokens.json again when it changes. A persona debate's seat grants have
// no token (ErrWatchOnly).
func (r *Room) RotateToken(grant string) (string, error) {
	if err := ValidateGrant(grant); err != nil {
		return "", err
	}
	if !slices.Contains(r.cfg.HostGrants(), grant) {
		return "", NoGrantError(r.cfg, grant)
	}
	var tok string
	err := r.withLock(func() error {
		recs, _, err := readTokens(r.cfg.Room, r.TokensPath(), r.cfg.tokenGrants())
		if err != nil {
			return err
		}
		t, err := newToken()
		if err != nil {
			return err
		}
		kept := recs[:0]
		for _, rec := range recs {
			if rec.Grant != grant {
				kept = append(kept, rec)
			}
		}
		if err := writeTokens(r.cfg.Room, r.TokensPath(), append(kept, newRecord(grant, t))); err != nil {
			return err
		}
		tok = t
		return nil
	})
	if err != nil {
		return "", err
	}
	return tok, nil
}

// newToken draws a token: the prefix and 32 random bytes in base64url.
func newToken() (string, error) {
	b := make([]byte, tokenRandBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("draw a random token: %w", err)
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

func newRecord(grant, token string) tokenRecord {
	sum := sha256.Sum256([]byte(token))
	return tokenRecord{Grant: grant, SHA256: hex.EncodeToString(sum[:]), Created: formatTime(time.Now())}
}

// tokenShape reports whether s looks like a token IssueTokens makes. Verify
// hashes nothing else.
func tokenShape(s string) bool {
	if len(s) != tokenLen || !strings.HasPrefix(s, TokenPrefix) {
		return false
	}
	for i := len(TokenPrefix); i < len(s); i++ {
		c := s[i]
		if !asciiAlnum(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// fileSig is what tells a changed tokens.json from the one read: size,
// modification time and inode (an atomic write makes a new inode).
type fileSig struct {
	exists bool
	size   int64
	mtime  int64
	ino    uint64
}

func sigOf(fi fs.FileInfo) fileSig {
	return fileSig{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano(), ino: inode(fi)}
}

// badTokens says what is wrong with a room's tokens.json and what to do.
func badTokens(room, path, problem string) error {
	return fmt.Errorf("%w: %s (room %q) %s; fix it, or remove it to revoke the room's tokens (new ones are issued when the room is next hosted)",
		ErrBadTokens, path, room, problem)
}

// readTokens reads and checks tokens.json: a missing file is no tokens and
// no error; anything but a private regular file holding valid entries, one
// per grant at most, is an error wrapping ErrBadTokens. The signature is
// that of the file read.
func readTokens(room, path string, grants []string) ([]tokenRecord, fileSig, error) {
	if err := checkTokensFolders(room, path); err != nil {
		return nil, fileSig{}, err
	}
	f, err := OpenNoFollow(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fileSig{}, nil
	case errors.Is(err, errSymlink):
		return nil, fileSig{}, badTokens(room, path, "is a symbolic link, not a file")
	case err != nil:
		return nil, fileSig{}, fmt.Errorf("read the tokens of room %q: %w; check the permissions of %s", room, err, path)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fileSig{}, fmt.Errorf("read the tokens of room %q: %w", room, err)
	}
	sig := sigOf(fi)
	if !fi.Mode().IsRegular() {
		return nil, sig, badTokens(room, path, fmt.Sprintf("is not a regular file (%s)", fi.Mode().Type()))
	}
	// Whoever can write tokens.json can let themselves in
	// (tokens_trust_unix.go).
	if err := checkTokensFile(room, path, fi); err != nil {
		return nil, sig, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokensFile+1))
	if err != nil {
		return nil, sig, fmt.Errorf("read the tokens of room %q: %w", room, err)
	}
	recs, problem := parseTokens(data, grants)
	if problem != "" {
		return nil, sig, badTokens(room, path, problem)
	}
	return recs, sig, nil
}

// parseTokens checks tokens.json's content and says what is wrong with it;
// grants are the grants the room's file may hold (Config.tokenGrants).
func parseTokens(data []byte, grants []string) ([]tokenRecord, string) {
	if len(data) > maxTokensFile {
		return nil, fmt.Sprintf("is larger than %d KiB", maxTokensFile>>10)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, "is empty"
	}
	var doc struct {
		Tokens *[]tokenRecord `json:"tokens"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Sprintf("is not valid tokens JSON (%v)", err)
	}
	if doc.Tokens == nil {
		return nil, `has no "tokens" list`
	}
	seen := make(map[string]bool)
	for i, rec := range *doc.Tokens {
		if !slices.Contains(grants, rec.Grant) {
			return nil, fmt.Sprintf("entry %d has grant %q, not one of the room's grants (%s)", i+1, rec.Grant, strings.Join(grants, ", "))
		}
		if seen[rec.Grant] {
			return nil, fmt.Sprintf("has two entries for the %s grant", rec.Grant)
		}
		seen[rec.Grant] = true
		if b, err := hex.DecodeString(rec.SHA256); err != nil || len(b) != sha256.Size {
			return nil, fmt.Sprintf("entry %d (%s) has no valid sha256: 64 hex digits are needed", i+1, rec.Grant)
		}
	}
	return *doc.Tokens, ""
}

// writeTokens saves the records, in grant order (Grants, then a
// council's other seats as they came), atomically and private.
func writeTokens(room, path string, recs []tokenRecord) error {
	doc := tokensDoc{Tokens: make([]tokenRecord, 0, len(recs))}
	for _, g := range Grants() {
		for _, rec := range recs {
			if rec.Grant == g {
				doc.Tokens = append(doc.Tokens, rec)
			}
		}
	}
	for _, rec := range recs {
		if !slices.Contains(Grants(), rec.Grant) {
			doc.Tokens = append(doc.Tokens, rec)
		}
	}
	data, err := encodeJSON(doc)
	if err != nil {
		return err
	}
	if err := writeAtomicMode(path, data, tokensMode); err != nil {
		return fmt.Errorf("save the tokens of room %q in %s: %w", room, path, err)
	}
	return nil
}

// A TokenSet verifies tokens for many rooms. It keeps the SHA-256 hashes
// of each room's tokens.json and compares a token's hash with every one of
// them in constant time (crypto/subtle), never the token itself. It reads a
// room's tokens.json again when the file changes, so a rotation or a
// removal takes effect at once. Rooms may be added while it is in use
// (Add). It is safe for concurrent use.
type TokenSet struct {
	mu    sync.Mutex
	rooms []*tokenRoom
	dirs  map[string]string // room name to folder, of every room added
	// report, set by OnProblem, hears of a room's tokens.json that a
	// reading finds unusable, once per new problem.
	report func(error)
}

// OnProblem has f called, under the set's lock (f must not call the set),
// each time a room's tokens.json is read again and found unusable or
// untrusted where it was not, or not in that way, before: a running host
// says so to its owner, as no token of the room verifies meanwhile.
func (t *TokenSet) OnProblem(f func(error)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.report = f
}

// tokenRoom is one room's hashes as last read.
type tokenRoom struct {
	name   string
	path   string
	grants []string // what its tokens.json may hold (Config.tokenGrants)
	sig    fileSig
	recent bool // changed within racyWindow of being read: read again
	hashes []grantHash
	err    error     // why the file could not be used: no token verifies
	set    *TokenSet // its set, whose lock guards it
	// gone: the room's folder lost its room.json (deleted, renamed or
	// moved) after its tokens were read. The hashes are kept, so that
	// its tokens are told the room is gone rather than that they are
	// wrong (tokens_live.go).
	gone bool
}

type grantHash struct {
	grant string
	sum   [sha256.Size]byte
}

// NewTokenSet reads the tokens of rooms. A room without tokens.json has
// no token yet (none verifies until IssueTokens makes some); a tokens.json
// that cannot be used is an error. Rooms are told apart by name, which a
// verified Grant carries: two different rooms of one name are an error.
func NewTokenSet(rooms []*Room) (*TokenSet, error) {
	t := &TokenSet{dirs: make(map[string]string)}
	for _, r := range rooms {
		if _, err := t.addLocked(r); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// load reads the room's tokens.json. On an error the room keeps no hash:
// none of its tokens verifies until the file is fixed or replaced.
func (tr *tokenRoom) load() {
	recs, sig, err := readTokens(tr.name, tr.path, tr.grants)
	if tr.keepGone(sig, err) {
		return
	}
	if err != nil && (tr.err == nil || tr.err.Error() != err.Error()) && tr.set != nil && tr.set.report != nil {
		tr.set.report(err)
	}
	tr.sig, tr.err, tr.hashes = sig, err, tr.hashes[:0]
	for _, rec := range recs {
		h := grantHash{grant: rec.Grant}
		_, _ = hex.Decode(h.sum[:], []byte(rec.SHA256)) // checked by parseTokens
		tr.hashes = append(tr.hashes, h)
	}
	age := time.Since(time.Unix(0, sig.mtime))
	tr.recent = sig.exists && (age < racyWindow && age > -racyWindow)
}

// stale reports whether the room's tokens.json may differ from what load
// read.
func (tr *tokenRoom) stale() bool {
	if tr.recent || tr.err != nil || tr.gone {
		return true
	}
	var now fileSig
	if fi, err := os.Lstat(tr.path); err == nil {
		now = sigOf(fi)
	}
	return now != tr.sig
}

// match is one (room, grant) whose hash equals a token's.
type match struct {
	room  int
	grant string
}

// scan compares sum with every hash of rooms in constant time, without
// stopping at a match, and returns the matches (more than one only when a
// file was copied or tampered with).
func (t *TokenSet) scan(sum [sha256.Size]byte, out []match) []match {
	out = out[:0]
	for i, tr := range t.rooms {
		for _, h := range tr.hashes {
			if subtle.ConstantTimeCompare(h.sum[:], sum[:]) == 1 {
				out = append(out, match{room: i, grant: h.grant})
			}
		}
	}
	return out
}

// Verify says which room and grant token gives. A token that matches no
// room, or (from a copied tokens.json) more than one, gives nothing. The
// rooms whose file may have changed are read again first: the matched
// room's when the token matches, else every room's, so a rotated token
// stops working and a new one starts at once.
func (t *TokenSet) Verify(token string) (Grant, bool) {
	g, err := t.Authorize(token)
	return g, err == nil
}

// Authorize is Verify with the reason a token gives nothing: ErrNoToken
// when it matches no room (or more than one), or an error wrapping
// ErrRoomGone, naming the room and saying what to do, when it matches
// only a room whose folder was deleted or renamed since the set read its
// tokens.
func (t *TokenSet) Authorize(token string) (Grant, error) {
	if !tokenShape(token) {
		return Grant{}, ErrNoToken
	}
	sum := sha256.Sum256([]byte(token))
	var buf [2]match
	t.mu.Lock()
	defer t.mu.Unlock()
	ms := t.scan(sum, buf[:])
	reread := false
	if len(ms) == 0 {
		for _, tr := range t.rooms {
			if tr.stale() {
				tr.load()
				reread = true
			}
		}
	} else {
		for _, m := range ms {
			if tr := t.rooms[m.room]; tr.stale() {
				tr.load()
				reread = true
			}
		}
	}
	if reread {
		ms = t.scan(sum, buf[:])
	}
	live, nLive, gone, nGone := splitGone(t.rooms, ms)
	switch {
	case nLive == 1:
		return Grant{Room: t.rooms[live.room].name, Grant: live.grant}, nil
	case nLive == 0 && nGone > 0:
		return Grant{}, t.rooms[gone.room].goneErr()
	}
	return Grant{}, ErrNoToken
}

// Problems are the rooms whose tokens.json could not be used when last
// read (no token of theirs verifies), one error each, saying what to do.
func (t *TokenSet) Problems() []error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []error
	for _, tr := range t.rooms {
		if tr.err != nil {
			out = append(out, tr.err)
		}
	}
	return out
}

func asciiAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// untrusted says that a room's tokens.json cannot be trusted, why, and the
// command that fixes it.
func untrusted(room, path, problem, fix string) error {
	return fmt.Errorf("%w: %s (room %q) %s, so its tokens are not trusted; to fix it: %s", ErrBadTokens, path, room, problem, fix)
}

// quotePath quotes a path for a shell command line when it needs it.
func quotePath(p string) string {
	if plain(p) {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// maxTokenFile bounds what is read of a --token-file: a token and a
// newline, with room to spare.
const maxTokenFile = 4 << 10

// ErrTokenFile is a --token-file that cannot be used.
var ErrTokenFile = errors.New("bad token file")

// ReadTokenFile reads a token saved in a file (roundtable watch
// --token-file): the file holds the token alone, spaces and a final
// newline aside. A file that other users may read (on Unix: any group or
// other permission bit) is refused, saying what to run, since the token
// in it lets them in too.
func ReadTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%w: %v; give the file you saved the token in", ErrTokenFile, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrTokenFile, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%w: %s is not a regular file; save the token alone in a file", ErrTokenFile, path)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%w: other users can read or change %s (mode %04o), and the token in it lets them in; run: chmod 600 %s",
			ErrTokenFile, path, fi.Mode().Perm(), quotePath(path))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("%w: read %s: %v", ErrTokenFile, path, err)
	}
	tok := strings.TrimSpace(string(data))
	if len(data) > maxTokenFile || !tokenShape(tok) {
		return "", fmt.Errorf("%w: %s does not hold a roundtable token alone (rt_ and 43 letters, digits, - or _, as roundtable host printed it)", ErrTokenFile, path)
	}
	return tok, nil
}
