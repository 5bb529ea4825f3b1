package room

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzTokenVerify: of all strings, only the issued tokens verify, each as
// its own room and grant. The seeds are the real tokens and near misses.
func FuzzTokenVerify(f *testing.F) {
	cwd := f.TempDir()
	want := map[string]Grant{}
	var rooms []*Room
	for _, name := range []string{"alpha", "beta"} {
		r, _, err := Create(cwd, name, CreateOptions{Topic: "t"})
		if err != nil {
			f.Fatal(err)
		}
		toks, err := r.IssueTokens()
		if err != nil {
			f.Fatal(err)
		}
		for g, tok := range toks {
			want[tok] = Grant{Room: name, Grant: g}
			f.Add(tok)
			f.Add(tok[:len(tok)-1] + "A")
			f.Add(strings.ToUpper(tok))
			f.Add(tok + "=")
		}
		rooms = append(rooms, r)
	}
	f.Add("")
	f.Add(TokenPrefix + strings.Repeat("A", tokenLen-len(TokenPrefix)))
	ts, err := NewTokenSet(rooms)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, token string) {
		g, ok := ts.Verify(token)
		w, issued := want[token]
		if ok != issued || g != w {
			t.Fatalf("Verify(%q) = %+v, %v; want %+v, %v", token, g, ok, w, issued)
		}
	})
}

// FuzzTokensFile: any tokens.json gives a set or an ErrBadTokens, never a
// panic; a set made from it never lets a token through whose hash it
// does not hold, and IssueTokens never overwrites a file it refused.
func FuzzTokensFile(f *testing.F) {
	f.Add([]byte(`{"tokens":[` + validEntry + `]}`))
	f.Add([]byte(`{"tokens":[]}`))
	f.Add([]byte(`{"tokens":[{"grant":"peer","sha256":"` + strings.Repeat("AB", 32) + `"}]}`))
	f.Add([]byte(`{"tokens":null}`))
	f.Add([]byte(`{"tokens":[{"grant":1}]}`))
	f.Add([]byte("\xff\x00"))
	cwd := f.TempDir()
	r, _, err := Create(cwd, "alpha", CreateOptions{Topic: "t"})
	if err != nil {
		f.Fatal(err)
	}
	probe, err := newToken()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		writeMode(t, r.TokensPath(), string(data), 0o600)
		ts, err := NewTokenSet([]*Room{r})
		if err != nil {
			if !errors.Is(err, ErrBadTokens) {
				t.Fatalf("error for %q is no ErrBadTokens: %v", data, err)
			}
			if _, err := r.IssueTokens(); !errors.Is(err, ErrBadTokens) {
				t.Fatalf("IssueTokens took a refused file %q: %v", data, err)
			}
			if got, _ := os.ReadFile(r.TokensPath()); string(got) != string(data) {
				t.Fatalf("a refused file was changed: %q → %q", data, got)
			}
			return
		}
		if g, ok := ts.Verify(probe); ok {
			t.Fatalf("a token no file holds verified as %+v from %q", g, data)
		}
		fresh, err := r.IssueTokens()
		if err != nil {
			t.Fatalf("IssueTokens on an accepted file %q: %v", data, err)
		}
		for g, tok := range fresh {
			if got, ok := ts.Verify(tok); !ok || got.Grant != g {
				t.Fatalf("a token issued over %q does not verify: %+v %v", data, got, ok)
			}
		}
	})
}
