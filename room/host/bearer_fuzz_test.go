package host

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseBearer: any header gives a token or an errBearer, never a
// panic. A token it gives is b64token characters only, is what follows
// "Bearer" and the spaces, and parses back to itself; an error never
// quotes what follows the scheme.
func FuzzParseBearer(f *testing.F) {
	for _, s := range []string{
		"Bearer rt_abc", "bearer  rt_abc", "BEARER rt_abc==", "Basic dXNlcjpwYXNz", "Bearer", "Bearer ",
		"", " ", "Bearer a b", "Bearer\trt_abc", "Bearer =", "Bearer a=b", "Bearer é", "Bearer rt_\x00",
		"Bearer " + strings.Repeat("x", maxBearer),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		tok, err := parseBearer(header)
		if err != nil {
			if tok != "" || !errors.Is(err, errBearer) {
				t.Fatalf("parseBearer(%q) = %q, %v; want \"\" and an errBearer", header, tok, err)
			}
			if _, rest, ok := strings.Cut(strings.Trim(header, " \t"), " "); ok {
				if rest = strings.Trim(rest, " \t"); len(rest) >= 8 && strings.Contains(err.Error(), rest) {
					t.Fatalf("the error for %q quotes the token: %v", header, err)
				}
			}
			return
		}
		if tok == "" || badB64Token(tok) >= 0 {
			t.Fatalf("parseBearer(%q) gave %q, not a b64token", header, tok)
		}
		h := strings.Trim(header, " \t")
		if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") || strings.TrimLeft(h[7:], " ") != tok {
			t.Fatalf("parseBearer(%q) gave %q, which is not what follows Bearer", header, tok)
		}
		if again, err := parseBearer("Bearer " + tok); err != nil || again != tok {
			t.Fatalf("%q does not parse back: %q, %v", tok, again, err)
		}
	})
}
