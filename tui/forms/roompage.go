package forms

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room/seatcmd"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// The commands page, once the room exists: what to paste into each agent
// the user starts, and how the seats roundtable plays are doing. A room
// of the lead and the peer keeps the keys it always had (1 and 2 the
// commands, 3 the mcpServers JSON, 4 and 5 the prompts); a council's
// digits are its seats' commands, m its JSON and p the focused seat's
// prompt.

// readyKey handles the keys of the commands page.
func (f *RoomForm) readyKey(msg tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	n := len(f.seats)
	switch {
	case key.Matches(msg, k.Watch):
		name, take := f.res.Room, f.personSeat()
		return func() tea.Msg { return WatchMsg{Room: name, Take: take} }
	case key.Matches(msg, k.CopyAll):
		f.status = "Copied every command and both prompts to the clipboard (OSC 52)."
		if f.council() {
			f.status = "Copied every command and the prompts of the seats you start to the clipboard (OSC 52)."
		}
		return tea.SetClipboard(f.allText())
	case key.Matches(msg, k.CopyOne):
		text, what := f.part(msg.Text)
		f.status = "Copied " + what + " to the clipboard (OSC 52)."
		return tea.SetClipboard(text)
	case key.Matches(msg, k.CopyJSON):
		f.status = fmt.Sprintf("Copied the mcpServers JSON of %s to the clipboard (OSC 52).", f.mcpSeatsNoun())
		return tea.SetClipboard(f.mcpServersJSON())
	case key.Matches(msg, k.CopyPrompt):
		i := f.seatFocus
		switch {
		case f.played[i].on:
			f.status = fmt.Sprintf("roundtable plays %s and briefs it itself: tab to a seat you start, then p copies its prompt.", f.seatNoun(i))
			return nil
		case f.persons[i]:
			f.status = fmt.Sprintf("You play %s at the keyboard, so no agent needs its prompt: tab to a seat an agent takes, then p copies its prompt.", f.seatNoun(i))
			return nil
		}
		path, text := f.res.prompt(i)
		f.status = fmt.Sprintf("Copied %s's prompt (%s) to the clipboard (OSC 52).", f.seatNoun(i), filepath.Base(path))
		return tea.SetClipboard(text)
	case key.Matches(msg, k.Next):
		f.seatFocus = (f.seatFocus + 1) % n
		f.layoutPage()
		f.showSeat()
	case key.Matches(msg, k.Prev):
		f.seatFocus = (f.seatFocus + n - 1) % n
		f.layoutPage()
		f.showSeat()
	case (key.Matches(msg, k.Less) || key.Matches(msg, k.More)) && f.notMCP(f.seatFocus):
		f.status = fmt.Sprintf("No agent of yours takes the %s seat: there is no agent CLI to choose.", mdrender.Inline(f.seats[f.seatFocus]))
	case key.Matches(msg, k.Less), key.Matches(msg, k.More):
		d := 1
		if key.Matches(msg, k.Less) {
			d = -1
		}
		f.clients[f.seatFocus] = f.clients[f.seatFocus].Next(d)
		// A seat labeled as a client labels it ("claude" for Claude
		// Code) follows the client chosen; a label of the user's stays.
		if i := f.seatFocus; i < len(f.res.Agents) && seatcmd.IsClientLabel(f.res.Agents[i]) {
			if l := f.clients[i].Label(); l != "" {
				f.res.Agents[i] = l
			}
		}
		f.layoutPage()
		f.showSeat()
		f.status = fmt.Sprintf("The %s seat's command is now for %s; %d copies it.", mdrender.Inline(f.seats[f.seatFocus]), f.clients[f.seatFocus].Name(), f.seatFocus+1)
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

// part is what a digit key copies: a seat's command; in a room of the
// lead and the peer, 3 is the mcpServers JSON and 4 and 5 the prompts.
func (f *RoomForm) part(k string) (text, what string) {
	if i := int(k[0] - '1'); len(k) == 1 && i >= 0 && i < len(f.seats) {
		how := f.clients[i].Name()
		switch {
		case f.played[i].on:
			how = "roundtable seat"
		case f.persons[i]:
			how = "roundtable watch --take"
		}
		return f.command(i), "the " + mdrender.Inline(f.seats[i]) + "'s command (" + how + ")"
	}
	switch k {
	case "3":
		return f.mcpServersJSON(), "the mcpServers JSON of both seats"
	case "4":
		_, text := f.res.prompt(0)
		return text, "the lead's prompt (lead.md)"
	}
	_, text = f.res.prompt(1)
	return text, "the peer's prompt (peer.md)"
}

// command is what seat i pastes with its chosen client.
func (f *RoomForm) command(i int) string { return f.seatCommandText(i) }

// notMCP reports whether seat i is one no agent of the user's joins over
// MCP: roundtable plays it, or the user does at the keyboard.
func (f *RoomForm) notMCP(i int) bool { return f.played[i].on || f.persons[i] }

// mcpSeatsNoun names the seats an agent joins over MCP: "the lead", "the
// 3 seats you start".
func (f *RoomForm) mcpSeatsNoun() string {
	ms := f.mcpSeats()
	if len(ms) == 1 {
		return f.seatNoun(ms[0])
	}
	return fmt.Sprintf("the %d seats you start", len(ms))
}

// digits names the keys that copy the seats' commands: "1 and 2", "1-4".
func (f *RoomForm) digits() string {
	if n := len(f.seats); n > 2 {
		return fmt.Sprintf("1-%d", n)
	}
	return "1 and 2"
}

// councilKeys enables the commands page's keys for a council: a digit for
// each seat, m and p while some seat is one the user starts.
func (f *RoomForm) councilKeys() {
	k := &f.keys
	n := len(f.seats)
	var digits []string
	for i := range n {
		digits = append(digits, fmt.Sprint(i+1))
	}
	k.CopyOne.SetKeys(digits...)
	k.CopyOne.SetHelp(strings.ReplaceAll(f.digits(), " and ", "/"), "copy a command")
	k.Next.SetHelp("tab", "next seat")
	if len(f.mcpSeats()) == 0 {
		// roundtable plays every seat: no agent CLI, no prompt to paste.
		k.only(&k.Next, &k.Prev, &k.CopyOne, &k.CopyAll, &k.Watch, &k.Up, &k.Down, &k.Back)
		return
	}
	k.only(&k.Less, &k.More, &k.Next, &k.Prev, &k.CopyOne, &k.CopyJSON, &k.CopyPrompt, &k.CopyAll, &k.Watch, &k.Up, &k.Down, &k.Back)
}

// allText is everything on the page, for y.
func (f *RoomForm) allText() string {
	var b strings.Builder
	for i, seat := range f.seats {
		how := f.clients[i].Name()
		switch {
		case f.played[i].on:
			how = "played by roundtable; started by the app, or run it yourself"
		case f.persons[i]:
			how = "played by you at the keyboard"
		}
		fmt.Fprintf(&b, "# %s seat (%s), %s\n%s\n\n", capital(mdrender.Inline(seat)), mdrender.Inline(f.res.agent(i)), how, f.command(i))
	}
	ms := f.mcpSeats()
	if len(ms) > 0 {
		fmt.Fprintf(&b, "# Agents configured by a file: the MCP seats' mcpServers entries\n%s\n\n", f.mcpServersJSON())
	}
	if !f.council() {
		fmt.Fprintf(&b, "# Then paste each seat's prompt into its agent:\n# %s\n# %s\n", f.res.Prompts[0], f.res.Prompts[1])
		return b.String()
	}
	if len(ms) > 0 {
		b.WriteString("# Then paste each seat's prompt into its agent:\n")
		for _, i := range ms {
			path, _ := f.res.prompt(i)
			fmt.Fprintf(&b, "# %s: %s\n", mdrender.Inline(f.seats[i]), path)
		}
	}
	return b.String()
}
