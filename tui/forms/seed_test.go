package forms

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Should the cache be write-through?", "should-the-cache-be-write-through"},
		{"  ¿Qué?  ", "qu"},
		{"", ""},
		{strings.Repeat("abc ", 20), "abc-abc-abc-abc-abc-abc-abc-abc-abc-abc"},
	}
	for _, tt := range tests {
		got := slug(tt.in)
		if got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got != "" && room.ValidateName(got) != nil {
			t.Errorf("slug(%q) = %q is not a valid room name", tt.in, got)
		}
	}
}
