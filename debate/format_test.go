package debate

import "testing"

func TestFormatTokensAndDollars(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 12345: "12.3k", 1_234_567: "1.2M"} {
		if got := FormatTokens(n); got != want {
			t.Errorf("FormatTokens(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[float64]string{0.623: "$0.6230", 1.24: "$1.24", 2.94: "$2.94"} {
		if got := FormatDollars(d); got != want {
			t.Errorf("FormatDollars(%v) = %q, want %q", d, got, want)
		}
	}
}
