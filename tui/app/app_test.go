package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/debateview"
	"github.com/roundtable-dev/roundtable/tui/forms"
	"github.com/roundtable-dev/roundtable/tui/home"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

var fixedNow = time.Date(2026, 11, 30, 14, 20, 0, 0, time.UTC)

func testOptions(t *testing.T) Options {
	return Options{
		Cwd: t.TempDir(), ExportDir: t.TempDir(), Getenv: func(string) string { return "" },
		Now: func() time.Time { return fixedNow }, NoWatch: true, Dark: true, Fast: true,
	}
}

func TestNewChecksOptions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "personas.toml")
	if err := os.WriteFile(bad, []byte("[[persona]]\nname = \"X\"\nnope = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edit  func(o *Options)
		check func(error) bool
	}{
		{"a missing --cwd", func(o *Options) { o.Cwd = filepath.Join(o.Cwd, "nope") }, func(err error) bool { return errors.Is(err, ErrBadCwd) }},
		{"a file as --cwd", func(o *Options) { o.Cwd = file }, func(err error) bool { return errors.Is(err, ErrBadCwd) }},
		{"rounds out of range", func(o *Options) { o.Rounds = 11 }, debate.IsUsage},
		{"a bad persona file", func(o *Options) { o.PersonasFile = bad }, debate.IsUsage},
		{"a bad --agent", func(o *Options) { o.Agents = []string{"no description"} }, debate.IsUsage},
		{"a topic with a provider whose key is missing", func(o *Options) {
			o.Topic = "T"
			o.Provider.Name = "openrouter"
		}, func(err error) bool {
			return errors.Is(err, debate.ErrMissingKey) && strings.Contains(err.Error(), "OPENROUTER_API_KEY")
		}},
		{"an unknown provider with a topic", func(o *Options) {
			o.Topic = "T"
			o.Provider.Name = "nope"
		}, debate.IsUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOptions(t)
			tt.edit(&o)
			m, err := New(o)
			if err == nil {
				m.Close()
				t.Fatal("no error")
			}
			if !tt.check(err) {
				t.Errorf("wrong error: %v", err)
			}
		})
	}
}

// step sends msg to the app and returns the new app and command.
func step(t *testing.T, m Model, msg tea.Msg) (Model, tea.Cmd) {
	t.Helper()
	next, cmd := m.Update(msg)
	am, ok := next.(Model)
	if !ok {
		t.Fatalf("Update returned %T", next)
	}
	return am, cmd
}

func TestRouting(t *testing.T) {
	o := testOptions(t)
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { m.Close() }()
	m, _ = step(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = runAll(t, m, m.Init())
	if m.screen != screenHome {
		t.Fatalf("first screen %d", m.screen)
	}
	if !strings.Contains(m.View().Content, "Welcome to roundtable") {
		t.Errorf("the home screen is not shown:\n%s", m.View().Content)
	}
	v := m.View()
	if !v.AltScreen || v.MouseMode != tea.MouseModeCellMotion {
		t.Error("the app is not full window with the mouse on")
	}

	m, _ = step(t, m, home.NewDebateMsg{})
	if m.screen != screenDebateForm || !strings.Contains(m.View().Content, "New persona debate") {
		t.Fatalf("n: screen %d", m.screen)
	}
	m, _ = step(t, m, forms.BackMsg{})
	m, _ = step(t, m, home.NewRoomMsg{})
	if m.screen != screenRoomForm || !strings.Contains(m.View().Content, "New MCP room") {
		t.Fatalf("m: screen %d", m.screen)
	}
	m, _ = step(t, m, forms.BackMsg{})
	if m.screen != screenHome {
		t.Fatalf("esc: screen %d", m.screen)
	}

	// A finished debate opens as a replay.
	r, _, err := room.Create(o.Cwd, "done-debate", room.CreateOptions{Topic: "Replayed topic", Mode: room.ModeDebate, Agents: []string{"A"}, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Record(room.Post{Seat: "A", Agent: "mock", Kind: debate.KindTurn, Text: "A's turn", Round: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: debate.ReasonComplete}); err != nil {
		t.Fatal(err)
	}
	_, cmd := step(t, m, home.OpenMsg{Room: home.Room{Name: "done-debate", Mode: home.ModeDebate, Closed: true}})
	m, _ = step(t, m, cmd())
	if m.screen != screenDebate || !strings.Contains(m.View().Content, "replay · complete") {
		t.Fatalf("replay: screen %d\n%s", m.screen, m.View().Content)
	}
	m, _ = step(t, m, debateview.BackMsg{})

	// An MCP room opens in the watch screen, and q there comes back.
	if _, _, err := room.Create(o.Cwd, "mcp-room", room.CreateOptions{Topic: "Watched", Budget: 4}); err != nil {
		t.Fatal(err)
	}
	_, cmd = step(t, m, home.OpenMsg{Room: home.Room{Name: "mcp-room", Mode: home.ModeMCP}})
	m, _ = step(t, m, cmd())
	if m.screen != screenWatch || m.watch == nil {
		t.Fatalf("watch: screen %d", m.screen)
	}
	m, _ = step(t, m, watch.DoneMsg{})
	if m.screen != screenHome || m.watch != nil {
		t.Fatalf("back from watch: screen %d", m.screen)
	}
	// ctrl+c in the watch screen quits the app rather than going home.
	m, _ = step(t, m, forms.WatchMsg{Room: "mcp-room"})
	_, cmd = step(t, m, tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("ctrl+c in the watch screen does not quit")
	}
	m, _ = step(t, m, watch.DoneMsg{})

	// A bad room name cannot be watched: the home screen says why.
	m, _ = step(t, m, forms.WatchMsg{Room: "../x"})
	if m.screen != screenHome || !strings.Contains(m.View().Content, "Cannot watch room") {
		t.Errorf("bad watch: screen %d\n%s", m.screen, m.View().Content)
	}
}

func TestTopicStartsTheDebate(t *testing.T) {
	o := testOptions(t)
	o.Topic = "Should we adopt GraphQL"
	o.Rounds = 1
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if m.screen != screenDebate {
		t.Fatalf("screen %d", m.screen)
	}
	// Run the app as a program without a terminal until the verdict.
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(os.Stderr), tea.WithoutRenderer(), tea.WithContext(o.Context))
	done := make(chan tea.Model, 1)
	go func() {
		final, _ := p.Run()
		done <- final
	}()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	deadline := time.Now().Add(20 * time.Second)
	for {
		rooms, _ := home.List(o.Cwd)
		if len(rooms) == 1 && rooms[0].Closed {
			break
		}
		if time.Now().After(deadline) {
			p.Kill()
			t.Fatal("the debate did not end")
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})        // back to the home screen
	p.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}) // and out, from either screen
	final := (<-done).(Model)
	final.Close()
	rooms, err := home.List(o.Cwd)
	if err != nil || len(rooms) != 1 || rooms[0].Status() != "done" || rooms[0].Used != 1 {
		t.Fatalf("rooms %+v err %v", rooms, err)
	}
}

// runAll runs cmd (a batch too) and feeds what it sends to the app.
func runAll(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			m = runAll(t, m, c)
		}
		return m
	}
	if msg != nil {
		m, _ = step(t, m, msg)
	}
	return m
}
