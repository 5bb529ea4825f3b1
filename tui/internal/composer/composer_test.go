package composer

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func press(m Model, keys ...tea.KeyPressMsg) (Model, Result) {
	var res Result
	for _, k := range keys {
		m, _, res = m.Update(k)
	}
	return m, res
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m, _, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

func TestSendTrimsAndClears(t *testing.T) {
	m := New("say something")
	m.Open("Note to the panel")
	m = typeText(m, "  focus on cost ")
	m, res := press(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if res.Outcome != Sent || res.Text != "focus on cost" {
		t.Fatalf("enter gave %+v, want Sent %q", res, "focus on cost")
	}
	if m.IsOpen() || m.Value() != "" || m.Height() != 0 {
		t.Fatalf("after send: open=%v value=%q height=%d", m.IsOpen(), m.Value(), m.Height())
	}
}

func TestEmptyTextIsNotSent(t *testing.T) {
	m := New("")
	m.Open("t")
	m = typeText(m, "   ")
	m, res := press(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if res.Outcome != None || !m.IsOpen() {
		t.Fatalf("blank enter gave %+v open=%v", res, m.IsOpen())
	}
}

func TestEscKeepsDraftAndNewlineGrows(t *testing.T) {
	m := New("")
	m.SetWidth(40)
	m.Open("t")
	m = typeText(m, "one")
	h1 := m.Height()
	m, _ = press(m, tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	m = typeText(m, "two")
	if m.Value() != "one\ntwo" {
		t.Fatalf("value %q, want two lines", m.Value())
	}
	if m.Height() <= h1 {
		t.Fatalf("height %d did not grow from %d with a second line", m.Height(), h1)
	}
	m, res := press(m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if res.Outcome != Cancelled || m.IsOpen() {
		t.Fatalf("esc gave %+v open=%v", res, m.IsOpen())
	}
	m.Open("again")
	if m.Value() != "one\ntwo" {
		t.Fatalf("draft lost: %q", m.Value())
	}
	if v := m.View(); !strings.Contains(v, "again") || !strings.Contains(v, "two") {
		t.Fatalf("view lacks title or text:\n%s", v)
	}
}

func TestClosedIgnoresKeys(t *testing.T) {
	m := New("")
	m = typeText(m, "x")
	if m.Value() != "" || m.View() != "" {
		t.Fatalf("closed composer took keys: %q", m.Value())
	}
}

// TestEditorRoundTrip: ctrl+e writes the text to a file in a command (no
// I/O in Update), the editor ($EDITOR, here a script appending a line)
// edits it, and the edited text comes back into the composer.
func TestEditorRoundTrip(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ed.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '\\nsecond line\\n' >> \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script)
	m := New("")
	m.Open("t")
	m = typeText(m, "first")
	m, cmd, _ := m.Update(tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+e gave no command")
	}
	ready := cmd()
	if _, ok := ready.(editReadyMsg); !ok {
		t.Fatalf("the first command gave %T, want the file written", ready)
	}
	m, cmd, _ = m.Update(ready)
	if cmd == nil {
		t.Fatal("no editor command")
	}
	// tea.ExecProcess is run by the program; run the editor as it would.
	path := ready.(editReadyMsg).path
	if err := exec.Command(script, path).Run(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, _, _ = m.Update(editedMsg{id: m.id, text: string(data)})
	if got := m.Value(); got != "first\nsecond line" {
		t.Fatalf("after the editor: %q", got)
	}
	_ = os.Remove(path)
}

// TestEditorRunHoldsTheSuspension: an editor that returns at once still
// keeps the screen suspended MinSuspend (the Bubble Tea render-loop race),
// its failure comes back, and the terminal goes only where the command
// set nothing itself.
func TestEditorRunHoldsTheSuspension(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	e := &editorRun{Cmd: exec.Command(sh, "-c", "echo hi; exit 3"), least: 200 * time.Millisecond}
	e.SetStdin(strings.NewReader(""))
	e.SetStdout(&out)
	e.SetStderr(&out)
	start := time.Now()
	err = e.Run()
	took := time.Since(start)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("the editor's failure came back as %v", err)
	}
	if took < 200*time.Millisecond {
		t.Fatalf("the suspension lasted %v, want at least 200ms", took)
	}
	if out.String() != "hi\n" {
		t.Fatalf("the editor wrote %q to the terminal, want %q", out.String(), "hi\n")
	}
	var own strings.Builder
	e2 := &editorRun{Cmd: exec.Command(sh, "-c", "echo own")}
	e2.Stdout = &own
	e2.SetStdout(&out)
	if err := e2.Run(); err != nil {
		t.Fatal(err)
	}
	if own.String() != "own\n" {
		t.Fatalf("a command's own stdout was replaced: %q", own.String())
	}
}
