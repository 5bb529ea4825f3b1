package keys

import "testing"

func TestSharedHelp(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{PageUp().Help().Key, "pgup/b"},
		{PageDown().Help().Key, "pgdn/space"},
		{Top("top").Help().Key, "g/home"},
		{Bottom("bottom").Help().Key, "G/end"},
		{Quit("ctrl+c").Help().Key, "q"},
	} {
		if c.got != c.want {
			t.Errorf("help key %q, want %q", c.got, c.want)
		}
	}
	if k := Quit("ctrl+c").Keys(); len(k) != 2 || k[0] != "q" || k[1] != "ctrl+c" {
		t.Errorf("Quit keys %v", k)
	}
}
