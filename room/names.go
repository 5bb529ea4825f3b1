package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidateName checks a room name: a letter or digit, then up to 63 letters,
// digits, dots, underscores or dashes. Anything else could escape the
// .roundtable folder and is refused.
func ValidateName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("%w: %q: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", ErrBadName, name)
	}
	return nil
}

// ValidateSeat checks a seat of a two-seat MCP room: lead or peer (a
// council's seats are the room's to say: Config.CheckSeat).
func ValidateSeat(seat string) error {
	if seat != SeatLead && seat != SeatPeer {
		return fmt.Errorf("%w: %q: the seat is lead or peer", ErrBadSeat, seat)
	}
	return nil
}

// DefaultSpec is the spec path a room gets when none, or an unsafe one, is
// asked for.
func DefaultSpec(name string) string { return "SPEC-" + name + ".md" }

// SafeSpec settles the spec path of a room: relative to the room's cwd,
// never absolute, never containing "..", never empty. An unsafe request
// falls back to SPEC-<room>.md, as the original server does; note explains
// the fallback and is empty when the request was kept.
func SafeSpec(name, requested string) (spec, note string) {
	if requested == "" {
		return DefaultSpec(name), ""
	}
	if reason := unsafeSpecReason(requested); reason != "" {
		return DefaultSpec(name), fmt.Sprintf("spec path %q %s; using %s instead", requested, reason, DefaultSpec(name))
	}
	return path.Clean(requested), ""
}

func unsafeSpecReason(p string) string {
	switch {
	case strings.ContainsRune(p, 0):
		return "contains a NUL byte"
	case len(p) > 512:
		return "is longer than 512 bytes"
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || (len(p) > 1 && p[1] == ':'):
		return "is absolute or uses Windows separators"
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return `contains ".."`
		}
	}
	if c := path.Clean(p); c == "." || strings.HasPrefix(c, ".roundtable") {
		return "does not name a file outside .roundtable"
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "contains control characters"
		}
	}
	return ""
}

// Slug makes a room-name fragment from free text such as a topic: ASCII
// letters and digits in lower case, runs of anything else as one dash, at
// most 40 characters, cut at a dash where it can be. It is empty when the
// text has no letter or digit; otherwise it passes ValidateName.
func Slug(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 40 {
		s = s[:40]
		if i := strings.LastIndexByte(s, '-'); i > 20 {
			s = s[:i]
		}
		s = strings.Trim(s, "-")
	}
	return s
}

// FreeName is a name for a new room like base that no room under cwd has
// yet: base-2, base-3… (base-N counts on from N). It is what a closed
// room's refusals suggest.
func FreeName(cwd, base string) string {
	stem, n := base, 2
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		if k, err := strconv.Atoi(base[i+1:]); err == nil && k >= 1 && k < 1<<20 {
			stem, n = base[:i], k+1
		}
	}
	for ; ; n++ {
		suffix := "-" + strconv.Itoa(n)
		name := stem
		if len(name)+len(suffix) > 64 {
			name = name[:64-len(suffix)]
		}
		name += suffix
		if _, err := os.Lstat(Dir(cwd, name)); errors.Is(err, fs.ErrNotExist) {
			return name
		}
	}
}
