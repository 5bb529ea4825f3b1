package app

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
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
		Cwd: t.TempDir(), ExportDir: t.TempDir(), Debate: debate.Settings{Getenv: func(string) string { return "" }},
		Now: func() time.Time { return fixedNow }, NoWatch: true, Dark: true,
	}
}

func TestNewChecksOptions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edit  func(o *Options)
		check func(error) bool
	}{
		{"a missing --cwd", func(o *Options) { o.Cwd = filepath.Join(o.Cwd, "nope") }, func(err error) bool { return errors.Is(err, ErrBadCwd) }},
		{"a file as --cwd", func(o *Options) { o.Cwd = file }, func(err error) bool { return errors.Is(err, ErrBadCwd) }},
		{"rounds out of range with a topic", func(o *Options) {
			o.Debate.Config.Topic = "T"
			o.Debate.Config.Rounds = 11
		}, debate.IsUsage},
		{"a bad room name with a topic", func(o *Options) {
			o.Debate.Config.Topic = "T"
			o.Debate.Room = "../x"
		}, debate.IsUsage},
		{"a topic with a provider whose key is missing", func(o *Options) {
			o.Debate.Config.Topic = "T"
			o.Debate.Provider.Name = "openrouter"
		}, func(err error) bool {
			return errors.Is(err, debate.ErrMissingKey) && strings.Contains(err.Error(), "OPENROUTER_API_KEY")
		}},
		{"an unknown provider with a topic", func(o *Options) {
			o.Debate.Config.Topic = "T"
			o.Debate.Provider.Name = "nope"
		}, debate.IsUsage},
		{"an unknown provider without a topic (the home screen)", func(o *Options) {
			o.Debate.Provider.Name = "nope"
		}, func(err error) bool {
			return debate.IsUsage(err) && strings.Contains(err.Error(), `unknown provider "nope"; use one of mock, openrouter, openai, ollama`)
		}},
		{"a base URL without its port with a topic", func(o *Options) {
			o.Debate.Config.Topic = "T"
			o.Debate.Provider = debate.ProviderConfig{Name: "ollama", BaseURL: "http://127.0.0.1:/v1"}
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
			if fi, err := os.Stat(o.Cwd); err == nil && fi.IsDir() {
				if _, err := os.Stat(filepath.Join(o.Cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a refused start created %s", room.Folder)
				}
			}
		})
	}
}

