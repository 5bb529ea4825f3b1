//go:build unix

package room

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nobody is the uid and gid the planted files and folders are given.
const nobody = 65534

// plantTokens writes a tokens.json at p whose lead hash is the planted
// token's, as another user would (mode 0644, owned by nobody), replacing
// the file by a rename as an atomic writer does.
func plantTokens(t *testing.T, p, planted string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(p), ".planted")
	if err := writeTokens("alpha", tmp, []tokenRecord{newRecord(GrantLead, planted)}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root (the CI runs the tests as root)")
	}
}

// A tokens.json another user put in the room (issue 20, item 4) lets no
// one in, neither the planted token nor the real ones: at start-up, and in
// a running host that reads the file again.
func TestPlantedTokensFileIsRefused(t *testing.T) {
	needRoot(t)
	cwd := t.TempDir()
	r, _, err := Create(cwd, "alpha", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	real, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	ts, err := NewTokenSet([]*Room{r})
	if err != nil {
		t.Fatal(err)
	}
	var reported []error
	ts.OnProblem(func(err error) { reported = append(reported, err) })
	wantVerify(t, ts, real[GrantLead], "alpha", GrantLead)
	planted, err := newToken()
	if err != nil {
		t.Fatal(err)
	}
	p := r.TokensPath()
	plantTokens(t, p, planted)

	// The running host.
	wantVerify(t, ts, planted, "", "")
	wantVerify(t, ts, real[GrantLead], "", "")
	probs := ts.Problems()
	if len(probs) != 1 || !errors.Is(probs[0], ErrBadTokens) {
		t.Fatalf("Problems() = %v; want one ErrBadTokens", probs)
	}
	// Said once to the host's owner, however many tokens are tried.
	wantVerify(t, ts, planted, "", "")
	if len(reported) != 1 || reported[0].Error() != probs[0].Error() {
		t.Fatalf("OnProblem heard %v; want the problem once", reported)
	}
	for _, want := range []string{p, "nobody", "not to root", "rm " + p, "chown root " + p} {
		if !strings.Contains(probs[0].Error(), want) {
			t.Fatalf("the problem %q does not say %q", probs[0], want)
		}
	}
	// A host starting, issuing or rotating.
	if _, err := NewTokenSet([]*Room{r}); !errors.Is(err, ErrBadTokens) || !strings.Contains(err.Error(), "nobody") {
		t.Fatalf("NewTokenSet = %v; want the planted file refused", err)
	}
	if _, err := r.IssueTokens(); !errors.Is(err, ErrBadTokens) {
		t.Fatalf("IssueTokens = %v; want the planted file refused", err)
	}
	if _, err := r.RotateToken(GrantPeer); !errors.Is(err, ErrBadTokens) {
		t.Fatalf("RotateToken = %v; want the planted file refused", err)
	}
	// Removing it, as the error says, revokes every token; hosting again
	// issues new ones, which verify.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	fresh, err := r.IssueTokens()
	if err != nil || len(fresh) != 3 {
		t.Fatalf("IssueTokens after rm = %d tokens, %v; want 3", len(fresh), err)
	}
	wantVerify(t, ts, fresh[GrantLead], "alpha", GrantLead)
	wantVerify(t, ts, planted, "", "")
}

// A room folder, or .roundtable, that other users may write (they could
// replace tokens.json) or that another user owns is refused, saying which
// folder and what to run; a folder writable by the host user's own group
// is not.
func TestTokensFolderTrust(t *testing.T) {
	cases := []struct {
		name  string
		which func(r *Room) string // the folder changed
		prep  func(t *testing.T, dir string)
		want  []string // in the error; nil: accepted
	}{
		{"room folder writable by all", roomFolder, chmod(0o777), []string{"other users can write (mode 0777)", "chmod go-w "}},
		{".roundtable writable by all", topFolder, chmod(0o757), []string{"other users can write (mode 0757)", "chmod go-w "}},
		{"room folder writable by another group", roomFolder, func(t *testing.T, dir string) {
			needRoot(t)
			chmod(0o775)(t, dir)
			if err := os.Chown(dir, os.Geteuid(), nobody); err != nil {
				t.Fatal(err)
			}
		}, []string{"(mode 0775)", "chmod go-w "}},
		{"room folder of another user", roomFolder, func(t *testing.T, dir string) {
			needRoot(t)
			if err := os.Chown(dir, nobody, os.Getegid()); err != nil {
				t.Fatal(err)
			}
		}, []string{"belongs to nobody", "chown root "}},
		{"room folder writable by the user's own group", roomFolder, chmod(0o770), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cwd := t.TempDir()
			r, _, err := Create(cwd, "alpha", CreateOptions{Topic: "t"})
			if err != nil {
				t.Fatal(err)
			}
			toks, err := r.IssueTokens()
			if err != nil {
				t.Fatal(err)
			}
			ts, err := NewTokenSet([]*Room{r})
			if err != nil {
				t.Fatal(err)
			}
			dir := c.which(r)
			c.prep(t, dir)
			_, err = NewTokenSet([]*Room{r})
			if c.want == nil {
				if err != nil {
					t.Fatalf("NewTokenSet = %v; want accepted", err)
				}
				wantVerify(t, ts, toks[GrantPeer], "alpha", GrantPeer)
				return
			}
			if !errors.Is(err, ErrBadTokens) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("NewTokenSet = %v; want an ErrBadTokens naming %s", err, dir)
			}
			for _, want := range c.want {
				if !strings.Contains(err.Error(), want) {
					t.Fatalf("NewTokenSet = %v; want it to say %q", err, want)
				}
			}
			// A running host stops trusting the file once it reads it
			// again (it changed: the folder's mode does not show in the
			// file's signature, so touch it as a replacement would).
			old := time.Unix(1, 0)
			if err := os.Chtimes(r.TokensPath(), old, old); err != nil {
				t.Fatal(err)
			}
			wantVerify(t, ts, toks[GrantPeer], "", "")
		})
	}
}

func roomFolder(r *Room) string { return r.Dir() }
func topFolder(r *Room) string  { return filepath.Dir(r.Dir()) }

func chmod(mode os.FileMode) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
}
