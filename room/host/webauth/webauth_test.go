package webauth

import (
	"context"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestDoorCarriesGrantAndStreams(t *testing.T) {
	if _, ok := GrantOf(context.Background()); ok {
		t.Fatal("a request the host did not hand on has a grant")
	}
	g := room.Grant{Room: "r", Grant: room.GrantObserver}
	ctx := WithGrant(context.Background(), g)
	if got, ok := GrantOf(ctx); !ok || got != g {
		t.Fatalf("GrantOf = %v, %v; want %v, true", got, ok, g)
	}
	// Outside a host nothing caps streams.
	end, why := BeginStream(ctx)
	if why != "" || end == nil {
		t.Fatalf("BeginStream outside a host: end nil %v, why %q", end == nil, why)
	}
	end()
	// Inside one, the host's count decides, for the request's grant.
	var asked room.Grant
	ctx = With(context.Background(), Door{Grant: g, OK: true, Streams: func(g room.Grant) (func(), string) {
		asked = g
		return nil, "full"
	}})
	if _, why := BeginStream(ctx); why != "full" || asked != g {
		t.Fatalf("BeginStream in a host: why %q, asked for %v; want the host's refusal for %v", why, asked, g)
	}
}
