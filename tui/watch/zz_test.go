package watch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestZZ(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "prop", room.Config{Room: "prop", Topic: "fidelity", Budget: 4, CreatedAt: at(0)}, []fileMsg{
		{1, at(1), room.SeatLead, "opus", "brief", "hello", 0},
	}, nil)
	for _, w := range []int{25, 40, 60} {
		m := openModel(t, cwd, "prop", w, 30)
		lines := strings.Split(plain(m), "\n")
		for _, l := range lines[len(lines)-3:] {
			fmt.Printf("%d |%s|\n", width(l), l)
		}
	}
}
