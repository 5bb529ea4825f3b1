package watch

import "testing"

func TestDraftKind(t *testing.T) {
	for _, c := range []struct{ in, kind, body string }{
		{"kind: concession\nYou are right about the cache.", "concession", "You are right about the cache."},
		{"**Kind:** *objection*\n\nNo: uploads reach 4 GB.", "objection", "No: uploads reach 4 GB."},
		{"/question What bounds the memory?", "question", "What bounds the memory?"},
		{"A draft with no kind yet", "", "A draft with no kind yet"},
		{"kind of a long opening line: it goes on", "", "kind of a long opening line: it goes on"},
	} {
		k, b := draftKind(c.in)
		if k != c.kind || b != c.body {
			t.Errorf("draftKind(%q) = %q, %q; want %q, %q", c.in, k, b, c.kind, c.body)
		}
	}
}
