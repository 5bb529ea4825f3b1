package forms

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/tui/internal/palette"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// RoomOptions configure the new-MCP-room form.
type RoomOptions struct {
	// Cwd is the folder whose .roundtable/ gets the room, and the --cwd
	// of the commands shown (absolute).
	Cwd string
	// Topic fills the topic in.
	Topic string
	// Dark selects the dark styles.
	Dark bool
	// Context bounds the seeding; nil: context.Background().
	Context context.Context
	// Program is how the commands start roundtable; empty: "roundtable"
	// when the running binary is the roundtable on PATH, else its absolute
	// path (seatcmd.Program, decided when the room is created).
	Program string
	// Seats starts and keeps the seat processes of the seats roundtable
	// plays (a model, an ACP agent); the app stops them when it quits.
	// Nil: such seats cannot start.
	Seats *seatproc.Group
	// SeatProgram is the roundtable binary that plays those seats; empty:
	// this one (os.Executable).
	SeatProgram string
	// Provider is the app's provider flags, the defaults of a seat played
	// by a model; Getenv completes them (nil: no environment).
	Provider debate.ProviderConfig
	Getenv   func(string) string
	// AgentTools is the app's --allow-agent-tools, what a seat played by
	// an ACP agent may do beyond reading until the form changes it.
	AgentTools debate.AgentTools
}

// Room form defaults.
const (
	DefaultBudget = 12
	MaxBudget     = 100
	// DefaultLeadAgent and DefaultPeerAgent label the seats in the
	// commands; the user may change them.
	DefaultLeadAgent = "claude"
	DefaultPeerAgent = "codex"
)

// roomField is a field of the room form. The room's own fields come
// first, then each seat's (seatField: seat i's field of kind k); visible
// gives the tab order.
type roomField int

const (
	roomName roomField = iota
	roomTopic
	roomBudget
	roomSeats // the seats, in turn order
	roomSpec
	roomCreate
	roomSeatBase // seat 0's first field
)

// roomFields counts the fields; as errAt, it is no field.
const roomFields = roomSeatBase + roomField(room.MaxSeats*int(seatKinds))

// roomStage is what the room form shows.
type roomStage int

const (
	stageEdit    roomStage = iota // the fields
	stageSeeding                  // creating the room
	stageReady                    // the commands to paste
)

var nextID atomic.Int64

// RoomForm is the new-MCP-room form, then the page of commands to paste.
type RoomForm struct {
	id     int64
	opts   RoomOptions
	keys   KeyMap
	styles Styles
	pal    *palette.Model // the command palette (ctrl+p, palette.go)
	help   help.Model

	inputs [roomFields]textinput.Model // the text fields (choices leave theirs unused)
	budget number
	// seats are the seats the form has a section for, in turn order: the
	// last list in the Seats field that was a list of seats. Seat i's
	// choices are seatChoices[i], its text fields seatField(i, ...);
	// seatsProblem is why the Seats field holds no such list now ("" when
	// it does), and stash keeps, by name, what was chosen for a seat the
	// list dropped, so listing it again brings it back.
	seats        []string
	seatChoices  [room.MaxSeats]seatChoice
	seatsProblem string
	stash        map[string]seatSlot
	// played and starts are, once the room is created, the seats
	// roundtable plays and how starting them went.
	played [room.MaxSeats]played
	// persons are the seats the user plays at the keyboard (watch --take).
	persons [room.MaxSeats]bool
	starts  [room.MaxSeats]seatStart
	focus   roomField
	stage   roomStage
	err     string
	// errAt is the field err is about, shown whole under it; roomFields:
	// err goes on the status line.
	errAt roomField

	res     seedResult
	existed bool
	note    string // the spec path fell back, the room existed...
	status  string

	// The commands page: each seat's agent CLI, the seat whose CLI ←/→
	// changes, the page's lines for the screen's width, the first line
	// shown and the line each seat's section starts on.
	clients   [room.MaxSeats]seatcmd.Client
	seatFocus int
	lines     []string
	top       int
	seatLine  [room.MaxSeats]int

	width, height int
}

// namePlaceholder is the name field's placeholder where it fits.
const namePlaceholder = "letters, digits, . _ - (empty: made from the topic)"

