package forms

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestStartErrorInSight: why a debate could not start is on screen
// whichever field it focuses, even at 60×20 where the form scrolls: above
// the button when everything fits, else under the fields in sight. At
// 60×20 it stood below the screen, so ctrl+s seemed to do nothing.
func TestStartErrorInSight(t *testing.T) {
	unreachable := fmt.Errorf("%w: Ollama at http://127.0.0.1:9 is not answering: start it with `ollama serve`, or choose another provider", debate.ErrUnreachable)
	denied := errors.New("create room \"adopt-graphql\": cannot create /tmp/ro/.roundtable (permission denied): run roundtable in a folder you can write to, or pass --cwd")
	for _, size := range [][2]int{{60, 20}, {80, 24}, {100, 50}} {
		for _, err := range []error{unreachable, denied} {
			f := debateFormAt(size[0], size[1], "Adopt GraphQL")
			f.StartFailed(err)
			v := plain(f.View())
			if n := strings.Count(v, "\n") + 1; n > size[1] {
				t.Fatalf("%dx%d: the view is %d lines", size[0], size[1], n)
			}
			flat := strings.Join(strings.Fields(v), " ")
			if !strings.Contains(flat, "or pass --cwd") && !strings.Contains(flat, "or choose another provider") {
				t.Errorf("%dx%d, %v: the reason is not on screen:\n%s", size[0], size[1], err, v)
			}
		}
	}
}
