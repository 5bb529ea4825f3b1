package room

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// A council is hosted with a token per seat and the observer's; each seat's
// token authorizes that seat, and can be rotated; a seat the room lacks has
// no token to rotate.
func TestCouncilHostGrants(t *testing.T) {
	cwd := t.TempDir()
	seats := []string{SeatLead, "critic", "security"}
	r, _, err := Create(cwd, "council", CreateOptions{Topic: "t", Budget: 2, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Config().HostGrants(); !slices.Equal(got, append(slices.Clone(seats), GrantObserver)) {
		t.Fatalf("HostGrants = %q", got)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 4 || toks["critic"] == "" || toks[GrantPeer] != "" {
		t.Fatalf("tokens issued for %d grants: %v", len(toks), slices.Sorted(maps.Keys(toks)))
	}
	set, err := NewTokenSet([]*Room{r})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := set.Authorize(toks["critic"]); err != nil || g != (Grant{Room: "council", Grant: "critic"}) {
		t.Fatalf("the critic's token: %+v %v", g, err)
	}
	fresh, err := r.RotateToken("security")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.Authorize(toks["security"]); err == nil {
		t.Fatal("security's old token still works after the rotation")
	}
	if g, err := set.Authorize(fresh); err != nil || g.Grant != "security" {
		t.Fatalf("security's new token: %+v %v", g, err)
	}
	// Every grant is still in the file, none twice.
	if g, err := set.Authorize(toks["critic"]); err != nil || g.Grant != "critic" {
		t.Fatalf("the critic's token after another's rotation: %+v %v", g, err)
	}
	if _, err := r.RotateToken(GrantPeer); !errors.Is(err, ErrBadGrant) || !strings.Contains(err.Error(), `has no "peer" seat`) {
		t.Fatalf("rotating a seat the council lacks: %v", err)
	}
}

// A council seat's grant in a two-seat room's tokens.json is a tampered
// file, as any unknown grant is.
func TestTwoSeatTokensRefuseACouncilGrant(t *testing.T) {
	r, _, err := Create(t.TempDir(), "pair", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"tokens":[{"grant":"critic","sha256":"` + strings.Repeat("ab", 32) + `"}]}`
	if err := os.WriteFile(r.TokensPath(), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTokenSet([]*Room{r}); !errors.Is(err, ErrBadTokens) || !strings.Contains(err.Error(), `grant "critic"`) {
		t.Fatalf("a critic grant in a two-seat room: %v", err)
	}
}
