package forms

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// mind is what fills a seat of the room.
type mind int

const (
	mindMCP   mind = iota // an agent the user starts, joining over MCP
	mindModel             // a model, played by `roundtable seat`
	mindAgent             // an ACP agent, driven by `roundtable seat`
	mindCount
)

var mindNames = [mindCount]string{"an agent you start (MCP)", "a model", "an agent roundtable drives (ACP)"}

// seatChoice is what the form holds for one seat beyond its text fields.
type seatChoice struct {
	mind     mind
	provider int // index into debate.Providers()
	preset   int // index into seatproc.Presets; len(Presets): a command
	// tools is what an ACP agent may do beyond reading (read-only by
	// default), as --allow-agent-tools sets it; a model has none.
	tools debate.AgentTools
}

// The fields of each seat, in tab order; seatFields[i] are seat i's.
type seatFieldSet struct {
	mind, label, provider, model, agent, command, persona, tools roomField
}

var seatFields = [2]seatFieldSet{
	{roomLeadMind, roomLead, roomLeadProvider, roomLeadModel, roomLeadAgent, roomLeadCommand, roomLeadPersona, roomLeadTools},
	{roomPeerMind, roomPeer, roomPeerProvider, roomPeerModel, roomPeerAgent, roomPeerCommand, roomPeerPersona, roomPeerTools},
}

// seatOf is the seat (0 lead, 1 peer) a field belongs to, or -1.
func seatOf(r roomField) int {
	for i, fs := range seatFields {
		if slices.Contains([]roomField{fs.mind, fs.label, fs.provider, fs.model, fs.agent, fs.command, fs.persona, fs.tools}, r) {
			return i
		}
	}
	return -1
}

// isChoice reports a field changed with ←/→.
func isChoice(r roomField) bool {
	for _, fs := range seatFields {
		if r == fs.mind || r == fs.provider || r == fs.agent || r == fs.tools {
			return true
		}
	}
	return r == roomBudget
}

// isText reports a field typed into.
func isText(r roomField) bool { return !isChoice(r) && r != roomCreate && r != roomFields }

// visible is the fields shown, in tab order: a seat's fields depend on
// what fills it.
func (f *RoomForm) visible() []roomField {
	out := []roomField{roomName, roomTopic, roomBudget, roomSpec}
	for i, fs := range seatFields {
		out = append(out, fs.mind)
		switch f.seatChoices[i].mind {
		case mindMCP:
			out = append(out, fs.label)
		case mindModel:
			out = append(out, fs.provider, fs.model, fs.persona)
		case mindAgent:
			out = append(out, fs.agent)
			if f.seatChoices[i].preset == len(seatproc.Presets) {
				out = append(out, fs.command)
			}
			out = append(out, fs.persona, fs.tools)
		case mindCount:
		}
	}
	return append(out, roomCreate)
}

// presetName is a seat's ACP choice as shown.
func presetName(i int) string {
	if i < len(seatproc.Presets) {
		return "acp:" + seatproc.Presets[i]
	}
	return "a command of your own"
}

// choose moves a choice field by d.
func (f *RoomForm) choose(r roomField, d int) {
	i := seatOf(r)
	c := &f.seatChoices[i]
	wrap := func(v, n int) int { return ((v+d)%n + n) % n }
	switch r {
	case seatFields[i].mind:
		c.mind = mind(wrap(int(c.mind), int(mindCount)))
	case seatFields[i].provider:
		c.provider = wrap(c.provider, len(debate.Providers()))
		f.setModelPlaceholder(i)
	case seatFields[i].agent:
		c.preset = wrap(c.preset, len(seatproc.Presets)+1)
	case seatFields[i].tools:
		c.tools = agentTools[wrap(slices.Index(agentTools, c.tools), len(agentTools))]
	default: // not a choice of a seat's
	}
	f.err = ""
}

// providerName is seat i's provider.
func (f *RoomForm) providerName(i int) string { return debate.Providers()[f.seatChoices[i].provider] }