// NewRoomForm returns the form, its name field focused.
func NewRoomForm(opts RoomOptions) RoomForm {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	f := RoomForm{
		id:     nextID.Add(1),
		opts:   opts,
		keys:   DefaultKeyMap(),
		help:   help.New(),
		budget: newNumber(DefaultBudget, 1, MaxBudget),
		errAt:  roomFields,
		width:  80,
		height: 24,
	}
	placeholders := map[roomField]string{
		roomName:  namePlaceholder,
		roomSeats: defaultSeatList,
		roomSpec:  "SPEC-<room>.md",
	}
	for i := range f.inputs {
		in := textinput.New()
		in.Prompt = ""
		in.CharLimit = 200
		in.Placeholder = placeholders[roomField(i)]
		f.inputs[i] = in
	}
	f.inputs[roomName].CharLimit = 64
	f.inputs[roomTopic].CharLimit = 2000
	f.inputs[roomTopic].SetValue(opts.Topic)
	f.inputs[roomSeats].SetValue(defaultSeatList)
	f.initSeats()
	f.SetDark(opts.Dark)
	f.inputs[roomName].Focus()
	f.syncKeys()
	return f
}

// SetDark switches between the dark and light styles.
func (f *RoomForm) SetDark(dark bool) {
	f.styles = DefaultStyles(dark)
	f.help.Styles = f.styles.Help
	for i := range f.inputs {
		f.inputs[i].SetStyles(f.styles.Input)
	}
}

// Init does nothing: the form waits for keys.
func (f RoomForm) Init() tea.Cmd { return nil }

// Ready reports whether the room was created and the commands are shown.
func (f RoomForm) Ready() bool { return f.stage == stageReady }

// Update handles a message and returns the updated form.
func (f RoomForm) Update(msg tea.Msg) (RoomForm, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = msg.Width, msg.Height
		f.help.SetWidth(msg.Width)
		w := max(min(msg.Width-labelWidth-8, 80), 10)
		for i := range f.inputs {
			f.inputs[i].SetWidth(w)
		}
		// The name's rule is under the field when it has the focus; a
		// narrow field keeps the placeholder's point, not its first words.
		f.inputs[roomName].Placeholder = namePlaceholder
		if ansi.StringWidth(namePlaceholder) > w {
			f.inputs[roomName].Placeholder = "empty: made from the topic"
		}
		f.layoutPage()
	case tea.KeyPressMsg:
		if c, ok := paletteKey(&f.pal, msg, f.keys, f.styles.Dark); ok {
			cmd = c
			break
		}
		cmd = f.handleKey(msg)
	case tea.PasteMsg:
		if f.stage == stageEdit && isText(f.focus) {
			f.inputs[f.focus], cmd = f.inputs[f.focus].Update(msg)
			f.typed()
		}
	case tea.MouseWheelMsg:
		if f.stage == stageReady {
			switch msg.Button {
			case tea.MouseWheelUp:
				f.scroll(-3)
			case tea.MouseWheelDown:
				f.scroll(3)
			default:
			}
		}
	case seededMsg:
		if msg.id == f.id {
			cmd = f.seeded(msg)
		}
	case seatsStartedMsg:
		if msg.id == f.id {
			cmd = f.seatsStarted(msg)
		}
	case seatproc.ExitedMsg:
		if f.stage == stageReady {
			f.exited(msg.Status)
		}
	}
	f.syncKeys()
	return f, cmd
}

func (f *RoomForm) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Back):
		return func() tea.Msg { return BackMsg{} }
	}
	switch f.stage {
	case stageSeeding:
		return nil
	case stageReady:
		return f.readyKey(msg)
	case stageEdit:
	}
	switch {
	case key.Matches(msg, k.Submit):
		return f.submit()
	case key.Matches(msg, k.Next, k.FieldDn):
		f.move(1)
		return nil
	case key.Matches(msg, k.Prev, k.FieldUp):
		f.move(-1)
		return nil
	}
	switch {
	case f.focus == roomBudget:
		if !f.budget.update(msg, k) && key.Matches(msg, k.Enter) {
			f.move(1)
		}
		return nil
	case f.focus == roomCreate:
		if key.Matches(msg, k.Press) {
			return f.submit()
		}
		return nil
	case isChoice(f.focus):
		switch {
		case key.Matches(msg, k.Less):
			f.choose(f.focus, -1)
		case key.Matches(msg, k.More):
			f.choose(f.focus, 1)
		case key.Matches(msg, k.Enter):
			f.move(1)
		}
		return nil
	}
	if key.Matches(msg, k.Enter) {
		f.move(1)
		return nil
	}
	var cmd tea.Cmd
	f.inputs[f.focus], cmd = f.inputs[f.focus].Update(msg)
	f.typed()
	return cmd
}

