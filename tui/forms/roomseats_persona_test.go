//go:build unix

package forms

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestRoomFormSeatPersonaAndTools: a seat roundtable plays gets a persona
// field, and an ACP agent's seat a tools field as well (a model has no
// tools); an MCP seat has neither.
func TestRoomFormSeatPersonaAndTools(t *testing.T) {
	f, _, _ := newSeatsForm(t, fakeSeat(t, "exit 0"), map[string]string{"ROUNDTABLE_PROVIDER": "mock"})
	has := func(r roomField) bool { return slices.Contains(f.visible(), r) }
	if has(roomLeadPersona) || has(roomLeadTools) {
		t.Fatal("an MCP seat shows a persona or tools")
	}
	f.focusField(roomLeadMind)
	f, _ = f.Update(nil) // the field's keys
	f, _, _ = driveSeats(t, f, "right")
	if !has(roomLeadPersona) || has(roomLeadTools) {
		t.Fatalf("a model's seat: persona %v, tools %v", has(roomLeadPersona), has(roomLeadTools))
	}
	if v := plain(f.View()); !strings.Contains(v, "persona   Name=who they are (empty: none)") || strings.Contains(v, "tools") {
		t.Errorf("a model's seat:\n%s", v)
	}
	f, _, _ = driveSeats(t, f, "right")
	if !has(roomLeadPersona) || !has(roomLeadTools) {
		t.Fatalf("an agent's seat: persona %v, tools %v", has(roomLeadPersona), has(roomLeadTools))
	}
	// agent, persona, tools: ←/→ go through the --allow-agent-tools values.
	f, _, _ = driveSeats(t, f, "tab", "tab", "tab")
	if f.focus != roomLeadTools {
		t.Fatalf("focus %d, want the lead's tools", f.focus)
	}
	for _, want := range []string{"write", "exec", "write,exec", "read-only"} {
		f, _, _ = driveSeats(t, f, "right")
		if v := plain(f.View()); !strings.Contains(v, "▸   tools     ◂ "+want+" ▸") {
			t.Errorf("→ does not show %s:\n%s", want, v)
		}
	}
	if v := plain(f.View()); !strings.Contains(v, "Beyond reading (--allow-agent-tools): write edits files, exec runs commands.") {
		t.Errorf("the tools' hint:\n%s", v)
	}
	f, _, _ = driveSeats(t, f, "left")
	if f.seatChoices[0].tools != debate.AllowWrite|debate.AllowExec {
		t.Errorf("← from read-only: %q", f.seatChoices[0].tools)
	}
}

// TestRoomFormSeatPersonaRefused: a persona without a description is
// refused with the --persona flag's sentence, whole under the field on an
// 80-column screen; no room is created and no seat started. Typing clears
// it.
func TestRoomFormSeatPersonaRefused(t *testing.T) {
	f, g, cwd := newSeatsForm(t, fakeSeat(t, "exec sleep 600"), map[string]string{"ROUNDTABLE_PROVIDER": "mock"})
	keys := append(typeText(nil, "cache"), "tab")
	keys = append(keys, typeText(nil, "Write-through?")...)
	keys = append(keys, "tab", "tab", "tab", "tab", "right", "right", "tab", "tab")
	keys = append(keys, typeText(nil, "Security Reviewer")...)
	keys = append(keys, "tab", "tab", "ctrl+s")
	f, _, _ = driveSeats(t, f, keys...)
	if f.Ready() || f.focus != roomLeadPersona || f.errAt != roomLeadPersona {
		t.Fatalf("ready %v, focus %d, error at %d: %q", f.Ready(), f.focus, f.errAt, f.err)
	}
	_, flagErr := debate.ParseSeatPersona("Security Reviewer")
	want := `The lead seat's persona: --persona "Security Reviewer" needs a name and a description, like --persona "Security Reviewer=assumes every new surface will be attacked".`
	if f.err != want || !strings.Contains(flagErr.Error(), strings.TrimPrefix(strings.TrimSuffix(want, "."), "The lead seat's persona: ")) {
		t.Errorf("error %q\nwant %q (the flag's: %q)", f.err, want, flagErr)
	}
	f, _, _ = driveSeats(t, f) // the size stays 120×60: look at it at 80×24
	f.width, f.height = 80, 24
	f.help.SetWidth(80)
	v := plain(f.View())
	if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, want) {
		t.Errorf("the sentence is not shown whole:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d cells: %q", n, l)
		}
	}
	if status := lines[len(lines)-2]; strings.TrimSpace(status) != "" {
		t.Errorf("the sentence is also on the status line: %q", status)
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable", "cache")); err == nil {
		t.Error("a refused persona still created the room")
	}
	if _, ok := g.Lookup("cache", "lead"); ok {
		t.Error("a seat was started")
	}
	f, _, _ = driveSeats(t, f, typeText(nil, "=assumes every surface is attacked")...)
	if f.err != "" || strings.Contains(plain(f.View()), "needs a name") {
		t.Errorf("typing did not clear the error: %q", f.err)
	}
}

// TestRoomFormSeatToolsFromFlags: the app's --allow-agent-tools is what a
// seat played by an ACP agent may do until the form changes it; a model's
// seat gets no tools from it.
func TestRoomFormSeatToolsFromFlags(t *testing.T) {
	f := NewRoomForm(RoomOptions{Cwd: t.TempDir(), AgentTools: debate.AllowWrite, Getenv: func(string) string { return "" }})
	f.seatChoices[0].mind, f.seatChoices[1].mind = mindAgent, mindModel
	if v := plain(f.View()); !strings.Contains(v, "tools     ◂ write ▸") {
		t.Errorf("the flag's tools are not shown:\n%s", v)
	}
	play, problem := f.checkSeats()
	if problem != "" {
		t.Fatal(problem)
	}
	if play[0].spec.AllowAgentTools != "write" || play[1].spec.AllowAgentTools != "" {
		t.Errorf("the lead's tools %q, the peer's %q", play[0].spec.AllowAgentTools, play[1].spec.AllowAgentTools)
	}
}
