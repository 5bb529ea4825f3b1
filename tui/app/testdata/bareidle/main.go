// Command bareidle is the floor of the idle-CPU benchmark (BenchmarkIdleCPU
// in tui/app): a Bubble Tea v2 program that draws one still line in the
// alternate screen at the frame rate given by -fps and does nothing else
// until q. An idle roundtable screen is measured as a ratio to it, in the
// same run, because Bubble Tea's renderer wakes -fps times a second for
// the program's life whatever the program does.
package main

import (
	"flag"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

type model struct{}

func (model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "q" {
		return m, tea.Quit
	}
	return m, nil
}

func (model) View() tea.View {
	v := tea.NewView("bare idle program: nothing changes here")
	v.AltScreen = true
	return v
}

func main() {
	fps := flag.Int("fps", 30, "frames a second")
	flag.Parse()
	if _, err := tea.NewProgram(model{}, tea.WithFPS(*fps)).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
