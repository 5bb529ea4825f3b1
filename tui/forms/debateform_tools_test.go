package forms

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestDebateFormAgentTools: the tools row shows only once an agent speaks
// for a persona switched on; tab passes over it before. ←/→ go through
// read-only, write, exec and write,exec, in --allow-agent-tools' words,
// and the debate started carries the choice for every agent.
func TestDebateFormAgentTools(t *testing.T) {
	f := newTestDebateForm(80, 24)
	f, _ = pressAll(f, typeText(nil, "Split the store")...)
	f, _ = pressAll(f, "tab", "tab")
	if v := plain(f.View()); strings.Contains(v, "Agent tools") {
		t.Fatalf("a panel of models shows the agents' tools:\n%s", v)
	}
	if f, _ := pressAll(f, "tab"); f.focus != fieldProvider {
		t.Fatalf("tab from the personas went to %d, want the provider", f.focus)
	}
	f, _ = pressAll(f, "down", "a", "tab")
	if f.focus != fieldTools {
		t.Fatalf("with an agent, tab from the personas went to %d, want the tools", f.focus)
	}
	v := plain(f.View())
	if !strings.Contains(v, "▸ Agent tools ◂ read-only ▸   for every agent: write edits, exec runs commands") {
		t.Fatalf("the tools row:\n%s", v)
	}
	if !strings.Contains(v, "←/→ agent tools") || !strings.Contains(v, "q/esc back") {
		t.Errorf("the help does not name the tools' keys:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines on a 24-line screen", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d cells: %q", n, l)
		}
	}
	var names []string
	for range 4 {
		f, _ = pressAll(f, "right")
		names = append(names, toolsName(f.tools))
	}
	if got := strings.Join(names, " "); got != "write exec write,exec read-only" {
		t.Errorf("→ went through %s", got)
	}
	f, _ = pressAll(f, "left")
	if f.tools != debate.AllowWrite|debate.AllowExec {
		t.Errorf("← from read-only: %q", f.tools)
	}
	f, _ = pressAll(f, "left", "left")
	if f.tools != debate.AllowWrite {
		t.Fatalf("tools %q", f.tools)
	}
	f, msg := pressAll(f, "ctrl+s")
	start, ok := msg.(StartMsg)
	if !ok {
		t.Fatalf("ctrl+s sent %#v (%q)", msg, f.err)
	}
	if got := start.Settings.AgentTools; got != debate.AllowWrite {
		t.Errorf("the debate's tools: %q, want write", got)
	}
	// The agent switched off again: the row goes, and tab passes it by.
	f.StartFailed(errors.New("not now"))
	f.focusField(fieldPersonas)
	f, _ = f.Update(nil)
	f, _ = pressAll(f, "space", "tab")
	if f.focus != fieldProvider || strings.Contains(plain(f.View()), "Agent tools") {
		t.Errorf("with the agent's persona off: focus %d\n%s", f.focus, plain(f.View()))
	}
}

// TestDebateFormAgentToolsFromFlags: --allow-agent-tools fills the row in,
// and a moderator spoken for by an agent shows it.
func TestDebateFormAgentToolsFromFlags(t *testing.T) {
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	panel.Moderator.Agent = []string{"acp:codex"}
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{Getenv: noEnv, AgentTools: debate.AllowExec, Config: debate.Config{Topic: "T"}}})
	f, _ = f.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if !strings.Contains(plain(f.View()), "Agent tools ◂ exec ▸   one setting for every agent (--allow-agent-tools)") {
		t.Errorf("the flag's tools are not shown:\n%s", plain(f.View()))
	}
	_, cmd := f.Update(press("ctrl+s"))
	if start, ok := cmd().(StartMsg); !ok || start.Settings.AgentTools != debate.AllowExec {
		t.Errorf("the flag's tools were not carried to the debate: %#v", cmd())
	}
}

// TestFormsQOnNonTextFields (issue 21): q goes back on a field with
// nothing to type, as the help says, and is a letter in a text field.
func TestFormsQOnNonTextFields(t *testing.T) {
	isBack := func(msg tea.Msg) bool { _, ok := msg.(BackMsg); return ok }
	// The debate form, an agent on the second persona so the tools show.
	df := newTestDebateForm(120, 40)
	df, _ = pressAll(df, "tab", "tab", "down", "a", "shift+tab", "shift+tab")
	for _, field := range []debateField{fieldRounds, fieldPersonas, fieldTools, fieldProvider, fieldPause, fieldStart} {
		f := df
		f.focusField(field)
		f, _ = f.Update(nil) // the keys of the field
		if !strings.Contains(plain(f.View()), "q/esc back") {
			t.Errorf("debate field %d: the help does not say q goes back", field)
		}
		if _, msg := pressAll(f, "q"); !isBack(msg) {
			t.Errorf("debate field %d: q sent %#v, want back", field, msg)
		}
	}
	for _, field := range []debateField{fieldTopic, fieldCost, fieldTokens} {
		f := df
		f.focusField(field)
		f, _ = f.Update(nil)
		if v := plain(f.View()); strings.Contains(v, "q/esc back") || !strings.Contains(v, "esc back") {
			t.Errorf("debate field %d: the help says q goes back from a text field", field)
		}
		if _, msg := pressAll(f, "q"); isBack(msg) {
			t.Errorf("debate field %d: q went back from a text field", field)
		}
	}
	f := df
	f.focusField(fieldProvider)
	if f, _ := pressAll(f, "shift+tab", "tab", "right", "tab", "q"); f.focus != fieldModel || f.model.Value() != "q" {
		t.Errorf("q in the model field: focus %d, model %q", f.focus, f.model.Value())
	}

	// The room form: the lead an agent roundtable drives.
	rf, _ := newTestRoomForm(t, 120, 40)
	rf.focusField(roomLeadMind)
	rf, _ = drive(rf, "left")
	for _, field := range []roomField{roomBudget, roomLeadMind, roomLeadAgent, roomLeadTools, roomPeerMind, roomCreate} {
		f := rf
		f.focusField(field)
		f, _ = f.Update(nil)
		if !strings.Contains(plain(f.View()), "q/esc back") {
			t.Errorf("room field %d: the help does not say q goes back", field)
		}
		if _, msgs := drive(f, "q"); len(msgs) != 1 || !isBack(msgs[0]) {
			t.Errorf("room field %d: q sent %#v, want back", field, msgs)
		}
	}
	for _, field := range []roomField{roomName, roomTopic, roomSpec, roomLeadPersona, roomPeer} {
		f := rf
		f.focusField(field)
		f, _ = f.Update(nil)
		f, msgs := drive(f, "q")
		if len(msgs) > 0 && isBack(msgs[0]) || f.inputs[field].Value() != "q" {
			t.Errorf("room field %d: q sent %#v, typed %q", field, msgs, f.inputs[field].Value())
		}
	}
}
