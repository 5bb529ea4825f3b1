package forms

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// The commands page, once the room exists: what to paste into each agent
// the user starts, and how the seats roundtable plays are doing.

// seats are the room's lead and peer.
var seats = [2]string{room.SeatLead, room.SeatPeer}

// command is what seat i (0 lead, 1 peer) pastes with its chosen client.
func (f *RoomForm) command(i int) string { return f.seatCommandText(i) }

// readyKey handles the keys of the commands page.
func (f *RoomForm) readyKey(msg tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	switch {
	case key.Matches(msg, k.Watch):
		name := f.res.Room
		return func() tea.Msg { return WatchMsg{Room: name} }
	case key.Matches(msg, k.CopyAll):
		f.status = "Copied every command and both prompts to the clipboard (OSC 52)."
		return tea.SetClipboard(f.allText())
	case key.Matches(msg, k.CopyOne):
		text, what := f.part(msg.Text)
		f.status = "Copied " + what + " to the clipboard (OSC 52)."
		return tea.SetClipboard(text)
	case key.Matches(msg, k.Next), key.Matches(msg, k.Prev):
		f.seatFocus = 1 - f.seatFocus
		f.layoutPage()
		f.showSeat()
	case (key.Matches(msg, k.Less) || key.Matches(msg, k.More)) && f.played[f.seatFocus].on:
		f.status = fmt.Sprintf("The %s seat is played by roundtable: there is no agent CLI to choose.", seats[f.seatFocus])
	case key.Matches(msg, k.Less), key.Matches(msg, k.More):
		d := 1
		if key.Matches(msg, k.Less) {
			d = -1
		}
		f.clients[f.seatFocus] = f.clients[f.seatFocus].Next(d)
		f.layoutPage()
		f.showSeat()
		f.status = fmt.Sprintf("The %s seat's command is now for %s; %d copies it.", seats[f.seatFocus], f.clients[f.seatFocus].Name(), f.seatFocus+1)
	case key.Matches(msg, k.Up):
		f.scroll(-1)
	case key.Matches(msg, k.Down):
		f.scroll(1)
	case key.Matches(msg, k.PageUp):
		f.scroll(-f.pageHeight() + 1)
	case key.Matches(msg, k.PageDown):
		f.scroll(f.pageHeight() - 1)
	}
	return nil
}

// part is what a digit key copies.
func (f *RoomForm) part(k string) (text, what string) {
	switch k {
	case "1", "2":
		i := int(k[0] - '1')
		how := f.clients[i].Name()
		if f.played[i].on {
			how = "roundtable seat"
		}
		return f.command(i), "the " + seats[i] + "'s command (" + how + ")"
	case "3":
		return seatcmd.MCPServersJSON(f.mcpSeats()...), "the mcpServers JSON of both seats"
	case "4":
		return f.res.LeadPrompt, "the lead's prompt (lead.md)"
	}
	return f.res.PeerPrompt, "the peer's prompt (peer.md)"
}

// allText is everything on the page, for y.
func (f *RoomForm) allText() string {
	var b strings.Builder
	for i, label := range []string{f.res.LeadAgent, f.res.PeerAgent} {
		how := f.clients[i].Name()
		if f.played[i].on {
			how = "played by roundtable; started by the app, or run it yourself"
		}
		fmt.Fprintf(&b, "# %s seat (%s), %s\n%s\n\n", strings.ToUpper(seats[i][:1])+seats[i][1:], label, how, f.command(i))
	}
	if ms := f.mcpSeats(); len(ms) > 0 {
		fmt.Fprintf(&b, "# Agents configured by a file: the MCP seats' mcpServers entries\n%s\n\n", seatcmd.MCPServersJSON(ms...))
	}
	fmt.Fprintf(&b, "# Then paste each seat's prompt into its agent:\n# %s\n# %s\n", f.res.Prompts[0], f.res.Prompts[1])
	return b.String()
}