// resolveModel completes seat i's provider settings from the app's flags
// and the environment, as a debate would.
func (f *RoomForm) resolveModel(i int) (debate.ProviderConfig, error) {
	pc := debate.ProviderConfig{Name: f.providerName(i), Model: strings.TrimSpace(f.inputs[seatFields[i].model].Value())}
	if strings.EqualFold(pc.Name, f.opts.Provider.Name) {
		pc.BaseURL = f.opts.Provider.BaseURL
	}
	getenv := f.opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return debate.ResolveProvider(pc, getenv)
}

// setModelPlaceholder shows the model a seat's provider uses when none is
// typed.
func (f *RoomForm) setModelPlaceholder(i int) {
	pc, _ := f.resolveModel(i)
	ph := pc.Model
	if ph == "" || ph == debate.ProviderMock {
		ph = "the provider's default"
	}
	f.inputs[seatFields[i].model].Placeholder = ph
}

// initSeats sets both seats' choices from the options: agents over MCP,
// the app's provider and model preset for when a seat becomes a model.
func (f *RoomForm) initSeats() {
	provider := 0
	pc, _ := debate.ResolveProvider(debate.ProviderConfig{Name: f.opts.Provider.Name}, f.getenv())
	for j, p := range debate.Providers() {
		if p == pc.Name {
			provider = j
		}
	}
	for i := range f.seatChoices {
		f.seatChoices[i] = seatChoice{mind: mindMCP, provider: provider, preset: min(i, len(seatproc.Presets)-1), tools: f.opts.AgentTools}
		in := &f.inputs[seatFields[i].persona]
		in.Placeholder = "Name=who they are (empty: none)"
		// Longer than the checks allow, so a description too long is
		// refused in their words rather than cut.
		in.CharLimit = debate.MaxNameLen + debate.MaxPersonaLen + 2
		if f.opts.Provider.Model != "" && pc.Name != debate.ProviderMock {
			f.inputs[seatFields[i].model].SetValue(f.opts.Provider.Model)
		}
		f.inputs[seatFields[i].command].Placeholder = "my-agent --acp"
		f.setModelPlaceholder(i)
	}
}

func (f *RoomForm) getenv() func(string) string {
	if f.opts.Getenv != nil {
		return f.opts.Getenv
	}
	return func(string) string { return "" }
}

// played is a seat roundtable plays: its command's settings.
type played struct {
	on   bool
	spec seatproc.Spec // Program, Cwd and Room are filled in once the room exists
}

// checkSeats settles each seat's mind for the room: what roundtable plays,
// or a sentence saying what to fix (the field is focused).
func (f *RoomForm) checkSeats() ([2]played, string) {
	var out [2]played
	for i, fs := range seatFields {
		c := f.seatChoices[i]
		sp := seatproc.Spec{Seat: seats[i]}
		if c.mind != mindModel && c.mind != mindAgent {
			continue // an agent the user starts, over MCP
		}
		persona, err := seatPersona(f.inputs[fs.persona].Value())
		if err != nil {
			f.focusField(fs.persona)
			f.errAt = fs.persona
			return out, fmt.Sprintf("The %s seat's persona: %s", seats[i], mdrender.Inline(sentence(err)))
		}
		sp.Persona = persona
		switch c.mind {
		case mindMCP, mindCount:
		case mindModel:
			pc, err := f.resolveModel(i)
			if err != nil {
				f.focusField(fs.provider)
				return out, fmt.Sprintf("The %s seat's model: %s", seats[i], mdrender.Inline(err.Error()))
			}
			sp.Provider, sp.Model, sp.BaseURL = pc.Name, pc.Model, strings.TrimSpace(pcBaseURL(f, i))
			if pc.Name == debate.ProviderMock {
				sp.Model = ""
			}
		case mindAgent:
			preset := ""
			if c.preset < len(seatproc.Presets) {
				preset = seatproc.Presets[c.preset]
			}
			v, err := seatproc.AgentValue(preset, f.inputs[fs.command].Value())
			if err != nil {
				f.focusField(fs.command)
				return out, fmt.Sprintf("The %s seat's agent: %s", seats[i], err.Error())
			}
			sp.Agent = v
			sp.AllowAgentTools = c.tools.String()
		}
		out[i] = played{on: true, spec: sp}
	}
	return out, ""
}

