package host

import (
	"errors"
	"strings"
	"testing"
)

func TestParseBearer(t *testing.T) {
	const tok = "rt_abcDEF-_123"
	for _, h := range []string{
		"Bearer " + tok, "bearer " + tok, "BEARER " + tok, "Bearer    " + tok,
		" Bearer " + tok + " ", "\tBearer " + tok + "\t",
	} {
		got, err := parseBearer(h)
		if err != nil || got != tok {
			t.Errorf("parseBearer(%q) = %q, %v; want %q", h, got, err, tok)
		}
	}
	for _, h := range []string{"Bearer a.b~c+d/e==", "Bearer x="} {
		if _, err := parseBearer(h); err != nil {
			t.Errorf("parseBearer(%q): %v; RFC 6750 allows it", h, err)
		}
	}
	const secret = "rt_SECRETsecretSECRET"
	for h, want := range map[string]string{
		"":                             "there is no Authorization header",
		"   ":                          "there is no Authorization header",
		secret:                         "does not start with Bearer",
		"Basic " + secret:              "does not start with Bearer",
		"Bearer":                       "not followed by a token",
		"Bearer   ":                    "not followed by a token",
		"Bearer\t" + secret:            "does not start with Bearer",
		"Bearer " + secret + " extra":  "has a space at character 22",
		"Bearer " + secret + "\textra": "has a space",
		"Bearer " + secret + "=x":      "an '=' before its end",
		"Bearer " + secret + "\"":      "a character a token cannot hold",
		"Bearer " + secret + "\n":      "a character a token cannot hold",
		"Bearer ===":                   "only '=' padding, no token",
		"Bearer " + strings.Repeat("a", maxBearer): "bytes long",
		"Token " + secret:                          "does not start with Bearer",
		"Bearer" + secret:                          "does not start with Bearer",
	} {
		got, err := parseBearer(h)
		if err == nil || !errors.Is(err, errBearer) || !strings.Contains(err.Error(), want) {
			t.Errorf("parseBearer(%q) = %q, %v; want an error saying %q", h, got, err, want)
			continue
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("parseBearer(%q)'s error quotes the token: %v", h, err)
		}
		if !strings.Contains(err.Error(), "send Authorization: Bearer <token>") {
			t.Errorf("parseBearer(%q)'s error does not say what to do: %v", h, err)
		}
	}
}
