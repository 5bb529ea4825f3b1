package prompts

import "testing"

func TestAndList(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := AndList(c.words); got != c.want {
			t.Errorf("AndList(%q) = %q, want %q", c.words, got, c.want)
		}
	}
}
