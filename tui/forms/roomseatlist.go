package forms

import (
	"maps"
	"slices"
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// The Seats field: the room's seats in turn order, the lead first, as
// `roundtable seed --seats` takes them. The form has a section for each
// seat, and the sections follow the list as it is typed: a list that is
// not one yet leaves them as they were, and a seat keeps what was chosen
// for it while its name stays in the list (or comes back to it).

// defaultSeatList is the Seats field's text for the default two seats.
const defaultSeatList = "lead, peer"

// seatsHint is the Seats field's hint.
const seatsHint = "2-8 seats, the lead first, e.g. lead, critic, security, peer: each gets a section below."

// seatSlot is what the form holds for one seat: its choices and what is
// typed in its fields. It moves with the seat when the list changes.
type seatSlot struct {
	choice seatChoice
	values [seatKinds]string
}

// slot is what seat i holds now.
func (f *RoomForm) slot(i int) seatSlot {
	s := seatSlot{choice: f.seatChoices[i]}
	for k := range seatKinds {
		s.values[k] = f.inputs[seatField(i, k)].Value()
	}
	return s
}

// setSlot puts s in seat i, named seat.
func (f *RoomForm) setSlot(i int, seat string, s seatSlot) {
	f.seatChoices[i] = s.choice
	for k := range seatKinds {
		in := &f.inputs[seatField(i, k)]
		in.SetValue(s.values[k])
		in.CursorEnd()
	}
	f.inputs[seatField(i, kindLabel)].Placeholder = defaultAgent(i, seat)
	f.setModelPlaceholder(i)
}

// freshSlot is what a seat new to the list starts with: an agent over
// MCP; the app's provider and model for when it becomes a model, and the
// agent its label defaults to for when it becomes an ACP agent.
func (f *RoomForm) freshSlot(i int, seat string) seatSlot {
	provider, pc := f.defaultProvider()
	s := seatSlot{choice: seatChoice{mind: mindMCP, provider: provider, preset: defaultPreset(i, seat), tools: f.opts.AgentTools}}
	if f.opts.Provider.Model != "" && pc.Name != debate.ProviderMock {
		s.values[kindModel] = f.opts.Provider.Model
	}
	return s
}

// defaultAgent labels seat i when its label is left empty: Claude Code
// leads, Codex is the peer, and a council's other seats take turns
// between the two, so the seats next to each other differ.
func defaultAgent(i int, seat string) string {
	switch {
	case seat == room.SeatLead:
		return DefaultLeadAgent
	case seat == room.SeatPeer || i%2 == 1:
		return DefaultPeerAgent
	default:
		return DefaultLeadAgent
	}
}

// defaultPreset is the ACP agent seat i starts with: the one its default
// label names.
func defaultPreset(i int, seat string) int {
	return max(slices.Index(seatproc.Presets, defaultAgent(i, seat)), 0)
}

// seatList reads the Seats field: the default seats when it is empty,
// else its list, checked as the room will check it; the error is a
// sentence for the form.
func (f *RoomForm) seatList() ([]string, string) {
	v := f.inputs[roomSeats].Value()
	if strings.TrimSpace(v) == "" {
		return room.DefaultSeats(), ""
	}
	for _, s := range strings.Split(v, ",") {
		if strings.TrimSpace(s) == "" {
			return nil, "The seats: a name is missing between two commas or at an end; remove the comma, or name the seat."
		}
	}
	seats, err := room.ParseSeatList(v)
	if err != nil {
		return nil, "The seats: " + mdrender.Inline(strings.TrimPrefix(err.Error(), room.ErrBadSeat.Error()+": ")) + "."
	}
	// Each seat's MCP server gets a name of its own (seatcmd.ServerName),
	// whatever characters the seats' names hold.
	return seats, ""
}

// followSeats gives the form a section for each seat of the Seats field's
// list, when it is one; otherwise it says why (seatsProblem) and leaves
// the sections as they are.
func (f *RoomForm) followSeats() {
	seats, problem := f.seatList()
	f.seatsProblem = problem
	if problem == "" && !slices.Equal(seats, f.seats) {
		f.setSeats(seats)
	}
}

// setSeats lays the sections out for seats. A seat in the list before
// keeps its slot; one dropped from it is kept aside by name, and comes
// back when listed again; a list of as many seats with one name changed
// is the seat renamed, keeping its choices; any other new seat starts
// afresh.
func (f *RoomForm) setSeats(seats []string) {
	old := f.seats
	slots := make([]seatSlot, len(old))
	for i := range old {
		slots[i] = f.slot(i)
	}
	stash := maps.Clone(f.stash)
	if stash == nil {
		stash = map[string]seatSlot{}
	}
	for i, seat := range old {
		if !slices.Contains(seats, seat) {
			stash[seat] = slots[i]
		}
	}
	next := make([]seatSlot, len(seats))
	for i, seat := range seats {
		j := slices.Index(old, seat)
		kept, stashed := stash[seat]
		switch {
		case j >= 0:
			next[i] = slots[j]
		case stashed:
			next[i] = kept
			delete(stash, seat)
		case len(seats) == len(old) && !slices.Contains(seats, old[i]):
			next[i] = slots[i]
		default:
			next[i] = f.freshSlot(i, seat)
		}
	}
	f.seats = slices.Clone(seats)
	for i := range room.MaxSeats {
		switch {
		case i < len(seats):
			f.setSlot(i, seats[i], next[i])
		default:
			f.setSlot(i, "", f.freshSlot(i, ""))
		}
	}
	f.stash = stash
	f.inputs[roomTopic].Placeholder = "the decision " + f.who() + " should settle"
}
