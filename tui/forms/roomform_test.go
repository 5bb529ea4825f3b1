package forms

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// The fields of the default two seats, as the tests name them.
var (
	roomLeadMind     = seatField(0, kindMind)
	roomLeadAgent    = seatField(0, kindAgent)
	roomLeadCommand  = seatField(0, kindCommand)
	roomLeadPersona  = seatField(0, kindPersona)
	roomLeadTools    = seatField(0, kindTools)
	roomPeerMind     = seatField(1, kindMind)
	roomPeer         = seatField(1, kindLabel)
	roomPeerProvider = seatField(1, kindProvider)
	roomPeerPersona  = seatField(1, kindPersona)
)

func newTestRoomForm(t *testing.T, w, h int) (RoomForm, string) {
	cwd := fixedDir(t) // the commands page wraps around its path
	f := NewRoomForm(RoomOptions{Cwd: cwd, Dark: true, Program: "roundtable"})
	f, _ = f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return f, cwd
}

// drive presses keys, running the commands that create the room.
func drive(f RoomForm, keys ...string) (RoomForm, []tea.Msg) {
	var msgs []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		f, cmd = f.Update(press(k))
		for cmd != nil {
			msg := cmd()
			msgs = append(msgs, msg)
			cmd = nil
			if s, ok := msg.(seededMsg); ok {
				f, cmd = f.Update(s)
			}
		}
	}
	return f, msgs
}

// clipboard is the text a tea.SetClipboard message carries.
func clipboard(msg tea.Msg) (string, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.String || !strings.Contains(fmt.Sprintf("%T", msg), "Clipboard") {
		return "", false
	}
	return v.String(), true
}

func TestRoomForm(t *testing.T) {
	f, cwd := newTestRoomForm(t, 120, 40)
	keys := append([]string{"tab"}, typeText(nil, "Should the cache be write-through?")...)
	keys = append(keys, "tab", "right", "right", "ctrl+s")
	f, _ = drive(f, keys...)
	if !f.Ready() {
		t.Fatalf("not ready: err %q", f.err)
	}
	r, err := room.Open(cwd, "should-the-cache-be-write-through")
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Config(); c.Topic != "Should the cache be write-through?" || c.Budget != DefaultBudget+2 {
		t.Errorf("room.json %+v", c)
	}
	for _, p := range f.res.Prompts {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("prompt not written: %v", err)
		}
	}
	if !strings.Contains(f.res.PromptTexts[0], "should-the-cache-be-write-through") {
		t.Error("the lead prompt does not name the room")
	}
	v := plain(f.View())
	for _, want := range []string{
		"claude mcp add roundtable-should-the-cache-be-", // the room part is cut to fit a tool name
		"codex mcp add roundtable-should-the-cache-be-",
		"--room=should-the-cache-be-write-through", "--seat=lead", "--seat=peer",
		"lead.md", "peer.md",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the page lacks %q:\n%s", want, v)
		}
	}

	_, msgs := drive(f, "1")
	text, ok := clipboard(msgs[0])
	lead := f.res.seat(0)
	if want := seatcmd.Shell(seatcmd.ClaudeCode.Argv(lead)); !ok || text != want {
		t.Errorf("1 copied %q (%T), want %q", text, msgs[0], want)
	}
	_, msgs = drive(f, "2")
	if text, _ := clipboard(msgs[0]); !strings.HasPrefix(text, "codex mcp add ") || !strings.Contains(text, "--seat=peer") {
		t.Errorf("2 copied %q", text)
	}
	_, msgs = drive(f, "y")
	if text, _ := clipboard(msgs[0]); !strings.Contains(text, "--seat=peer") || !strings.Contains(text, "lead.md") {
		t.Errorf("y copied %q", text)
	}
	_, msgs = drive(f, "enter")
	if w, ok := msgs[0].(WatchMsg); !ok || w.Room != "should-the-cache-be-write-through" {
		t.Errorf("enter sent %#v", msgs[0])
	}
}

