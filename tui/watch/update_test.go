package watch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/transfer"
)

// longRoom is an open MCP room with enough messages to scroll.
func longRoom(t testing.TB, n int) (string, string) {
	cwd := t.TempDir()
	var msgs []fileMsg
	for i := 1; i <= n; i++ {
		seat, kind := "lead", "question"
		if i%2 == 0 {
			seat, kind = "peer", "answer"
		}
		msgs = append(msgs, fileMsg{i, at(float64(i * 10)), seat, "agent-" + seat, kind, "Message number " + strings.Repeat("x", i%7) + " with some words to wrap.\n\nA second paragraph for height.", 0})
	}
	writeRoom(t, cwd, "long", room.Config{Room: "long", Topic: "Scrolling", Budget: 100, CreatedAt: at(0)}, msgs, nil)
	return cwd, "long"
}

func TestKeys(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, m Model)
	}{
		{"follows at start", nil, func(t *testing.T, m Model) {
			if !m.list.follow || m.list.lastShown != len(m.list.items)-1 {
				t.Errorf("follow %v, last shown %d of %d", m.list.follow, m.list.lastShown, len(m.list.items))
			}
		}},
		{"f stops following", []string{"f"}, func(t *testing.T, m Model) {
			if m.list.follow {
				t.Error("still following")
			}
			if !strings.Contains(plain(m), "scrolled (f follows)") {
				t.Error("status does not say so")
			}
		}},
		{"f twice follows again", []string{"f", "f"}, func(t *testing.T, m Model) {
			if !m.list.follow {
				t.Error("not following")
			}
		}},
		{"up stops following", []string{"up"}, func(t *testing.T, m Model) {
			if m.list.follow {
				t.Error("still following after scrolling up")
			}
		}},
		{"g goes to the top", []string{"g"}, func(t *testing.T, m Model) {
			if m.list.follow || m.list.top != (pos{}) || m.list.firstShown != 0 {
				t.Errorf("top %+v, first shown %d", m.list.top, m.list.firstShown)
			}
			if !strings.Contains(plain(m), "#1 ·") {
				t.Error("first message not on screen")
			}
		}},
		{"G goes to the bottom and follows", []string{"g", "G"}, func(t *testing.T, m Model) {
			if !m.list.follow || m.list.lastShown != len(m.list.items)-1 {
				t.Errorf("follow %v, last shown %d", m.list.follow, m.list.lastShown)
			}
		}},
		{"scrolling down to the bottom follows again", []string{"pgup", "pgdown", "pgdown", "pgdown"}, func(t *testing.T, m Model) {
			if !m.list.follow {
				t.Error("not following at the bottom")
			}
		}},
		{"page down from the top moves a page", []string{"g", "pgdown"}, func(t *testing.T, m Model) {
			if m.list.firstShown == 0 && m.list.top.off == 0 {
				t.Error("did not move")
			}
			if m.list.follow {
				t.Error("following after one page down from the top")
			}
		}},
		{"j and k move one line", []string{"g", "j", "j", "k"}, func(t *testing.T, m Model) {
			if m.list.top != (pos{0, 1}) {
				t.Errorf("top %+v, want line 1 of item 0", m.list.top)
			}
		}},
		{"? shows the full help", []string{"?"}, func(t *testing.T, m Model) {
			if !m.help.ShowAll || !strings.Contains(plain(m), "½ page down") {
				t.Error("full help not shown")
			}
		}},
		{"? again hides it", []string{"?", "?"}, func(t *testing.T, m Model) {
			if m.help.ShowAll {
				t.Error("full help still shown")
			}
		}},
		{"s does nothing while the room is open", []string{"s"}, func(t *testing.T, m Model) {
			if m.showSpec {
				t.Error("spec shown for an open room")
			}
			if strings.Contains(plain(m), "s spec") {
				t.Error("help offers s before the room closes")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd, name := longRoom(t, 30)
			m := openModel(t, cwd, name, 80, 24)
			for _, k := range tt.keys {
				m, _ = press(m, k)
			}
			tt.check(t, m)
		})
	}
}

