package forms

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// mind is what fills a seat of the room.
type mind int

const (
	mindMCP    mind = iota // an agent the user starts, joining over MCP
	mindModel              // a model, played by `roundtable seat`
	mindAgent              // an ACP agent, driven by `roundtable seat`
	mindPerson             // the user, at the keyboard (watch --take)
	mindCount
)

var mindNames = [mindCount]string{"an agent you start (MCP)", "a model", "an agent roundtable drives (ACP)", "you, at the keyboard"}

// seatChoice is what the form holds for one seat beyond its text fields.
type seatChoice struct {
	mind     mind
	provider int // index into debate.Providers()
	preset   int // index into seatproc.Presets; len(Presets): a command
	// tools is what an ACP agent may do beyond reading (read-only by
	// default), as --allow-agent-tools sets it; a model has none.
	tools debate.AgentTools
}

// seatKind is one of a seat's fields; seatField(i, k) is seat i's.
type seatKind int

const (
	kindMind     seatKind = iota // what fills the seat
	kindLabel                    // an MCP agent's label
	kindProvider                 // a model's provider and model
	kindModel
	kindAgent   // an ACP agent's preset, or "a command of your own"
	kindCommand // that command
	kindPersona // who a seat roundtable plays speaks as
	kindTools   // what its agent may do beyond reading
	seatKinds
)

// seatField is seat i's field of kind k.
func seatField(i int, k seatKind) roomField {
	return roomSeatBase + roomField(i*int(seatKinds)+int(k))
}

// seatOf is the seat a field belongs to and its kind; ok is false for
// the room's own fields.
func seatOf(r roomField) (i int, k seatKind, ok bool) {
	if r < roomSeatBase || r >= roomFields {
		return -1, 0, false
	}
	n := int(r - roomSeatBase)
	return n / int(seatKinds), seatKind(n % int(seatKinds)), true
}

// isChoice reports a field changed with ←/→.
func isChoice(r roomField) bool {
	_, k, ok := seatOf(r)
	return r == roomBudget || ok && (k == kindMind || k == kindProvider || k == kindAgent || k == kindTools)
}

// isText reports a field typed into.
func isText(r roomField) bool { return !isChoice(r) && r != roomCreate && r != roomFields }

// visible is the fields shown, in tab order: a section for each seat, its
// fields depending on what fills it.
func (f *RoomForm) visible() []roomField {
	out := []roomField{roomName, roomTopic, roomBudget, roomSeats, roomSpec}
	for i := range f.seats {
		for _, k := range f.seatKindsShown(i) {
			out = append(out, seatField(i, k))
		}
	}
	return append(out, roomCreate)
}

// seatKindsShown are the fields of seat i's section, in order.
func (f *RoomForm) seatKindsShown(i int) []seatKind {
	out := []seatKind{kindMind}
	switch c := f.seatChoices[i]; c.mind {
	case mindMCP:
		out = append(out, kindLabel)
	case mindModel:
		out = append(out, kindProvider, kindModel, kindPersona)
	case mindAgent:
		out = append(out, kindAgent)
		if c.preset == len(seatproc.Presets) {
			out = append(out, kindCommand)
		}
		out = append(out, kindPersona, kindTools)
	case mindPerson, mindCount:
	}
	return out
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
	i, k, ok := seatOf(r)
	if !ok {
		return
	}
	c := &f.seatChoices[i]
	wrap := func(v, n int) int { return ((v+d)%n + n) % n }
	switch k {
	case kindMind:
		c.mind = mind(wrap(int(c.mind), int(mindCount)))
	case kindProvider:
		c.provider = wrap(c.provider, len(debate.Providers()))
		f.setModelPlaceholder(i)
	case kindAgent:
		c.preset = wrap(c.preset, len(seatproc.Presets)+1)
	case kindTools:
		c.tools = agentTools[wrap(slices.Index(agentTools, c.tools), len(agentTools))]
	default: // a text field
	}
	f.err = ""
}

// providerName is seat i's provider.
func (f *RoomForm) providerName(i int) string { return debate.Providers()[f.seatChoices[i].provider] }

// resolveModel completes seat i's provider settings from the app's flags
// and the environment, as a debate would.
func (f *RoomForm) resolveModel(i int) (debate.ProviderConfig, error) {
	pc := debate.ProviderConfig{Name: f.providerName(i), Model: strings.TrimSpace(f.inputs[seatField(i, kindModel)].Value())}
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
	f.inputs[seatField(i, kindModel)].Placeholder = ph
}

// initSeats readies every seat's fields, and the sections of the default
// seats: agents over MCP, with the app's provider and model preset for
// when a seat becomes a model.
func (f *RoomForm) initSeats() {
	for i := range room.MaxSeats {
		in := &f.inputs[seatField(i, kindPersona)]
		in.Placeholder = "Name=who they are (empty: none)"
		// Longer than the checks allow, so a description too long is
		// refused in their words rather than cut.
		in.CharLimit = debate.MaxNameLen + debate.MaxPersonaLen + 2
		f.inputs[seatField(i, kindCommand)].Placeholder = "my-agent --acp"
	}
	f.seats = nil
	f.setSeats(room.DefaultSeats())
}

