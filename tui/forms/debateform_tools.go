package forms

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// What the coding agents of a debate may do beyond reading: one setting
// for every agent of the debate, as --allow-agent-tools sets it
// (debate.Settings.AgentTools), read-only by default. The row shows only
// while an agent speaks for a persona switched on or for the moderator.

// hasAgents reports whether a coding agent speaks in the debate as set.
func (f DebateForm) hasAgents() bool {
	if len(f.opts.Panel.Moderator.Agent) > 0 {
		return true
	}
	for _, p := range f.personas {
		if p.Enabled && len(p.Agent) > 0 {
			return true
		}
	}
	return false
}

// skip reports a field that tab passes over: the mock's model, which is
// shown, not edited, and the tools while no agent speaks.
func (f DebateForm) skip(d debateField) bool {
	switch d {
	case fieldModel:
		return f.providerName() == debate.ProviderMock
	case fieldTools:
		return !f.hasAgents()
	case fieldTopic, fieldRounds, fieldPersonas, fieldProvider, fieldPause, fieldProtocol, fieldCost, fieldTokens, fieldStart, debateFields:
	}
	return false
}

// toolsKey changes the tools: ← and → (and space) go through read-only,
// write, exec and write,exec.
func (f *DebateForm) toolsKey(msg tea.KeyPressMsg) bool {
	d := 0
	switch {
	case key.Matches(msg, f.keys.Less):
		d = -1
	case key.Matches(msg, f.keys.More), key.Matches(msg, f.keys.Toggle):
		d = 1
	default:
		return false
	}
	n := len(agentTools)
	f.tools = agentTools[((slices.Index(agentTools, f.tools)+d)%n+n)%n]
	f.err = ""
	return true
}

// toolsRow is the tools' line, or nothing while no agent speaks.
func (f DebateForm) toolsRow() []string {
	if !f.hasAgents() {
		return nil
	}
	s := &f.styles
	v := s.Arrow.Render("◂ ") + s.Value.Render(toolsName(f.tools)) + s.Arrow.Render(" ▸")
	hint := "one setting for every agent (--allow-agent-tools)"
	if f.focus == fieldTools {
		hint = "for every agent: write edits, exec runs commands"
	}
	return []string{f.inline(fieldTools, "Agent tools", v, hint)}
}