// pcBaseURL is the base URL passed on to seat i: the app's --base-url,
// when the seat uses the app's provider.
func pcBaseURL(f *RoomForm, i int) string {
	if strings.EqualFold(f.providerName(i), f.opts.Provider.Name) {
		return f.opts.Provider.BaseURL
	}
	return ""
}

// playedLabel is the label of a seat roundtable plays, for the page.
func playedLabel(p played) string { return "roundtable · " + p.spec.Mind() }

// seatStart is how starting one seat went.
type seatStart struct {
	status seatproc.Status
	argv   []string
	err    error
}

// seatsStartedMsg: the seats roundtable plays were started (or not).
type seatsStartedMsg struct {
	id    int64
	seats [2]seatStart
	procs []*seatproc.Proc
}

// startSeatsCmd starts the seats roundtable plays, in a command: exec is
// I/O and never runs in Update.
func startSeatsCmd(id int64, g *seatproc.Group, program string, res seedResult, which [2]played) tea.Cmd {
	return func() tea.Msg {
		msg := seatsStartedMsg{id: id}
		exe, err := program, error(nil)
		if exe == "" {
			exe, err = os.Executable()
		}
		for i, p := range which {
			if !p.on {
				continue
			}
			sp := p.spec
			sp.Cwd, sp.Room = res.Cwd, res.Room
			// What a user copies starts roundtable as the pasted commands
			// do; the app starts its own binary.
			sp.Program = res.Program
			msg.seats[i].argv = sp.Argv()
			sp.Program = exe
			switch {
			case err != nil:
				msg.seats[i].err = fmt.Errorf("cannot find this roundtable binary to start the seat: %w", err)
				continue
			case g == nil:
				msg.seats[i].err = fmt.Errorf("this screen cannot start seats")
				continue
			}
			proc, serr := g.Start(sp, res.Dir, os.Environ())
			if serr != nil {
				msg.seats[i].err = serr
				continue
			}
			msg.seats[i].status = proc.Status()
			msg.procs = append(msg.procs, proc)
		}
		return msg
	}
}

// waitCmd reports a seat process's exit, to whichever screen is on show.
func waitCmd(p *seatproc.Proc) tea.Cmd {
	return func() tea.Msg { return seatproc.ExitedMsg{Status: p.Wait()} }
}

// seatsStarted records how starting went and waits for each process.
func (f *RoomForm) seatsStarted(msg seatsStartedMsg) tea.Cmd {
	f.starts = msg.seats
	var cmds []tea.Cmd
	var started, failed []string
	for i, s := range msg.seats {
		if !f.played[i].on {
			continue
		}
		if s.err != nil {
			failed = append(failed, seats[i])
		} else {
			started = append(started, fmt.Sprintf("the %s (pid %d)", seats[i], s.status.PID))
		}
	}
	for _, p := range msg.procs {
		cmds = append(cmds, waitCmd(p))
	}
	switch {
	case len(failed) > 0:
		f.status = "Could not start the " + strings.Join(failed, " and ") + " seat: see below."
	case len(started) > 0:
		f.status = "Started " + strings.Join(started, " and ") + "; enter watches the room."
	}
	f.layoutPage()
	return tea.Batch(cmds...)
}

// exited notes a seat process of this room that ended.
func (f *RoomForm) exited(st seatproc.Status) {
	if st.Room != f.res.Room {
		return
	}
	for i := range seats {
		if seats[i] == st.Seat && f.played[i].on && f.starts[i].status.PID == st.PID {
			f.starts[i].status = st
			if st.Failed() {
				f.status = fmt.Sprintf("The %s seat exited: %s", st.Seat, mdrender.Inline(orDefault(st.LastLine, st.Err.Error())))
			}
		}
	}
	f.layoutPage()
}