func TestQuit(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	for _, k := range []string{"q", "ctrl+c"} {
		m := openModel(t, cwd, name, 80, 24)
		_, cmd := press(m, k)
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s does not quit", k)
		}
	}
	m, err := New(Options{Cwd: cwd, Room: name, Embedded: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, k := range []string{"q", "esc"} {
		_, cmd := press(m, k)
		if cmd == nil {
			t.Fatalf("embedded %s: no command", k)
		}
		if _, ok := cmd().(DoneMsg); !ok {
			t.Errorf("embedded %s does not send DoneMsg", k)
		}
	}
}

func TestSpec(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	m := openModel(t, cwd, name, 80, 24)
	m, cmd := press(m, "s")
	if !m.showSpec || cmd == nil {
		t.Fatalf("s: showSpec %v, cmd %v", m.showSpec, cmd)
	}
	if !strings.Contains(plain(m), "reading the spec") {
		t.Error("no note while the spec is read")
	}
	m, _ = m.Update(cmd())
	view := plain(m)
	for _, want := range []string{"spec SPEC-retry-policy.md", "Retry policy", "Exponential backoff with full jitter", "esc back"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q missing from the spec view:\n%s", want, view)
		}
	}
	m, _ = press(m, "esc")
	if m.showSpec || !strings.Contains(plain(m), "#4 ·") {
		t.Error("esc did not go back to the messages")
	}
	m, _ = press(m, "s")
	m, _ = press(m, "s")
	if m.showSpec {
		t.Error("s did not toggle back")
	}
}

// TestSpecQ: q is "back" on the spec too, to the messages, standalone or
// embedded; only from the messages does it quit (standalone) or leave
// (embedded). ctrl+c quits from the spec.
func TestSpecQ(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	for _, embedded := range []bool{false, true} {
		m, err := New(Options{Cwd: cwd, Room: name, Embedded: embedded})
		if err != nil {
			t.Fatal(err)
		}
		m, _ = m.Update(tea.WindowSizeMsg{Width: 140, Height: 24})
		m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, m.opts.Room, phaseOpening)())
		m, cmd := press(m, "s")
		m, _ = m.Update(cmd())
		if !m.showSpec || !strings.Contains(plain(m), "q messages") {
			t.Fatalf("embedded %v: the spec does not say q goes to the messages:\n%s", embedded, plain(m))
		}
		m, cmd = press(m, "q")
		if m.showSpec || cmd != nil {
			t.Errorf("embedded %v: q on the spec: showSpec %v, cmd %v", embedded, m.showSpec, cmd)
		}
		m, _ = press(m, "s")
		_, cmd = press(m, "ctrl+c")
		if cmd == nil {
			t.Errorf("embedded %v: ctrl+c on the spec does nothing", embedded)
		} else if msg := cmd(); embedded && msg != (DoneMsg{}) || !embedded && msg != (tea.QuitMsg{}) {
			t.Errorf("embedded %v: ctrl+c on the spec sent %T", embedded, msg)
		}
		_, cmd = press(m, "q")
		if cmd != nil {
			t.Errorf("embedded %v: q on the spec sent a command", embedded)
		}
		m.Close()
	}
}

func TestSpecMissing(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	if err := os.Remove(filepath.Join(cwd, "SPEC-retry-policy.md")); err != nil {
		t.Fatal(err)
	}
	m := openModel(t, cwd, name, 80, 24)
	m, cmd := press(m, "s")
	m, _ = m.Update(cmd())
	if !strings.Contains(plain(m), "cannot show the spec SPEC-retry-policy.md") {
		t.Errorf("no error for a missing spec:\n%s", plain(m))
	}
}

func TestExportAndCopy(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	m := openModel(t, cwd, name, 100, 24)
	for _, tt := range []struct {
		key, ext string
	}{{"e", ".md"}, {"E", ".html"}} {
		var cmd tea.Cmd
		m, cmd = press(m, tt.key)
		if cmd == nil {
			t.Fatalf("%s: no command", tt.key)
		}
		m, _ = m.Update(cmd())
		path := filepath.Join(m.opts.ExportDir, name+"-transcript"+tt.ext)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s: %v", tt.key, err)
		}
		if !strings.HasPrefix(m.status, "Exported the transcript") || !strings.HasSuffix(m.status, path) || !strings.Contains(plain(m), "Exported the transcript") {
			t.Errorf("%s: status %q does not name %s", tt.key, m.status, path)
		}
	}
	m, cmd := press(m, "y")
	msg := cmd()
	cm, ok := msg.(transfer.CopiedMsg)
	if !ok || !strings.Contains(cm.Text, "Exponential, with jitter") {
		t.Fatalf("y produced %#v", msg)
	}
	m, cmd = m.Update(msg)
	if cmd == nil || !strings.Contains(plain(m), "Copied the transcript") {
		t.Errorf("no clipboard command or status after copying:\n%s", plain(m))
	}
}

func TestExportError(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	m := openModel(t, cwd, name, 100, 24)
	m.opts.ExportDir = filepath.Join(t.TempDir(), "gone")
	m, cmd := press(m, "e")
	m, _ = m.Update(cmd())
	if view := flat(m); !strings.Contains(view, "✖ Export failed") || !strings.Contains(view, "not an existing folder") {
		t.Errorf("export error not shown:\n%s", plain(m))
	}
}

