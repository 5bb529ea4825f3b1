package debateview

import (
	"slices"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func TestVisibleColumns(t *testing.T) {
	tests := []struct{ width, n, want int }{
		{80, 3, 1},   // narrow: one at a time
		{99, 5, 1},   // still narrow
		{100, 3, 3},  // three of 33
		{120, 3, 3},  // fits
		{120, 5, 3},  // five do not fit at 30: three shown, tabs
		{200, 5, 5},  // five of 40
		{200, 12, 6}, // a big panel: six shown
		{160, 0, 0},
	}
	for _, tt := range tests {
		if got := visibleColumns(tt.width, tt.n); got != tt.want {
			t.Errorf("visibleColumns(%d, %d) = %d, want %d", tt.width, tt.n, got, tt.want)
		}
	}
}

func TestSplitWidths(t *testing.T) {
	tests := []struct {
		width, k, gap int
		want          []int
	}{
		{160, 3, 1, []int{53, 53, 52}},
		{200, 5, 1, []int{40, 39, 39, 39, 39}},
		{80, 1, 1, []int{80}},
		{10, 3, 1, []int{3, 3, 2}},
	}
	for _, tt := range tests {
		got := splitWidths(tt.width, tt.k, tt.gap)
		if !slices.Equal(got, tt.want) {
			t.Errorf("splitWidths(%d, %d, %d) = %v, want %v", tt.width, tt.k, tt.gap, got, tt.want)
		}
		sum := (len(got) - 1) * tt.gap
		for _, w := range got {
			sum += w
		}
		if tt.width >= tt.k*2 && sum != tt.width {
			t.Errorf("splitWidths(%d, ...) adds up to %d", tt.width, sum)
		}
	}
}

func TestWindowStart(t *testing.T) {
	tests := []struct{ prev, focus, k, n, want int }{
		{0, 0, 3, 3, 0},
		{0, 4, 3, 6, 2}, // focus past the window: it slides
		{2, 3, 3, 6, 2}, // focus inside: it stays
		{3, 1, 3, 6, 1}, // focus before: it slides back
		{9, 5, 1, 6, 5}, // a stale start is clamped
	}
	for _, tt := range tests {
		if got := windowStart(tt.prev, tt.focus, tt.k, tt.n); got != tt.want {
			t.Errorf("windowStart(%d, %d, %d, %d) = %d, want %d", tt.prev, tt.focus, tt.k, tt.n, got, tt.want)
		}
	}
}

func TestSplitBody(t *testing.T) {
	tests := []struct{ rows, want, cols, panel int }{
		{44, 5, 37, 7},   // a short verdict takes what it needs
		{44, 60, 22, 22}, // a long one: about half
		{20, 30, 10, 10},
		{12, 30, 6, 6}, // the columns keep their minimum
		{8, 30, 8, 0},  // too small for both: columns only
		{40, 1, 37, 3}, // waiting: a one-line panel
	}
	for _, tt := range tests {
		cols, panel := splitBody(tt.rows, tt.want)
		if cols != tt.cols || panel != tt.panel {
			t.Errorf("splitBody(%d, %d) = %d, %d; want %d, %d", tt.rows, tt.want, cols, panel, tt.cols, tt.panel)
		}
		if cols+panel != tt.rows {
			t.Errorf("splitBody(%d, %d) loses rows", tt.rows, tt.want)
		}
	}
}

func TestTabLabels(t *testing.T) {
	names := []string{"Product Manager", "Software Architect", "Security Reviewer", "Verdict"}
	got := tabLabels(names, 60, 4)
	total := len(got) - 1
	for _, s := range got {
		total += ansi.StringWidth(s) + 4
	}
	if total > 60 {
		t.Errorf("tabs take %d cells of 60: %q", total, got)
	}
	if got[3] != "Verdict" {
		t.Errorf("a short label was cut: %q", got[3])
	}
	if roomy := tabLabels(names, 200, 4); !slices.Equal(roomy, names) {
		t.Errorf("labels cut with room to spare: %q", roomy)
	}
}

func TestFormats(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{0, "0:00"}, {42 * time.Second, "0:42"}, {12*time.Minute + 5*time.Second, "12:05"}, {time.Hour + 2*time.Minute + 3*time.Second, "1:02:03"}} {
		if got := formatElapsed(tt.d); got != tt.want {
			t.Errorf("formatElapsed(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    int
		want string
	}{{950, "950"}, {12345, "12.3k"}, {1_200_000, "1.2M"}} {
		if got := formatCount(tt.n); got != tt.want {
			t.Errorf("formatCount(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestAnchor(t *testing.T) {
	old := []int{10, 20, 5}
	tests := []struct {
		top  int
		want anchor
	}{
		{0, anchor{0, 0}},
		{5, anchor{0, 0.5}},
		{10, anchor{1, 0}},
		{20, anchor{1, 0.5}},
		{34, anchor{2, 0.8}},
		{99, anchor{3, 0}},
	}
	for _, tt := range tests {
		if got := anchorOf(old, tt.top); got != tt.want {
			t.Errorf("anchorOf(%v, %d) = %v, want %v", old, tt.top, got, tt.want)
		}
		if got := lineOf(old, anchorOf(old, tt.top)); got != tt.top && tt.top < 35 {
			t.Errorf("lineOf(anchorOf(%d)) = %d: not a round trip", tt.top, got)
		}
	}
	// The same places after a reflow that doubled every segment.
	reflowed := []int{20, 40, 10}
	if got := lineOf(reflowed, anchorOf(old, 20)); got != 40 {
		t.Errorf("the middle of segment 1 moved to %d, want 40", got)
	}
}

func TestScroller(t *testing.T) {
	s := newScroller()
	s.settle(100, 20)
	if s.top != 80 || !s.follow {
		t.Fatalf("a following scroller is not at the bottom: %+v", s)
	}
	s.by(-5, 100, 20)
	if s.top != 75 || s.follow || s.below(100, 20) != 5 {
		t.Errorf("after scrolling up: %+v below %d", s, s.below(100, 20))
	}
	s.settle(150, 20) // text arrives: a reader scrolled up stays put
	if s.top != 75 {
		t.Errorf("new text moved a reader who scrolled up to %d", s.top)
	}
	s.by(200, 150, 20)
	if !s.follow || s.top != 130 {
		t.Errorf("scrolling to the bottom does not follow again: %+v", s)
	}
	s.toTop()
	if s.top != 0 || s.follow {
		t.Errorf("toTop: %+v", s)
	}
}