// typed follows what was just typed into the focused field: the error
// goes, the spec's placeholder follows the room's name, and the seats'
// sections the list of seats.
func (f *RoomForm) typed() {
	f.err = ""
	switch f.focus {
	case roomName, roomTopic:
		if n := f.name(); n != "" {
			f.inputs[roomSpec].Placeholder = room.DefaultSpec(n)
		} else {
			f.inputs[roomSpec].Placeholder = "SPEC-<room>.md"
		}
	case roomSeats:
		f.followSeats()
	default:
	}
}

// move focuses the next (d = 1) or previous (d = -1) field.
func (f *RoomForm) move(d int) {
	vis := f.visible()
	at := 0
	for i, r := range vis {
		if r == f.focus {
			at = i
		}
	}
	f.focusField(vis[((at+d)%len(vis)+len(vis))%len(vis)])
}

// name is the room name: as typed, or made from the topic.
func (f *RoomForm) name() string {
	if n := strings.TrimSpace(f.inputs[roomName].Value()); n != "" {
		return n
	}
	return slug(f.inputs[roomTopic].Value())
}

// submit checks the fields and creates the room in the background.
func (f *RoomForm) submit() tea.Cmd {
	f.errAt = roomFields
	name := f.name()
	topic := strings.TrimSpace(f.inputs[roomTopic].Value())
	switch {
	case topic == "":
		f.err = "Write the topic first: the decision " + f.who() + " should settle."
		f.focusField(roomTopic)
		return nil
	case name == "":
		f.err = "Name the room: letters, digits, '.', '_' or '-'."
		f.focusField(roomName)
		return nil
	}
	if err := room.ValidateName(name); err != nil {
		f.err = mdrender.Inline(err.Error())
		f.focusField(roomName)
		return nil
	}
	if f.followSeats(); f.seatsProblem != "" {
		f.err, f.errAt = f.seatsProblem, roomSeats
		f.focusField(roomSeats)
		return nil
	}
	spec := strings.TrimSpace(f.inputs[roomSpec].Value())
	_, note := room.SafeSpec(name, spec)
	f.note = note
	play, problem := f.checkSeats()
	if problem != "" {
		f.err = problem
		return nil
	}
	f.played = play
	agents := make([]string, len(f.seats))
	for i, seat := range f.seats {
		agents[i] = orDefault(f.inputs[seatField(i, kindLabel)].Value(), defaultAgent(i, seat))
		if play[i].on {
			agents[i] = playedLabel(play[i])
		}
	}
	f.stage = stageSeeding
	f.err = ""
	// The seats always go along, the default two too (room.json leaves
	// those out): a room that exists with other seats is refused, not
	// opened with sections that are not its own.
	opt := room.CreateOptions{Topic: topic, Budget: f.budget.value, Spec: spec, Seats: slices.Clone(f.seats)}
	return seedCmd(f.id, f.opts.Cwd, name, opt, agents, f.opts.Program)
}

// who is who settles the room's decision, for the form's sentences: the
// two agents, or a council's seats.
func (f *RoomForm) who() string {
	if !f.council() {
		return "the two agents"
	}
	return fmt.Sprintf("the %d seats", len(f.seats))
}

// council reports whether the seats are not the default lead and peer:
// the room is a council, with its own prompts and keys.
func (f *RoomForm) council() bool { return !slices.Equal(f.seats, room.DefaultSeats()) }

func (f *RoomForm) focusField(r roomField) {
	f.inputs[f.focus].Blur()
	f.budget.blur()
	f.focus = r
	if isText(r) {
		f.inputs[r].Focus()
	}
}

