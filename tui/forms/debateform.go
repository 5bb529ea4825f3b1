package forms

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/palette"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// DebateOptions configure the new-debate form.
type DebateOptions struct {
	// Panel is every persona on offer, switched on or off
	// (debate.LoadPanel: the defaults, persona files, --agent).
	Panel debate.Panel
	// Settings fill the form in (its topic, rounds, provider and model)
	// and carry what the form does not show (the seed, the debate's
	// options, the provider's base URL and max tokens, where the room
	// goes) to the debate it starts. Rounds 0: debate.DefaultRounds;
	// Getenv nil: os.Getenv.
	Settings debate.Settings
	// Err, when set, is why the last start failed (see StartFailed),
	// shown as the form opens.
	Err error
	// Dark selects the dark styles.
	Dark bool
}

// debateField is a field of the debate form, in tab order.
type debateField int

const (
	fieldTopic debateField = iota
	fieldRounds
	fieldPersonas
	fieldTools // what the agents may do beyond reading (debateform_tools.go)
	fieldProvider
	fieldModel
	fieldPause
	fieldProtocol // stances, peer ranking (debateform_protocol.go)
	fieldCost     // the cost cap (debateform_budget.go)
	fieldTokens   // the token cap
	fieldStart
	debateFields
)

// DebateForm is the new-debate form.
type DebateForm struct {
	opts   DebateOptions
	keys   KeyMap
	styles Styles
	pal    *palette.Model // the command palette (ctrl+p, palette.go)
	help   help.Model

	topic    textarea.Model
	rounds   number
	personas []debate.PersonaChoice
	pcursor  int
	provider int // index into debate.Providers()
	model    textinput.Model
	focus    debateField
	pause    bool // pause between rounds (debateform_pause.go)
	stances  bool // the protocol: assigned stances
	rank     bool // the protocol: peer ranking
	tools    debate.AgentTools
	budget   budgetFields

	resolved debate.ProviderConfig
	provErr  string // why the provider cannot be used as set
	err      string // why the debate could not start (debate.Start's error)
	starting bool   // StartMsg sent; waiting for the debate to start or fail

	width, height int
}

// NewDebateForm returns the form, its topic field focused.
func NewDebateForm(opts DebateOptions) DebateForm {
	if opts.Settings.Getenv == nil {
		opts.Settings.Getenv = os.Getenv
	}
	set := opts.Settings
	rounds := set.Config.Rounds
	if rounds == 0 {
		rounds = debate.DefaultRounds
	}
	f := DebateForm{
		opts:     opts,
		keys:     DefaultKeyMap(),
		help:     help.New(),
		topic:    textarea.New(),
		rounds:   newNumber(rounds, debate.MinRounds, debate.MaxRounds),
		personas: slices.Clone(opts.Panel.Personas),
		model:    textinput.New(),
		width:    80,
		height:   24,
	}
	f.topic.Placeholder = "The decision to argue, e.g. Should we move the monolith's jobs to a queue?"
	f.topic.ShowLineNumbers = false
	f.topic.Prompt = "┃ "
	f.topic.CharLimit = debate.MaxTopicLen
	f.topic.SetHeight(4)
	f.topic.SetValue(set.Config.Topic)
	f.model.Prompt = ""
	f.model.CharLimit = 200
	f.model.SetValue(strings.TrimSpace(set.Provider.Model))
	name := strings.ToLower(strings.TrimSpace(set.Provider.Name))
	if name == "" {
		// As the debate would resolve it: --base-url alone is an
		// OpenAI-compatible server, not the mock.
		if pc, err := debate.ResolveProvider(set.Provider, set.Getenv); err == nil {
			name = pc.Name
		} else {
			name = strings.ToLower(strings.TrimSpace(set.Getenv("ROUNDTABLE_PROVIDER")))
		}
	}
	f.provider = max(slices.Index(debate.Providers(), name), 0)
	f.pause = set.Config.PauseBetweenRounds
	f.stances, f.rank = set.Config.Stances, set.Config.Rank
	f.tools = set.AgentTools
	f.budget = newBudgetFields(set.Config)
	f.SetDark(opts.Dark)
	f.resolve()
	f.topic.Focus()
	if opts.Err != nil {
		f.StartFailed(opts.Err)
	}
	f.syncKeys()
	return f
}

// SetDark switches between the dark and light styles.
func (f *DebateForm) SetDark(dark bool) {
	f.styles = DefaultStyles(dark)
	f.help.Styles = f.styles.Help
	f.topic.SetStyles(f.styles.Area)
	f.model.SetStyles(f.styles.Input)
	f.budget.setStyles(f.styles.Input)
}

