package watch

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// The verdict key (V) asks the moderator for the structured verdict a
// persona debate ends with, over the room's transcript, as `roundtable
// verdict` does, in the background: the model is the one the environment
// names (ROUNDTABLE_PROVIDER, ROUNDTABLE_MODEL, ROUNDTABLE_BASE_URL; the
// mock when none), and the verdict is saved beside the spec.

// verdictMsg is a verdict asked for by this screen (id), saved at Path.
type verdictMsg struct {
	id   int64
	Path string
	Err  error
}

// askVerdict is the background command of V.
func askVerdict(id int64, r *room.Room) tea.Cmd {
	return func() tea.Msg {
		pc, err := debate.ResolveProvider(debate.ProviderConfig{}, os.Getenv)
		if err != nil {
			return verdictMsg{id: id, Err: err}
		}
		p, err := debate.NewProvider(pc)
		if err != nil {
			return verdictMsg{id: id, Err: err}
		}
		path, err := debate.SaveRoomVerdict(context.Background(), r, p, nil)
		return verdictMsg{id: id, Path: path, Err: err}
	}
}

// verdictDone says where the verdict is, or why there is none.
func (m *Model) verdictDone(msg verdictMsg) {
	if msg.Err != nil {
		m.setStatus("No verdict: "+mdrender.Inline(msg.Err.Error()), false)
		return
	}
	m.setStatus("The moderator's verdict is saved in "+msg.Path, true)
}