// defaultProvider is the provider a seat made a model starts with: the
// app's, as a debate would resolve it.
func (f *RoomForm) defaultProvider() (int, debate.ProviderConfig) {
	pc, _ := debate.ResolveProvider(debate.ProviderConfig{Name: f.opts.Provider.Name}, f.getenv())
	return max(slices.Index(debate.Providers(), pc.Name), 0), pc
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
func (f *RoomForm) checkSeats() ([room.MaxSeats]played, string) {
	var out [room.MaxSeats]played
	f.persons = [room.MaxSeats]bool{}
	for i, seat := range f.seats {
		c := f.seatChoices[i]
		sp := seatproc.Spec{Seat: seat}
		f.persons[i] = c.mind == mindPerson
		if c.mind != mindModel && c.mind != mindAgent {
			continue // an agent the user starts, over MCP, or the user
		}
		name := mdrender.Inline(seat)
		persona, err := seatPersona(f.inputs[seatField(i, kindPersona)].Value())
		if err != nil {
			f.focusField(seatField(i, kindPersona))
			f.errAt = seatField(i, kindPersona)
			return out, fmt.Sprintf("The %s seat's persona: %s", name, mdrender.Inline(sentence(err)))
		}
		sp.Persona = persona
		switch c.mind {
		case mindMCP, mindPerson, mindCount:
		case mindModel:
			pc, err := f.resolveModel(i)
			if err != nil {
				f.focusField(seatField(i, kindProvider))
				return out, fmt.Sprintf("The %s seat's model: %s", name, mdrender.Inline(err.Error()))
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
			v, err := seatproc.AgentValue(preset, f.inputs[seatField(i, kindCommand)].Value())
			if err != nil {
				f.focusField(seatField(i, kindCommand))
				return out, fmt.Sprintf("The %s seat's agent: %s", name, err.Error())
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
	seats [room.MaxSeats]seatStart
	procs []*seatproc.Proc
}

// startSeatsCmd starts the seats roundtable plays, in a command: exec is
// I/O and never runs in Update.
func startSeatsCmd(id int64, g *seatproc.Group, program string, res seedResult, which [room.MaxSeats]played) tea.Cmd {
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
	for i, seat := range f.seats {
		if !f.played[i].on {
			continue
		}
		if s := msg.seats[i]; s.err != nil {
			failed = append(failed, mdrender.Inline(seat))
		} else {
			started = append(started, fmt.Sprintf("%s (pid %d)", f.seatNoun(i), s.status.PID))
		}
	}
	for _, p := range msg.procs {
		cmds = append(cmds, waitCmd(p))
	}
	switch {
	case len(failed) == 1:
		f.status = "Could not start the " + failed[0] + " seat: see below."
	case len(failed) > 1:
		f.status = "Could not start the " + prompts.AndList(failed) + " seats: see below."
	case len(started) > 0:
		f.status = "Started " + prompts.AndList(started) + "; enter watches the room."
	}
	f.layoutPage()
	return tea.Batch(cmds...)
}

// exited notes a seat process of this room that ended.
func (f *RoomForm) exited(st seatproc.Status) {
	if st.Room != f.res.Room {
		return
	}
	for i, seat := range f.seats {
		if seat == st.Seat && f.played[i].on && f.starts[i].status.PID == st.PID {
			f.starts[i].status = st
			if st.Failed() {
				f.status = fmt.Sprintf("The %s seat exited: %s", mdrender.Inline(st.Seat), mdrender.Inline(orDefault(st.LastLine, st.Err.Error())))
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
	if f.persons[i] {
		return seatcmd.Shell(f.personArgv(i))
	}
	return f.clients[i].Text(f.res.seat(i))
}

// personArgv is the command that plays seat i at the keyboard from
// another terminal.
func (f *RoomForm) personArgv(i int) []string {
	return []string{f.res.Program, "watch", "--room=" + f.res.Room, "--cwd=" + f.res.Cwd, "--take=" + f.seats[i]}
}

// personSeat is the first seat the user plays at the keyboard; "" when
// none.
func (f *RoomForm) personSeat() string {
	for i, seat := range f.seats {
		if f.persons[i] {
			return seat
		}
	}
	return ""
}

// mcpSeats are the seats an agent joins over MCP, by index.
func (f *RoomForm) mcpSeats() []int {
	var out []int
	for i := range f.seats {
		if !f.played[i].on && !f.persons[i] {
			out = append(out, i)
		}
	}
	return out
}

// mcpServersJSON is the mcpServers entries of the seats an agent joins
// over MCP.
func (f *RoomForm) mcpServersJSON() string {
	var seats []seatcmd.Seat
	for _, i := range f.mcpSeats() {
		seats = append(seats, f.res.seat(i))
	}
	return seatcmd.MCPServersJSON(seats...)
}

// seatNoun names seat i in a sentence: "the lead", "the peer", "the
// critic seat".
func (f *RoomForm) seatNoun(i int) string {
	switch seat := f.seats[i]; seat {
	case room.SeatLead, room.SeatPeer:
		return "the " + seat
	default:
		return "the " + mdrender.Inline(seat) + " seat"
	}
}

// seatHint explains seat i's field of kind k.
func (f *RoomForm) seatHint(i int, k seatKind) string {
	name, noun := mdrender.Inline(f.seats[i]), f.seatNoun(i)
	switch k {
	case kindMind:
		return "Who takes the " + name + " seat: an agent you start and give the commands to, a model, or a coding agent that roundtable starts over ACP."
	case kindLabel:
		others := "the other seats"
		switch {
		case f.council():
		case i == 0:
			others = "the peer"
		default:
			others = "the lead"
		}
		return "A label for the " + name + " seat's agent, shown to " + others + " and in the transcript."
	case kindProvider:
		return capital(noun) + "'s provider; its key comes from the environment, as for debates."
	case kindModel:
		return capital(noun) + "'s model; empty: the provider's default."
	case kindAgent:
		return "The coding agent roundtable starts for " + noun + " (it must be installed)."
	case kindCommand:
		return "The agent's command, speaking ACP on stdio: e.g. my-agent --acp."
	case kindPersona:
		return personaHint
	case kindTools:
		return toolsHint
	default:
		return ""
	}
}

// capital is s with its first letter upper case.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
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