// Init does nothing: the form waits for keys.
func (f DebateForm) Init() tea.Cmd { return nil }

// Update handles a message and returns the updated form.
func (f DebateForm) Update(msg tea.Msg) (DebateForm, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = msg.Width, msg.Height
		f.help.SetWidth(msg.Width)
		f.topic.SetWidth(max(min(msg.Width-6, 100), 20))
		f.topic.SetHeight(topicHeight(msg.Height))
		f.model.SetWidth(max(min(msg.Width-24, 60), 10))
	case tea.KeyPressMsg:
		if c, ok := paletteKey(&f.pal, msg, f.keys, f.styles.Dark); ok {
			cmd = c
			break
		}
		if f.starting && !key.Matches(msg, f.keys.Quit) {
			break // the debate is starting; StartFailed gives the form back
		}
		cmd = f.handleKey(msg)
	case tea.PasteMsg:
		switch f.focus {
		case fieldTopic:
			f.topic, cmd = f.topic.Update(msg)
		case fieldModel:
			f.model, cmd = f.model.Update(msg)
			f.resolve()
		case fieldCost, fieldTokens:
			cmd = f.budgetEdit(msg)
		case fieldRounds, fieldPersonas, fieldTools, fieldProvider, fieldPause, fieldProtocol, fieldStart, debateFields:
		}
	}
	f.syncKeys()
	return f, cmd
}

func (f *DebateForm) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Back):
		return func() tea.Msg { return BackMsg{} }
	case key.Matches(msg, k.Submit):
		return f.submit()
	case key.Matches(msg, k.Next):
		f.move(1)
		return nil
	case key.Matches(msg, k.Prev):
		f.move(-1)
		return nil
	}
	switch f.focus {
	case fieldTopic:
		if key.Matches(msg, k.FieldDn) && f.onTopicsLastRow() {
			f.move(1) // ↓ leaves the topic from its last row, as from any field
			return nil
		}
		var cmd tea.Cmd
		f.topic, cmd = f.topic.Update(msg)
		f.err = ""
		return cmd
	case fieldRounds:
		if !f.rounds.update(msg, k) {
			f.navigate(msg)
		}
	case fieldPersonas:
		switch {
		case key.Matches(msg, k.Toggle):
			if len(f.personas) > 0 {
				f.personas[f.pcursor].Enabled = !f.personas[f.pcursor].Enabled
				f.err = ""
			}
		case key.Matches(msg, k.Agent):
			if len(f.personas) > 0 {
				f.personas[f.pcursor].Agent = nextAgent(f.personas[f.pcursor].Agent)
				f.err = ""
			}
		case key.Matches(msg, k.Up) && f.pcursor > 0:
			f.pcursor--
		case key.Matches(msg, k.Down) && f.pcursor < len(f.personas)-1:
			f.pcursor++
		default:
			f.navigate(msg)
		}
	case fieldTools:
		if !f.toolsKey(msg) {
			f.navigate(msg)
		}
	case fieldProvider:
		n := len(debate.Providers())
		switch {
		case key.Matches(msg, k.Less):
			f.provider = (f.provider + n - 1) % n
			f.model.SetValue("")
			f.resolve()
			f.providerChanged()
		case key.Matches(msg, k.More), key.Matches(msg, k.Toggle):
			f.provider = (f.provider + 1) % n
			f.model.SetValue("")
			f.resolve()
			f.providerChanged()
		default:
			f.navigate(msg)
		}
	case fieldModel:
		if key.Matches(msg, k.FieldUp, k.FieldDn, k.Enter) {
			f.navigate(msg)
			return nil
		}
		var cmd tea.Cmd
		f.model, cmd = f.model.Update(msg)
		f.resolve()
		return cmd
	case fieldPause:
		if !f.pauseKey(msg) {
			f.navigate(msg)
		}
	case fieldProtocol:
		if !f.protocolKey(msg) {
			f.navigate(msg)
		}
	case fieldCost, fieldTokens:
		return f.budgetKey(msg)
	case fieldStart:
		if key.Matches(msg, k.Press) {
			return f.submit()
		}
		f.navigate(msg)
	case debateFields:
	}
	return nil
}

// navigate moves between single-line fields with ↑, ↓ and enter.
func (f *DebateForm) navigate(msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, f.keys.FieldUp):
		f.move(-1)
	case key.Matches(msg, f.keys.FieldDn, f.keys.Enter):
		f.move(1)
	}
}

