package host

import (
	"errors"
	"fmt"
	"strings"
)

// The HTTP side of the host's tokens: the store (room) keeps their hashes
// and grants and says which grant a token gives (room.TokenSet); reading
// the token out of a request's Authorization header is transport, here.

// maxBearer bounds an Authorization header value.
const maxBearer = 4096

// errBearer is wrapped by parseBearer's errors.
var errBearer = errors.New("bad Authorization header")

// parseBearer reads an Authorization header value: "Bearer <token>", the
// scheme in any case, then one space or more, then a token of RFC 6750's
// b64token characters. Surrounding spaces and tabs are ignored. Its errors
// wrap errBearer, say what is wrong and never quote the header, which may
// hold a token.
func parseBearer(header string) (string, error) {
	const send = "send Authorization: Bearer <token>, with the token the host printed for your seat"
	h := strings.Trim(header, " \t")
	if h == "" {
		return "", fmt.Errorf("%w: there is no Authorization header; %s", errBearer, send)
	}
	if len(h) > maxBearer {
		return "", fmt.Errorf("%w: the Authorization header is %d bytes long, more than %d; %s", errBearer, len(h), maxBearer, send)
	}
	scheme, rest, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", fmt.Errorf("%w: the Authorization header does not start with Bearer and a space; %s", errBearer, send)
	}
	tok := strings.TrimLeft(rest, " ")
	if tok == "" {
		return "", fmt.Errorf("%w: Bearer is not followed by a token; %s", errBearer, send)
	}
	if i := badB64Token(tok); i >= 0 {
		var what string
		switch {
		case strings.TrimRight(tok, "=") == "":
			what = "only '=' padding, no token"
		case tok[i] == ' ' || tok[i] == '\t':
			what = fmt.Sprintf("a space at character %d", i+1)
		case tok[i] == '=':
			what = fmt.Sprintf("an '=' before its end (character %d)", i+1)
		default:
			what = fmt.Sprintf("a character a token cannot hold at character %d", i+1)
		}
		return "", fmt.Errorf("%w: the bearer token has %s; %s", errBearer, what, send)
	}
	return tok, nil
}

// badB64Token returns the index of the first byte of s that breaks
// b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=",
// or -1.
func badB64Token(s string) int {
	end := len(strings.TrimRight(s, "="))
	if end == 0 {
		return 0
	}
	for i := range end {
		c := s[i]
		if !asciiAlnum(c) && strings.IndexByte("-._~+/", c) < 0 {
			return i
		}
	}
	return -1
}

func asciiAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