func TestKeysDisabledWhileWaiting(t *testing.T) {
	m := openModel(t, t.TempDir(), "not-yet", 80, 24)
	if m.phase != phaseWaiting {
		t.Fatalf("phase %v, want waiting", m.phase)
	}
	for _, k := range []string{"e", "E", "y", "s", "f"} {
		if _, cmd := press(m, k); cmd != nil {
			t.Errorf("%s gives a command before the room exists", k)
		}
	}
	view := plain(m)
	if !strings.Contains(view, "waiting for the first seat") || !strings.Contains(view, `no room "not-yet"`) {
		t.Errorf("waiting view:\n%s", view)
	}
	if strings.Contains(view, "export") {
		t.Error("help offers export before the room exists")
	}
}

func TestForeignMessagesIgnored(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	m := openModel(t, cwd, name, 80, 24)
	before := m.View()
	for _, msg := range []tea.Msg{
		stateMsg{id: m.id + 1000, err: errors.New("not mine")},
		seatsMsg{id: m.id + 1000},
		transfer.ExportedMsg{ID: m.id + 1000, Path: "/elsewhere"},
		tickMsg{id: m.id + 1000},
	} {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		if cmd != nil {
			t.Errorf("%T of another screen gave a command", msg)
		}
	}
	if m.View() != before {
		t.Error("messages of another screen changed the view")
	}
}

func TestReadErrorShownThenCleared(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	m := openModel(t, cwd, name, 80, 24)
	st := m.st
	m, _ = m.Update(stateMsg{id: m.id, err: room.ErrNoRoom})
	if !strings.Contains(flat(m), "is gone (deleted or moved?)") {
		t.Errorf("no error on screen:\n%s", plain(m))
	}
	if !strings.Contains(plain(m), "#4 ·") {
		t.Error("the last messages left the screen")
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if strings.Contains(plain(m), "✖") {
		t.Error("error still shown after a good read")
	}
}

func TestNewMessagesWhileScrolled(t *testing.T) {
	cwd, name := longRoom(t, 10)
	m := openModel(t, cwd, name, 80, 20)
	m, _ = press(m, "g")
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := r.PostMessage(room.Post{Seat: m.st.Turn, Agent: "x", Text: "late arrival"}); err != nil {
			t.Fatal(err)
		}
		st, err := r.State()
		if err != nil {
			t.Fatal(err)
		}
		m.st = st
		m, _ = m.Update(stateMsg{id: m.id, st: st})
	}
	if m.list.firstShown != 0 {
		t.Error("new messages moved a scrolled view")
	}
	if !strings.Contains(plain(m), "2 messages new below (G)") {
		t.Errorf("no note of new messages:\n%s", plain(m))
	}
	m, _ = press(m, "G")
	if m.list.unseen != 0 || !strings.Contains(plain(m), "late arrival") {
		t.Error("G did not show the new messages")
	}
}

func TestResizeKeepsPosition(t *testing.T) {
	cwd, name := longRoom(t, 30)
	m := openModel(t, cwd, name, 80, 24)
	m, _ = press(m, "g")
	for range 5 {
		m, _ = press(m, "pgdown")
	}
	item := m.list.top.item
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if m.list.top.item != item {
		t.Errorf("resize moved from item %d to %d", item, m.list.top.item)
	}
	checkFrame(t, m.View(), 120, 30)
}

func TestNew(t *testing.T) {
	if _, err := New(Options{Room: "../escape"}); !errors.Is(err, room.ErrBadName) {
		t.Errorf("bad name: %v", err)
	}
	if _, err := New(Options{Room: "r", Cwd: filepath.Join(t.TempDir(), "missing")}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing cwd: %v", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	writeFile(t, f, []byte("x"))
	if _, err := New(Options{Room: "r", Cwd: f}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("file as cwd: %v", err)
	}
}

func TestBackgroundColour(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	m := openModel(t, cwd, name, 80, 24)
	dark := m.View()
	m, _ = m.Update(tea.BackgroundColorMsg{Color: lightGrey{}})
	if m.styles.Dark {
		t.Fatal("styles still dark on a light background")
	}
	if m.View() == dark {
		t.Error("the view did not change for a light background")
	}
	if stripANSI(m.View()) != stripANSI(dark) {
		t.Error("the text changed with the background")
	}
}

type lightGrey struct{}

func (lightGrey) RGBA() (r, g, b, a uint32) { return 0xeeee, 0xeeee, 0xeeee, 0xffff }
