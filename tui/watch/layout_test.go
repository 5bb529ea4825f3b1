package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
)

func TestWrapSegments(t *testing.T) {
	tests := []struct {
		segs  []string
		width int
		want  []string
	}{
		{[]string{"a", "b", "c"}, 20, []string{"a | b | c"}},
		{[]string{"aaaa", "bbbb", "cccc"}, 11, []string{"aaaa | bbbb", "cccc"}},
		{[]string{"aaaa", "bbbb"}, 4, []string{"aaaa", "bbbb"}},
		{[]string{"toolongsegment"}, 6, []string{"toolo…"}},
		{nil, 10, nil},
	}
	for _, tt := range tests {
		got := wrapSegments(tt.segs, " | ", tt.width)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("wrapSegments(%q, %d) = %q, want %q", tt.segs, tt.width, got, tt.want)
		}
		for _, l := range got {
			if xansi.StringWidth(l) > tt.width {
				t.Errorf("line %q over %d", l, tt.width)
			}
		}
	}
}

func TestFitLR(t *testing.T) {
	tests := []struct {
		left, right string
		width       int
		want        string
	}{
		{"left", "right", 12, "left   right"},
		{"left", "right", 10, "left right"},
		{"a long left part", "right", 12, "a lon… right"},
		{"left", "a very wide right", 6, "left"},
	}
	for _, tt := range tests {
		if got := fitLR(tt.left, tt.right, tt.width); got != tt.want {
			t.Errorf("fitLR(%q, %q, %d) = %q, want %q", tt.left, tt.right, tt.width, got, tt.want)
		}
	}
}

func TestBarCells(t *testing.T) {
	tests := []struct{ used, limit, want int }{
		{0, 12, 0}, {1, 12, 1}, {1, 100, 1}, {6, 12, 6}, {11, 12, 11}, {12, 12, 12}, {20, 12, 12}, {3, 0, 0}, {-1, 5, 0},
	}
	for _, tt := range tests {
		if got := barCells(tt.used, tt.limit, 12); got != tt.want {
			t.Errorf("barCells(%d, %d) = %d, want %d", tt.used, tt.limit, got, tt.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	tests := map[time.Duration]string{
		-time.Second:                          "0s",
		0:                                     "0s",
		42*time.Second + time.Millisecond*900: "42s",
		3*time.Minute + 5*time.Second:         "3m",
		2*time.Hour + 7*time.Minute:           "2h07m",
		76 * time.Hour:                        "3d04h",
	}
	for d, want := range tests {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestBuildItems(t *testing.T) {
	msg := func(seq int, seat, kind string, round int) room.Message {
		return room.Message{Seq: seq, Seat: seat, Kind: kind, Round: round, File: messageName(seq, at(0), seq)}
	}
	t.Run("mcp", func(t *testing.T) {
		st := room.State{
			Messages: []room.Message{msg(1, "lead", "brief", 0), msg(2, "peer", "answer", 0), msg(4, "lead", "challenge", 0), msg(6, "peer", "answer", 0)},
			Skipped:  []room.Skipped{{File: "0005-1-x.json", Reason: "bad"}, {File: "0003-1-x.json", Reason: "bad"}, {File: "0009-1-x.json", Reason: "bad"}},
		}
		items := buildItems(st, false, nil)
		var got []string
		for _, it := range items {
			switch it.kind {
			case kindSkipped:
				got = append(got, "skip:"+it.skipped.File[:4])
			default:
				got = append(got, it.msg.Seat+":"+itoa(it.msg.Seq)+"/r"+itoa(it.round))
			}
		}
		want := "lead:1/r1 peer:2/r0 skip:0003 lead:4/r2 skip:0005 peer:6/r0 skip:0009"
		if strings.Join(got, " ") != want {
			t.Errorf("items %q\nwant   %q", strings.Join(got, " "), want)
		}
	})
	t.Run("debate", func(t *testing.T) {
		st := room.State{Messages: []room.Message{
			msg(1, "a", "turn", 1), msg(2, "b", "turn", 1), msg(3, "moderator", "summary", 0), msg(4, "a", "turn", 2), msg(5, "b", "turn", 2),
		}}
		items := buildItems(st, true, nil)
		last := items[len(items)-1]
		if last.kind != kindVerdict || last.msg.Seq != 3 {
			t.Errorf("the verdict is not set apart at the end: %+v", last)
		}
		if items[0].round != 1 || items[1].round != 0 || items[2].round != 2 || items[3].round != 0 {
			t.Errorf("round dividers: %d %d %d %d", items[0].round, items[1].round, items[2].round, items[3].round)
		}
	})
}

func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	cwd := t.TempDir()
	evil := "\x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;title\x07 \x1b[2J \u009b31m \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ \r\x08"
	writeRoom(t, cwd, "evil", room.Config{Room: "evil", Topic: "topic " + evil, Budget: 2, CreatedAt: at(0)}, []fileMsg{
		{1, at(0), "lead", "agent " + evil, "brief" + evil, "text " + evil, 0},
		{2, at(1), "peer\x1b[31m", "x", "answer", "# heading " + evil, 0},
	}, map[string]string{
		"server.log":  "2026-11-30T09:00:00.000Z connect seat=lead agent=\"evil\\x1b]0;t\\x07\" pid=1\n",
		"closed.json": `{"reason": "done ` + strings.ReplaceAll(evil, "\x1b", `\u001b`) + `"}`,
	})
	m := openModel(t, cwd, "evil", 100, 40)
	if err := onlyColours(m.View()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain(m), "␛]52;c;") {
		t.Errorf("escape not shown as text:\n%s", plain(m))
	}
	m, _ = press(m, "?")
	if err := onlyColours(m.View()); err != nil {
		t.Fatal(err)
	}
	// A folder whose name carries escapes, waited in.
	dir := filepath.Join(t.TempDir(), "evil\x1b]0;title\x07\x1b[2J")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := openModel(t, dir, "later", 100, 30)
	if err := onlyColours(w.View()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain(w), "evil␛]0;title␇") {
		t.Errorf("the folder's name is not shown as text:\n%s", plain(w))
	}
}
