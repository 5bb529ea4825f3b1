package composer

import (
	"errors"
	"fmt"
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

// pasteText is n characters of prose with no line break (a break would be
// enter, which sends).
func pasteText(n int) string {
	const words = "the upload streams in chunks of one megabyte; each is checked before the next — ünïcode too. "
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words)
	}
	r := []rune(b.String())
	for len(string(r)) > n {
		r = r[:len(r)-1]
	}
	return string(r)
}

// TestLongPasteKeyByKey: 70 KB typed as one key message a character (a
// terminal without bracketed paste) ends as the whole text, once the
// screen draws it (View) and sends it. The textarea alone re-wraps the
// whole text on each key, so this never finished in the test's time.
func TestLongPasteKeyByKey(t *testing.T) {
	text := pasteText(70 << 10)
	m := New("")
	m.SetWidth(80)
	m.Open("Your turn")
	var cmds int
	for i, r := range text {
		var cmd tea.Cmd
		m, cmd, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		if cmd != nil {
			cmds++
			if msg := cmd(); msg != nil && i%4096 == 0 {
				m, _, _ = m.Update(msg) // the program delivers the sync now and then
			}
		}
	}
	if cmds == 0 {
		t.Fatal("no key asked for the box to be brought up to date")
	}
	if got := m.Value(); got != text {
		t.Fatalf("the composer holds %d bytes, want %d", len(got), len(text))
	}
	if h := m.Height(); h != DefaultMaxRows+2 {
		t.Fatalf("height %d after 70 KB, want the most (%d)", h, DefaultMaxRows+2)
	}
	tail := []rune(text)
	if v := m.View(); !strings.Contains(v, string(tail[len(tail)-20:])) {
		t.Fatalf("the view does not end at the cursor (the text's end):\n%s", v)
	}
	m, res := press(m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if res.Outcome != Sent || res.Text != strings.TrimSpace(text) {
		t.Fatalf("enter sent %d bytes (outcome %v), want %d", len(res.Text), res.Outcome, len(strings.TrimSpace(text)))
	}
}

// TestTypedThenEditedKeepsOrder: plain keys typed straight in and keys the
// textarea handles (cursor moves, backspace) keep their order.
func TestTypedThenEditedKeepsOrder(t *testing.T) {
	m := New("")
	m.Open("t")
	m = typeText(m, "abcd")
	m, _ = press(m, tea.KeyPressMsg{Code: tea.KeyLeft}, tea.KeyPressMsg{Code: tea.KeyLeft}, tea.KeyPressMsg{Code: tea.KeyBackspace})
	m = typeText(m, "XY")
	if m.Value() != "aXYcd" {
		t.Fatalf("value %q, want %q", m.Value(), "aXYcd")
	}
	long := pasteText(300)
	m = typeText(m, long)
	if h := m.Height(); h <= 3 {
		t.Fatalf("height %d after 300 characters at width 60, want it grown", h)
	}
}

// BenchmarkPasteKey is one key of a long paste typed key by key, at the
// text lengths in its name: the cost per key stays flat as the text grows
// (the screen's View, which walks the whole text, runs once a frame).
func BenchmarkPasteKey(b *testing.B) {
	for _, n := range []int{1 << 10, 16 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("text-%dKB", n>>10), func(b *testing.B) {
			m := New("")
			m.SetWidth(80)
			m.Open("t")
			m.SetValue(pasteText(n))
			m.Height()
			k := tea.KeyPressMsg{Code: 'a', Text: "a"}
			b.ResetTimer()
			for range b.N {
				m, _, _ = m.Update(k)
			}
		})
	}
}
