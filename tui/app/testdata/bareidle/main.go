// Command bareidle is the floor of the idle-CPU benchmark (BenchmarkIdleCPU
// in tui/app): a Bubble Tea v2 program that draws one still line in the
// alternate screen at the frame rate given by -fps and does nothing else
// until q. An idle roundtable screen is measured as a ratio to it, in the
// same run, because Bubble Tea's renderer wakes -fps times a second for
// the program's life whatever the program does.
//
// With -clock it is the floor of a screen whose clock moves once a second
// (the watch screen on an open room): it fills the window with text and
// moves a clock on its first line once a second, so each second Bubble
// Tea repaints a full frame, as it does for that screen.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

type model struct {
	clock         bool
	start, now    time.Time
	width, height int
}

type tickMsg time.Time

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m model) Init() tea.Cmd {
	if m.clock {
		return tick()
	}
	return nil
}

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tickMsg:
		m.now = time.Time(msg)
		return m, tick()
	}
	return m, nil
}

func (m model) View() tea.View {
	text := "bare idle program: nothing changes here"
	if m.clock {
		var b strings.Builder
		fmt.Fprintf(&b, "bare clock program: %s since the start", m.now.Sub(m.start).Round(time.Second))
		line := strings.Repeat("a full line of still text, ", m.width/27+1)
		for range max(m.height-1, 0) {
			b.WriteString("\n" + line[:max(m.width, 0)])
		}
		text = b.String()
	}
	v := tea.NewView(text)
	v.AltScreen = true
	return v
}

func main() {
	fps := flag.Int("fps", 30, "frames a second")
	clock := flag.Bool("clock", false, "fill the window and move a clock once a second")
	flag.Parse()
	now := time.Now()
	m := model{clock: *clock, start: now, now: now}
	if _, err := tea.NewProgram(m, tea.WithFPS(*fps)).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
