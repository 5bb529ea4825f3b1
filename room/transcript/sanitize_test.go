package transcript

import (
	"testing"
	"unicode/utf8"
)

func TestSanitizeTerminal(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"newlines and tabs stay", "a\n\tb\n", "a\n\tb\n"},
		{"unicode stays", "café → ✓ 日本", "café → ✓ 日本"},
		{"CSI color", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"OSC 52 clipboard with BEL", "\x1b]52;c;cm0gLXJm\x07", "␛]52;c;cm0gLXJm␇"},
		{"OSC title with ST", "\x1b]0;owned\x1b\\", "␛]0;owned␛\\"},
		{"C1 CSI", "\u009b2J", "<U+009B>2J"},
		{"C1 OSC and NEL", "\u009d0;x\u009c\u0085", "<U+009D>0;x<U+009C><U+0085>"},
		{"raw C1 byte, not UTF-8", "a\x9bb", "a\uFFFDb"},
		{"NUL, backspace, DEL", "\x00\b\x7f", "␀␈␡"},
		{"CRLF becomes LF", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"lone CR is shown", "safe\rEVIL", "safe␍EVIL"},
		{"CR at the end", "x\r", "x␍"},
		{"bidi override", "a\u202eb\u2066c\u2069", "a<U+202E>b<U+2066>c<U+2069>"},
		{"invalid UTF-8", "\xff\xfe", "\uFFFD\uFFFD"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SanitizeTerminal(tt.in); got != tt.want {
				t.Errorf("SanitizeTerminal(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSanitizeTerminalKeepsSafeStringsAsIs(t *testing.T) {
	s := "## Brief\n\n- a `code` line\twith a tab → ünïcode"
	got := SanitizeTerminal(s)
	if got != s {
		t.Fatalf("a safe string changed: %q", got)
	}
	if testing.AllocsPerRun(100, func() { _ = SanitizeTerminal(s) }) != 0 {
		t.Errorf("a safe string was copied")
	}
}

func TestOneLine(t *testing.T) {
	if got, want := oneLine("  a\n\tb\r\n c \x1b[1m "), "a b c ␛[1m"; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}

// checkTerminalSafe is the property FuzzSanitizeTerminal checks.
func checkTerminalSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("SanitizeTerminal(%q) = %q: not valid UTF-8", in, out)
	}
	for i, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f:
			t.Fatalf("SanitizeTerminal(%q) = %q: C0 control %U at %d", in, out, r, i)
		case r >= 0x80 && r <= 0x9f:
			t.Fatalf("SanitizeTerminal(%q) = %q: C1 control %U at %d", in, out, r, i)
		case unsafeRune(r):
			t.Fatalf("SanitizeTerminal(%q) = %q: bidi control %U at %d", in, out, r, i)
		}
	}
	if again := SanitizeTerminal(out); again != out {
		t.Fatalf("SanitizeTerminal is not idempotent on %q: %q then %q", in, out, again)
	}
}

func FuzzSanitizeTerminal(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31m", "\x1b]52;c;eA==\x07", "\u009b", "\x9b", "a\r\nb\rc", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := SanitizeTerminal(s)
		checkTerminalSafe(t, s, out)
		if terminalSafe(s) && out != s {
			t.Fatalf("safe input %q changed to %q", s, out)
		}
	})
}
