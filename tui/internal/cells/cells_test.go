package cells

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFit(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abcd"},
		{"\x1b[1mbold\x1b[m", 6, "\x1b[1mbold\x1b[m  "},
		{"日本語", 5, "日本 "}, // a wide rune that does not fit is dropped, the cell padded
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		got := Fit(tt.in, tt.w)
		if ansi.StringWidth(got) != tt.w {
			t.Errorf("Fit(%q, %d) is %d wide", tt.in, tt.w, ansi.StringWidth(got))
		}
		if ansi.Strip(got) != ansi.Strip(tt.want) {
			t.Errorf("Fit(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

func TestTruncateAndPad(t *testing.T) {
	tests := []struct {
		in        string
		w         int
		trunc, pd string
	}{
		{"short", 8, "short", "short   "},
		{"a long room name", 8, "a long …", "a long …"},
		{"exact", 5, "exact", "exact"},
		{"anything", 0, "", ""},
	}
	for _, tt := range tests {
		if got := Truncate(tt.in, tt.w); got != tt.trunc {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.trunc)
		}
		if got := Pad(tt.in, tt.w); got != tt.pd {
			t.Errorf("Pad(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.pd)
		}
	}
}

func TestTruncateMiddle(t *testing.T) {
	s := "Export failed: open /home/someone/exports/priced-20261201-120000.md: permission denied"
	got := TruncateMiddle(s, 50)
	if ansi.StringWidth(got) > 50 || !strings.HasPrefix(got, "Export failed: open") || !strings.HasSuffix(got, "permission denied") || !strings.Contains(got, "…") {
		t.Fatalf("%q (%d cells)", got, ansi.StringWidth(got))
	}
	if TruncateMiddle("short", 50) != "short" || TruncateMiddle(s, 0) != "" {
		t.Fatal("a value that fits changed")
	}
}

func TestTruncateWords(t *testing.T) {
	for _, tt := range []struct {
		s    string
		w    int
		want string
	}{
		{"each persona speaks once a round", 40, "each persona speaks once a round"},
		{"each persona speaks once a round", 29, "each persona speaks once a…"},
		{"each persona speaks once a round", 22, "each persona speaks…"},
		{"space switches · order is speaking order", 30, "space switches · order is…"},
		{"unbreakable", 5, ""},
	} {
		if got := TruncateWords(tt.s, tt.w); got != tt.want {
			t.Errorf("TruncateWords(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
}