// playedLines describes seat i, played by roundtable, on the commands
// page: started or not, its log, and its command to run it by hand.
func (f *RoomForm) playedLines(i int) (lines []string, cmd []string) {
	s := f.starts[i]
	if rel, err := filepath.Rel(f.res.Cwd, s.status.Log); err == nil && !strings.HasPrefix(rel, "..") {
		s.status.Log = rel
	}
	switch {
	case s.err != nil:
		lines = append(lines, "Could not start it: "+mdrender.Inline(s.err.Error()))
	case s.status.PID == 0:
		lines = append(lines, "Starting it…")
	case s.status.Running:
		lines = append(lines, fmt.Sprintf("roundtable plays it (pid %d) while this app runs; quitting the app stops it. Its log: %s.", s.status.PID, s.status.Log))
	case s.status.Failed():
		lines = append(lines, fmt.Sprintf("It exited: %s (log: %s).", mdrender.Inline(orDefault(s.status.LastLine, s.status.Err.Error())), s.status.Log))
	default:
		lines = append(lines, fmt.Sprintf("It has finished (pid %d). Its log: %s.", s.status.PID, s.status.Log))
	}
	lines = append(lines, fmt.Sprintf("To run it yourself instead: %d copies its command.", i+1))
	return lines, s.argv
}

// seatCommandText is what copying seat i pastes: its MCP command, or the
// command that plays it.
func (f *RoomForm) seatCommandText(i int) string {
	if f.played[i].on {
		return seatcmd.Shell(f.starts[i].argv)
	}
	return f.clients[i].Text(f.res.seat(seats[i]))
}

// mcpSeats are the seats an agent joins over MCP.
func (f *RoomForm) mcpSeats() []seatcmd.Seat {
	var out []seatcmd.Seat
	for i, s := range seats {
		if !f.played[i].on {
			out = append(out, f.res.seat(s))
		}
	}
	return out
}

// seatHints explain the focused seat field.
var seatHints = map[roomField]string{
	roomLeadMind:     "Who takes the lead seat: an agent you start and give the commands to, a model, or a coding agent that roundtable starts over ACP.",
	roomPeerMind:     "Who takes the peer seat: an agent you start and give the commands to, a model, or a coding agent that roundtable starts over ACP.",
	roomLeadProvider: "The lead's provider; its key comes from the environment, as for debates.",
	roomPeerProvider: "The peer's provider; its key comes from the environment, as for debates.",
	roomLeadModel:    "The lead's model; empty: the provider's default.",
	roomPeerModel:    "The peer's model; empty: the provider's default.",
	roomLeadAgent:    "The coding agent roundtable starts for the lead (it must be installed).",
	roomPeerAgent:    "The coding agent roundtable starts for the peer (it must be installed).",
	roomLeadCommand:  "The agent's command, speaking ACP on stdio: e.g. my-agent --acp.",
	roomPeerCommand:  "The agent's command, speaking ACP on stdio: e.g. my-agent --acp.",
	roomLeadPersona:  personaHint,
	roomPeerPersona:  personaHint,
	roomLeadTools:    toolsHint,
	roomPeerTools:    toolsHint,
}

// The hints of a played seat's persona and tools, in the words of
// `roundtable seat --persona` and --allow-agent-tools.
const (
	personaHint = `Who the seat speaks as, "Name=who they are" (--persona); empty: none.`
	toolsHint   = "Beyond reading (--allow-agent-tools): write edits files, exec runs commands."
)

// agentTools are the choices of an agent's tools, in the form's order.
var agentTools = []debate.AgentTools{0, debate.AllowWrite, debate.AllowExec, debate.AllowWrite | debate.AllowExec}

// toolsName is a choice of tools as shown: the --allow-agent-tools value,
// or read-only for none.
func toolsName(t debate.AgentTools) string {
	if t == 0 {
		return "read-only"
	}
	return t.String()
}

// seatPersona checks a --persona value as `roundtable seat` does and
// returns it as the seat's command gets it ("" for none).
func seatPersona(v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", nil
	}
	p, err := debate.ParseSeatPersona(v)
	if err != nil {
		return "", err
	}
	return p.Name + "=" + p.Persona, nil
}