// move focuses the next (d = 1) or previous (d = -1) field.
func (f *DebateForm) move(d int) {
	f.rounds.blur()
	f.topic.Blur()
	f.model.Blur()
	f.budget.blur()
	from := f.focus
	f.focus = debateField((int(f.focus) + d + int(debateFields)) % int(debateFields))
	// The mock has one model: its model field is shown, not edited; the
	// tools are shown only when an agent speaks.
	for f.skip(f.focus) && d != 0 {
		f.focus = debateField((int(f.focus) + d + int(debateFields)) % int(debateFields))
	}
	switch f.focus {
	case fieldTopic:
		f.topic.Focus()
	case fieldModel:
		f.model.Focus()
	case fieldCost, fieldTokens:
		f.budget.input(f.focus).Focus()
	case fieldRounds, fieldPersonas, fieldTools, fieldProvider, fieldPause, fieldProtocol, fieldStart, debateFields:
	}
	f.budgetMoved(from)
}

func (f *DebateForm) providerName() string { return debate.Providers()[f.provider] }

// resolve checks the provider as set now, with its key from the
// environment, to say under the field what it will use (or what is
// missing). It blocks nothing: debate.Start checks it again on start.
func (f *DebateForm) resolve() {
	f.resolved, f.provErr = f.providerSettings(), ""
	r, err := debate.ResolveProvider(f.resolved, f.opts.Settings.Getenv)
	if err == nil {
		f.resolved = r
	} else {
		f.provErr = mdrender.Inline(sentence(err))
	}
}

// providerSettings is the provider as the form sets it: the one chosen,
// its model, the base URL and max tokens given on the command line, and
// the key given there only for the provider it was given for.
func (f *DebateForm) providerSettings() debate.ProviderConfig {
	pc := f.opts.Settings.Provider
	pc.Name = f.providerName()
	pc.Model = strings.TrimSpace(f.model.Value())
	if !strings.EqualFold(pc.Name, f.opts.Settings.Provider.Name) {
		pc.APIKey = ""
	}
	return pc
}

// submit asks the parent to start the debate the form describes. The
// checks are debate.Start's: what it refuses comes back through
// StartFailed.
func (f *DebateForm) submit() tea.Cmd {
	maxCost, maxTokens, ok := f.checkBudgets(true)
	if !ok {
		f.err = ""
		return nil
	}
	var enabled []debate.Persona
	for _, p := range f.personas {
		if p.Enabled {
			enabled = append(enabled, p.Persona)
		}
	}
	s := f.opts.Settings
	s.Config.Topic = f.topic.Value()
	s.Config.Personas = enabled
	s.Config.Moderator = f.opts.Panel.Moderator
	s.Config.Rounds = f.rounds.value
	s.Config.MaxTurnTokens = 0 // from the provider's max tokens
	s.Config.PauseBetweenRounds = f.pause
	s.Config.Stances, s.Config.Rank = f.stances, f.rank
	s.AgentTools = f.tools
	s.Config.MaxCost, s.Config.MaxTokensTotal = maxCost, maxTokens
	s.Provider = f.providerSettings()
	f.err, f.starting = "", true
	return func() tea.Msg { return StartMsg{Settings: s} }
}

// StartFailed gives the form back after the debate it asked for could not
// start: it shows why in a sentence and focuses the field to change.
func (f *DebateForm) StartFailed(err error) {
	f.starting = false
	var te *debate.TopicError
	var nc *debate.NoCostError
	switch {
	case errors.As(err, &nc):
		f.err = ""
		f.budget.err, f.budget.errField = noCostSentence(nc), fieldCost
		f.focusField(fieldCost)
	case errors.As(err, &te) && te.Empty:
		f.err = "Write the topic first: the decision the personas should argue."
		f.focusField(fieldTopic)
	case errors.As(err, &te):
		f.err = sentence(err)
		f.focusField(fieldTopic)
	case errors.Is(err, debate.ErrBadPersona) && f.Enabled() == 0:
		f.err = "Switch at least one persona on (space)."
		f.focusField(fieldPersonas)
	case errors.Is(err, debate.ErrBadPersona):
		f.err = sentence(err)
		f.focusField(fieldPersonas)
	case errors.Is(err, debate.ErrUnknownModel) && f.providerName() != debate.ProviderMock:
		f.err = sentence(err)
		f.focusField(fieldModel)
	case errors.Is(err, debate.ErrBadProvider), errors.Is(err, debate.ErrMissingKey), errors.Is(err, debate.ErrUnreachable):
		f.err = sentence(err)
		f.focusField(fieldProvider)
	default:
		f.err = "The debate could not start: " + sentence(err)
	}
	f.err = mdrender.Inline(f.err)
	f.syncKeys()
}