func TestRoomFormErrors(t *testing.T) {
	f, _ := newTestRoomForm(t, 120, 40)
	f, msgs := drive(f, "ctrl+s")
	if len(msgs) != 0 || !strings.Contains(f.err, "Write the topic first") || f.focus != roomTopic {
		t.Errorf("no topic: msgs %v err %q focus %d", msgs, f.err, f.focus)
	}
	keys := append([]string{"shift+tab"}, typeText(nil, "../etc")...)
	f, _ = drive(f, append(append(keys, "tab"), typeText(nil, "T")...)...)
	f, msgs = drive(f, "ctrl+s")
	if len(msgs) != 0 || f.Ready() || !strings.Contains(f.err, "bad room name") || f.focus != roomName {
		t.Errorf("bad name: ready %v err %q focus %d msgs %v", f.Ready(), f.err, f.focus, msgs)
	}
}

func TestRoomFormExisting(t *testing.T) {
	f, cwd := newTestRoomForm(t, 120, 40)
	if _, _, err := room.Create(cwd, "taken", room.CreateOptions{Topic: "The first topic", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	keys := append(typeText(nil, "taken"), "tab")
	keys = append(append(keys, typeText(nil, "Another topic")...), "ctrl+s")
	f, _ = drive(f, keys...)
	if !f.Ready() || !f.existed || f.res.Topic != "The first topic" || f.res.Budget != 3 {
		t.Fatalf("ready %v existed %v res %+v", f.Ready(), f.existed, f.res)
	}
	if !strings.Contains(plain(f.View()), "already existed") {
		t.Errorf("the page does not say the room existed:\n%s", plain(f.View()))
	}
}

// TestRoomFormReadyTitleKeepsItsWords: at 60 columns a room named from a
// long topic gives way in the title, with an ellipsis; "is ready" stays
// whole (cut, it read "is read").
func TestRoomFormReadyTitleKeepsItsWords(t *testing.T) {
	f, _ := newTestRoomForm(t, 60, 20)
	keys := append(typeText(nil, "cache-the-pricing-api-in-redis"), "tab")
	keys = append(keys, typeText(nil, "Cache the pricing API in Redis?")...)
	f, _ = drive(f, keys...)
	f, _ = drive(f, "ctrl+s")
	title := strings.SplitN(plain(f.View()), "\n", 2)[0]
	if !strings.HasSuffix(strings.TrimRight(title, " "), "… is ready") || !strings.Contains(title, "MCP room cache-the-pricing") {
		t.Fatalf("title %q: want the room's name cut with … and \"is ready\" whole", title)
	}
	if w := len([]rune(title)); w != 60 {
		t.Fatalf("title is %d cells wide, want 60: %q", w, title)
	}
}

func TestRoomFormView(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{60, 20}, {80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			f, cwd := newTestRoomForm(t, sz.w, sz.h)
			keys := append(typeText(nil, "cache"), "tab")
			keys = append(keys, typeText(nil, "Should the cache be write-through?")...)
			f, _ = drive(f, keys...)
			golden(t, fmt.Sprintf("room-%dx%d", sz.w, sz.h), plain(f.View()))
			keytest.KeyBar(t, plain(f.View()), "ctrl+s create", "esc back")
			f, _ = drive(f, "ctrl+s")
			if sz.w > 60 { // narrower, a cut path of the test's own folder shows
				golden(t, fmt.Sprintf("commands-%dx%d", sz.w, sz.h), normalize(plain(f.View()), cwd))
			}
			keytest.KeyBar(t, plain(f.View()), "copy", "enter watch", "q/esc home")
		})
	}
}

// TestRoomNamePlaceholderFits: the empty name field says what empty does
// at every width; at 60 columns the long placeholder was cut after "(empty:
// made from", losing its point.
func TestRoomNamePlaceholderFits(t *testing.T) {
	for _, c := range []struct {
		w    int
		want string
	}{{60, "empty: made from the topic"}, {120, namePlaceholder}} {
		f, _ := newTestRoomForm(t, c.w, 24)
		var line string
		for _, l := range strings.Split(plain(f.View()), "\n") {
			if strings.Contains(l, "Name") {
				line = l
				break
			}
		}
		if !strings.Contains(line, c.want) {
			t.Errorf("at %d columns the name line is %q; want %q", c.w, line, c.want)
		}
	}
}