// TestHomeWithoutAKey: a known provider whose key is missing still opens
// the home screen (its form says what is missing when a debate starts).
func TestHomeWithoutAKey(t *testing.T) {
	o := testOptions(t)
	o.Debate.Provider.Name = "openrouter"
	o.Debate.Getenv = func(string) string { return "" }
	m, err := New(o)
	if err != nil {
		t.Fatalf("the home screen was refused: %v", err)
	}
	m.Close()
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
	o.Debate.Config.Topic = "Should we adopt GraphQL"
	o.Debate.Config.Rounds = 1
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

// TestPanelOf: the form shown again after a failed start has exactly the
// debate's personas on, in its speaking order, keeping the panel's order
// when it can.
func TestPanelOf(t *testing.T) {
	panel, err := debate.LoadPanel(debate.PanelOptions{Agents: []string{"Cost Optimizer=a finance-minded reviewer"}})
	if err != nil {
		t.Fatal(err)
	}
	names := func(p debate.Panel) (all, on []string) {
		for _, c := range p.Personas {
			all = append(all, c.Name)
			if c.Enabled {
				on = append(on, c.Name)
			}
		}
		return all, on
	}
	ps := panel.Enabled() // PM, Architect, Security, Cost Optimizer
	for _, tt := range []struct {
		on       []debate.Persona
		all, got string
	}{
		{nil, "Product Manager,Software Architect,Security Reviewer,Cost Optimizer", "Product Manager,Software Architect,Security Reviewer,Cost Optimizer"},
		{[]debate.Persona{ps[0], ps[3]}, "Product Manager,Software Architect,Security Reviewer,Cost Optimizer", "Product Manager,Cost Optimizer"},
		{[]debate.Persona{ps[3], ps[0]}, "Cost Optimizer,Product Manager,Software Architect,Security Reviewer", "Cost Optimizer,Product Manager"},
		{[]debate.Persona{{Name: "Guest", Persona: "from a saved room"}, ps[1]}, "Guest,Software Architect,Product Manager,Security Reviewer,Cost Optimizer", "Guest,Software Architect"},
	} {
		all, on := names(panelOf(panel, tt.on))
		if strings.Join(all, ",") != tt.all || strings.Join(on, ",") != tt.got {
			t.Errorf("panelOf(%v): list %v, on %v", tt.on, all, on)
		}
	}
	if on := panelOf(panel, ps[:1]).Enabled(); len(on) != 1 || !reflect.DeepEqual(on[0], ps[0]) {
		t.Errorf("the speaking order of one persona: %v", on)
	}
}

// TestFormStartsThroughStart: the form's start goes through debate.Start
// while the form stays; a refusal comes back to the form as a sentence,
// a start opens the debate screen on the running debate.
func TestFormStartsThroughStart(t *testing.T) {
	o := testOptions(t)
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { m.Close() }()
	m, _ = step(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = step(t, m, home.NewDebateMsg{})

	s := m.opts.Debate
	s.Config.Topic = "Should we adopt GraphQL"
	s.Provider = debate.ProviderConfig{Name: debate.ProviderOllama, BaseURL: "http://127.0.0.1:9/v1"}
	m, cmd := step(t, m, forms.StartMsg{Settings: s})
	if m.screen != screenDebateForm || cmd == nil {
		t.Fatalf("the start left the form: screen %d", m.screen)
	}
	m, _ = step(t, m, cmd())
	if v := m.View().Content; m.screen != screenDebateForm || !strings.Contains(strings.Join(strings.Fields(v), " "), "Ollama at http://127.0.0.1:9 is not answering") {
		t.Fatalf("screen %d:\n%s", m.screen, v)
	}

	s.Provider = debate.ProviderConfig{Name: debate.ProviderMock}
	s.Config.Rounds = 1
	m, cmd = step(t, m, forms.StartMsg{Settings: s})
	m, _ = step(t, m, cmd())
	if m.screen != screenDebate {
		t.Fatalf("a started debate is not shown: screen %d", m.screen)
	}
	m = runAll(t, m, m.debate.Init()) // hands the session in
	if r := m.debate.Room(); r == nil || !m.debate.Running() {
		t.Fatalf("the debate screen has no running debate")
	}
}

// TestOpenDebateRunningElsewhere: a debate room that another process runs
// (its run lock held) opens in the debate screen, following the room, not
// in the watch screen, and is left open.
func TestOpenDebateRunningElsewhere(t *testing.T) {
	o := testOptions(t)
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { m.Close() }()
	m, _ = step(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	r, _, err := room.Create(o.Cwd, "running", room.CreateOptions{Topic: "Followed topic", Mode: room.ModeDebate, Agents: []string{"A", "B"}, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = run.Unlock() }()
	if _, err := r.Record(room.Post{Seat: "A", Agent: "mock", Kind: debate.KindTurn, Text: "A's first turn", Round: 1}); err != nil {
		t.Fatal(err)
	}
	_, cmd := step(t, m, home.OpenMsg{Room: home.Room{Name: "running", Mode: home.ModeDebate}})
	m, _ = step(t, m, cmd())
	v := m.View().Content
	if m.screen != screenDebate || !strings.Contains(v, "in another process") || !strings.Contains(v, "A's first turn") {
		t.Fatalf("a debate run elsewhere: screen %d\n%s", m.screen, v)
	}
	if st, _ := r.State(); st.Closed != nil {
		t.Errorf("opening a running debate closed its room: %+v", st.Closed)
	}
	m, _ = step(t, m, debateview.BackMsg{})
	if m.screen != screenHome {
		t.Fatalf("back: screen %d", m.screen)
	}
}