// Starting reports whether the form is waiting for its debate to start.
func (f DebateForm) Starting() bool { return f.starting }

// sentence is err as a sentence for a person: without the kind of error
// its message starts with ("bad provider settings: "), capitalized, with
// a full stop.
func sentence(err error) string {
	s := err.Error()
	for _, kind := range []error{debate.ErrBadConfig, debate.ErrBadPersona, debate.ErrBadProvider, debate.ErrMissingKey} {
		s = strings.TrimPrefix(s, kind.Error()+": ")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

func (f *DebateForm) focusField(d debateField) {
	f.focus = d
	f.move(0)
}

// Enabled counts the personas switched on.
func (f DebateForm) Enabled() int {
	n := 0
	for _, p := range f.personas {
		if p.Enabled {
			n++
		}
	}
	return n
}

// syncKeys enables the keys of the focused field.
func (f *DebateForm) syncKeys() {
	k := &f.keys
	k.Submit.SetHelp("ctrl+s", "start")
	k.Press.SetHelp("enter", "start")
	k.Toggle.SetHelp("space", "switch on/off")
	k.Back.SetKeys("esc")
	k.Back.SetHelp("esc", "back")
	switch f.focus {
	case fieldTopic, fieldModel, fieldCost, fieldTokens:
	case fieldRounds, fieldPersonas, fieldTools, fieldProvider, fieldPause, fieldProtocol, fieldStart, debateFields:
		// Nothing to type on this field: q goes back, as on every screen.
		k.Back.SetKeys("esc", "q")
		k.Back.SetHelp("q/esc", "back")
	}
	switch f.focus {
	case fieldTopic:
		k.only(&k.Next, &k.Prev, &k.Submit, &k.Back)
	case fieldRounds:
		k.Less.SetHelp("←/→", "rounds")
		k.only(&k.Next, &k.Prev, &k.Less, &k.More, &k.Submit, &k.Back)
	case fieldPersonas:
		k.only(&k.Next, &k.Prev, &k.Up, &k.Down, &k.Toggle, &k.Agent, &k.Submit, &k.Back)
	case fieldTools:
		k.Less.SetHelp("←/→", "agent tools")
		k.only(&k.Next, &k.Prev, &k.Less, &k.More, &k.Submit, &k.Back)
	case fieldProvider:
		k.Less.SetHelp("←/→", "provider")
		k.only(&k.Next, &k.Prev, &k.Less, &k.More, &k.Submit, &k.Back)
	case fieldModel, fieldCost, fieldTokens:
		k.only(&k.Next, &k.Prev, &k.Submit, &k.Back)
	case fieldPause:
		k.Toggle.SetHelp("space", "pause on/off")
		k.only(&k.Next, &k.Prev, &k.Toggle, &k.Submit, &k.Back)
	case fieldProtocol:
		k.Less.SetHelp("←/→", "protocol")
		k.only(&k.Next, &k.Prev, &k.Less, &k.More, &k.Submit, &k.Back)
	case fieldStart, debateFields:
		k.only(&k.Next, &k.Prev, &k.Press, &k.Back)
	}
}

// describe is a persona's line in the list: the agent that speaks for it,
// when one does, and its source when not a default.
func describe(p debate.PersonaChoice) string {
	d := mdrender.Inline(p.Persona.Persona)
	if p.Source != "" && p.Source != debate.SourceDefault {
		d = fmt.Sprintf("(%s) %s", p.Source, d)
	}
	if spec, ok, err := p.AgentSpec(); ok && err == nil {
		d = mdrender.Inline(spec.Label()) + " · " + d
	}
	return d
}

// nextAgent is the agent after cur in the form's cycle: none, then each
// preset (acp:claude, acp:codex…), then none again. An agent from a
// persona file or --agent that is no preset is followed by none.
func nextAgent(cur []string) []string {
	presets := debate.AgentPresets()
	at := -1
	if len(cur) == 1 {
		at = slices.Index(presets, strings.TrimPrefix(cur[0], debate.AgentPrefix))
	}
	switch {
	case len(cur) == 0:
		return []string{debate.AgentPrefix + presets[0]}
	case at >= 0 && at+1 < len(presets):
		return []string{debate.AgentPrefix + presets[at+1]}
	}
	return nil
}

// onTopicsLastRow reports whether the topic's cursor is on the last row
// it shows (the last line, and that line's last wrapped row), where ↓
// has nothing left to move through.
func (f *DebateForm) onTopicsLastRow() bool {
	li := f.topic.LineInfo()
	return f.topic.Line() == f.topic.LineCount()-1 && li.RowOffset >= li.Height-1
}