// seeded shows the commands, or goes back to the fields with the error,
// and starts the seats roundtable plays.
func (f *RoomForm) seeded(msg seededMsg) tea.Cmd {
	if msg.err == nil && !slices.Equal(msg.res.Seats, f.seats) {
		// Seeding refuses a room of other seats; one that still has them
		// (a debate's room of that name) is not opened as this one.
		msg.err = fmt.Errorf("room %s already exists with the seats %s; list those seats, or choose a new name", msg.res.Room, strings.Join(msg.res.Seats, ", "))
	}
	if msg.err != nil {
		f.stage = stageEdit
		text := msg.err.Error()
		if kind := room.ErrBadSeat.Error() + ": "; errors.Is(msg.err, room.ErrBadSeat) && strings.Contains(text, kind) {
			// The room's own sentence, without what wraps it.
			text = text[strings.Index(text, kind)+len(kind):]
		}
		f.err = "Could not create the room: " + mdrender.Inline(text)
		// Under the name, wrapped whole: a closed room is fixed there, and
		// a cause at the end of a long sentence stays in sight.
		f.errAt = roomName
		return nil
	}
	f.stage = stageReady
	f.res, f.existed = msg.res, msg.existed
	for i, seat := range f.seats {
		f.clients[i] = seatcmd.DefaultClient(seat, f.res.agent(i))
	}
	f.seatFocus = 0
	f.status = "Room ready: run each command in its agent's terminal (1 and 2 copy them)."
	if f.council() {
		f.status = fmt.Sprintf("Room ready: run each command in its agent's terminal (%s copy them).", f.digits())
	}
	f.layoutPage()
	if !slices.ContainsFunc(f.played[:], func(p played) bool { return p.on }) {
		return nil
	}
	f.status = "Room ready: starting the seats roundtable plays…"
	return startSeatsCmd(f.id, f.opts.Seats, f.opts.SeatProgram, f.res, f.played)
}

// syncKeys enables the keys of the stage and the focused field.
func (f *RoomForm) syncKeys() {
	k := &f.keys
	k.Submit.SetHelp("ctrl+s", "create")
	k.Press.SetHelp("enter", "create")
	k.Back.SetKeys("esc")
	k.Back.SetHelp("esc", "back")
	k.Up.SetHelp("↑", "up")
	k.Next.SetHelp("tab", "next field")
	k.Less.SetHelp("←/→", "change")
	switch {
	case f.stage == stageReady:
		// No text field on this page: q goes back, as on every screen.
		k.Back.SetKeys("esc", "q")
		k.Back.SetHelp("q/esc", "home")
		k.Up.SetHelp("↑/↓", "scroll")
		k.Less.SetHelp("←/→", "agent CLI")
		if f.council() {
			f.councilKeys()
			break
		}
		k.Next.SetHelp("tab", "lead/peer")
		k.CopyOne.SetKeys("1", "2", "3", "4", "5")
		k.CopyOne.SetHelp("1-5", "copy")
		if f.notMCP(0) && f.notMCP(1) {
			// roundtable plays both: no agent CLI, no prompt to paste.
			k.CopyOne.SetHelp("1/2", "copy a command")
			k.only(&k.Next, &k.Prev, &k.CopyOne, &k.CopyAll, &k.Watch, &k.Up, &k.Down, &k.Back)
			break
		}
		k.only(&k.Less, &k.More, &k.Next, &k.Prev, &k.CopyOne, &k.CopyAll, &k.Watch, &k.Up, &k.Down, &k.Back)
	case f.stage == stageSeeding:
		k.only(&k.Back)
	case f.focus == roomBudget:
		k.Less.SetHelp("←/→", "budget")
		k.only(&k.Next, &k.Prev, &k.Less, &k.More, &k.Submit, &k.Back)
	case isChoice(f.focus):
		k.Less.SetHelp("←/→", "choose")
		k.only(&k.Next, &k.Prev, &k.Less, &k.More, &k.Submit, &k.Back)
	case f.focus == roomCreate:
		k.only(&k.Next, &k.Prev, &k.Press, &k.Back)
	default:
		k.only(&k.Next, &k.Prev, &k.Submit, &k.Back)
	}
	if f.stage == stageEdit && !isText(f.focus) {
		// Nothing to type on this field: q goes back, as on every screen.
		k.Back.SetKeys("esc", "q")
		k.Back.SetHelp("q/esc", "back")
	}
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return def
}

// slug makes a room name from a topic (see room.Slug).
func slug(topic string) string { return room.Slug(topic) }

// seedCmd creates the room, writes its prompts and settles how the
// commands start roundtable.
func seedCmd(id int64, cwd, name string, opt room.CreateOptions, agents []string, program string) tea.Cmd {
	return func() tea.Msg {
		res, existed, err := seed(cwd, name, opt, agents, program)
		return seededMsg{id: id, res: res, existed: existed, err: err}
	}
}
