package forms

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// labelWidth is the width of the labels left of single-line fields.
const labelWidth = 12

// View is the form as text.
func (f DebateForm) View() string {
	w := max(f.width, 30)
	s := &f.styles
	var out []string
	out = append(out, s.titleLine("New persona debate", w), "")

	focus := 0
	mark := func(field debateField) {
		if f.focus == field {
			focus = len(out)
		}
	}
	mark(fieldTopic)
	out = append(out, f.label(fieldTopic, "Topic", "what should the panel decide? · enter adds a line · ctrl+s starts"))
	for _, l := range strings.Split(f.topic.View(), "\n") {
		out = append(out, cells.Fit("  "+l, w))
	}
	out = append(out, "")

	rounds := s.Arrow.Render("◂ ") + s.Value.Render(fmt.Sprint(f.rounds.value)) + s.Arrow.Render(" ▸")
	mark(fieldRounds)
	out = append(out, f.inline(fieldRounds, "Rounds", rounds, fmt.Sprintf("%d to %d; each persona speaks once a round", debate.MinRounds, debate.MaxRounds)))
	out = append(out, "")

	out = append(out, f.label(fieldPersonas, "Personas", fmt.Sprintf("%d of %d on · space switches · order is speaking order", f.Enabled(), len(f.personas))))
	if f.focus == fieldPersonas {
		focus = len(out) + f.pcursor + 1
	}
	out = append(out, f.personaRows(w)...)
	mark(fieldTools)
	out = append(out, f.toolsRow()...)
	out = append(out, "")

	provHint := "no key needed"
	if f.provErr != "" {
		provHint = f.provErr
	} else if f.resolved.KeyEnv != "" && f.resolved.APIKey != "" {
		provHint = "key from " + f.resolved.KeyEnv
	} else if f.resolved.BaseURL != "" {
		provHint = "at " + mdrender.Inline(f.resolved.BaseURL)
	}
	prov := s.Arrow.Render("◂ ") + s.Value.Render(f.providerName()) + s.Arrow.Render(" ▸")
	hintStyle := s.Hint
	if f.provErr != "" {
		hintStyle = s.Warning
	}
	mark(fieldProvider)
	out = append(out, f.inlineStyled(fieldProvider, "Provider", prov, hintStyle.Render(cells.Truncate(provHint, max(w-30, 10)))))
	var model string
	switch {
	case f.providerName() == debate.ProviderMock:
		model = s.Muted.Render("mock (built in: scripted, deterministic, free)")
	case f.focus == fieldModel:
		model = f.model.View()
	case strings.TrimSpace(f.model.Value()) == "":
		model = s.Muted.Render(mdrender.Inline(f.resolved.Model) + " (default)")
	default:
		model = s.Value.Render(mdrender.Inline(f.model.Value()))
	}
	mark(fieldModel)
	out = append(out, f.inlineStyled(fieldModel, "Model", model, ""))
	mark(fieldPause)
	out = append(out, f.pauseRow())
	mark(fieldProtocol)
	out = append(out, f.protocolRow())
	mark(fieldCost)
	mark(fieldTokens)
	out = append(out, f.budgetRows(w)...)
	out = append(out, "")

	// Why the debate could not start, whole: a sentence naming a server
	// and what to do does not fit the status line. It stands above the
	// button when the form fits the screen, and under the fields in
	// sight when they scroll, whichever field it focused.
	var why []string
	at := len(out)
	switch {
	case f.starting:
		out = append(out, cells.Fit("  "+s.Muted.Render("Starting the debate…"), w), "")
	case f.err != "":
		for _, l := range strings.Split(ansi.Wordwrap(f.err, max(w-6, 10), ""), "\n") {
			why = append(why, cells.Fit("  "+s.Error.Render(l), w))
		}
	}
	mark(fieldStart)
	if f.focus == fieldStart {
		focus += 2
	}
	btn := s.Button
	if f.focus == fieldStart {
		btn = s.FocusButton
	}
	for _, l := range strings.Split(btn.Render("Start the debate"), "\n") {
		out = append(out, cells.Fit("  "+l, w))
	}
	return overlay(f.pal, finishHint(&f.styles, f.help, f.keys, out, why, at, focus, "", w, f.height), w, f.height)
}

// label is a field's name on a line of its own, with a hint.
func (f DebateForm) label(field debateField, name, hint string) string {
	s := &f.styles
	mark, style := "  ", s.Label
	if f.focus == field {
		mark, style = s.FocusLabel.Render("▸ "), s.FocusLabel
	}
	head := mark + style.Render(name) + "  "
	return cells.Fit(head+s.Hint.Render(cells.TruncateWords(hint, f.width-ansi.StringWidth(head))), f.width)
}

// inline is a single-line field: its name, its value and a hint.
func (f DebateForm) inline(field debateField, name, value, hint string) string {
	room := f.width - 2 - labelWidth - ansi.StringWidth(value) - 3
	return f.inlineStyled(field, name, value, f.styles.Hint.Render(cells.TruncateWords(hint, room)))
}

func (f DebateForm) inlineStyled(field debateField, name, value, hint string) string {
	s := &f.styles
	mark, style := "  ", s.Label
	if f.focus == field {
		mark, style = s.FocusLabel.Render("▸ "), s.FocusLabel
	}
	line := mark + style.Render(cells.Pad(name, labelWidth)) + value
	if hint != "" {
		line += "   " + hint
	}
	return cells.Fit(line, f.width)
}

// personaRows lists the personas with their switches.
func (f DebateForm) personaRows(w int) []string {
	s := &f.styles
	nameW := 8
	for _, p := range f.personas {
		nameW = max(nameW, ansi.StringWidth(mdrender.Inline(p.Name)))
	}
	nameW = min(nameW, 24)
	var out []string
	for i, p := range f.personas {
		cur := "   "
		if f.focus == fieldPersonas && i == f.pcursor {
			cur = s.FocusLabel.Render(" ▸ ")
		}
		box := s.Uncheck.Render("[ ]")
		name := s.Muted.Render(cells.Pad(mdrender.Inline(p.Name), nameW))
		if p.Enabled {
			box = s.Check.Render("[x]")
			name = s.Value.Render(cells.Pad(mdrender.Inline(p.Name), nameW))
		}
		desc := s.Hint.Render(cells.Truncate(describe(p), max(w-nameW-12, 0)))
		out = append(out, cells.Fit("  "+cur+box+" "+name+"  "+desc, w))
	}
	if len(f.personas) == 0 {
		out = append(out, cells.Fit("     "+s.Warning.Render("No personas: add one with --agent \"Name=who they are\" or a --personas file."), w))
	}
	return out
}
