package debateview

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// benchPanel is a panel of five.
var benchPanel = []string{"Product Manager", "Software Architect", "Security Reviewer", "Cost Optimizer", "Site Reliability"}

// words returns Markdown of about n words: paragraphs and a list, like a
// persona's turn.
func words(n int, seed int) string {
	base := strings.Fields("the team weighs the cost of change against what users get back and how soon we can measure it while the risk of a new surface stays under control with a way back")
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch {
		case i > 0 && i%60 == 0:
			b.WriteString("\n\n")
		case i > 0 && i%20 == 0 && i%60 == 40:
			b.WriteString("\n- ")
		case i > 0:
			b.WriteByte(' ')
		}
		w := base[(i+seed)%len(base)]
		if i%17 == 0 {
			w = "**" + w + "**"
		}
		b.WriteString(w)
	}
	return b.String()
}

// benchScreen is a screen with five personas, sized w×h, whose clock the
// benchmark moves.
func benchScreen(b *testing.B, w, h int, clock *time.Time) *synth {
	b.Helper()
	s := &synth{}
	opts := Options{Context: context.Background(), Now: func() time.Time { return *clock }, Dark: true, ExportDir: b.TempDir(), Renderer: mdrender.New(true)}
	var ps []debate.Persona
	for _, n := range benchPanel {
		ps = append(ps, debate.Persona{Name: n, Persona: "a reviewer"})
	}
	l := Launch{Config: debate.Config{Topic: "Should we adopt GraphQL", Personas: ps, Rounds: 3}, Provider: debate.ProviderConfig{Name: "mock"}, Cwd: b.TempDir()}
	s.m = New(opts, l)
	s.send(tea.WindowSizeMsg{Width: w, Height: h})
	r, _, err := room.Create(l.Cwd, "bench", room.CreateOptions{Topic: "t", Mode: room.ModeDebate, Agents: benchPanel, Rounds: 3})
	if err != nil {
		b.Fatal(err)
	}
	s.send(startedMsg{id: s.m.id, run: s.m.run, room: r, events: make(chan debate.Event), cancel: func() {}})
	return s
}

// fullDebate gives a screen three rounds of ~400-word turns from five
// personas, and a verdict, all rendered.
func fullDebate(b *testing.B, s *synth) {
	for r := 1; r <= 3; r++ {
		for i, p := range benchPanel {
			s.speak(r, p, words(400, r*7+i))
		}
	}
	s.events(debate.Event{Type: debate.EventRoundEnd, Round: 3}, debate.Event{Type: debate.EventSummary, Text: words(300, 99)}, debate.Event{Type: debate.EventDone})
	s.settle()
}

// BenchmarkView is one frame of a finished debate at 200×50: five columns,
// three rounds of ~400-word turns, the verdict. Target: ≤ 8 ms.
func BenchmarkView(b *testing.B) {
	clock := fixedNow
	s := benchScreen(b, 200, 50, &clock)
	fullDebate(b, s)
	if n := strings.Count(s.view(), "╭─"); n != 6 {
		b.Fatalf("%d panes on screen, want 6:\n%s", n, s.view())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.m.View()
	}
}

// BenchmarkUpdateAndView is what the program does for each message once
// the debate is on screen: Update (which lays out and prepares the
// frame), then View.
func BenchmarkUpdateAndView(b *testing.B) {
	clock := fixedNow
	s := benchScreen(b, 200, 50, &clock)
	fullDebate(b, s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.m, _ = s.m.Update(animTickMsg{id: s.m.id})
		_ = s.m.View()
	}
}

// BenchmarkReflow is a resize of the finished debate between two widths
// whose renders are cached: the columns reflow, keeping their scroll.
func BenchmarkReflow(b *testing.B) {
	clock := fixedNow
	s := benchScreen(b, 200, 50, &clock)
	fullDebate(b, s)
	s.send(tea.WindowSizeMsg{Width: 180, Height: 50})
	s.settle()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := 180
		if i%2 == 0 {
			w = 200
		}
		s.m, _ = s.m.Update(tea.WindowSizeMsg{Width: w, Height: 50})
		_ = s.m.View()
	}
}

// stream feeds one turn of text to the screen token by token, in batches
// of batch events, as fast as tokensPerSec on the screen's clock, and
// fires the grow tick whenever it is due. It returns the tokens fed.
func stream(s *synth, clock *time.Time, round int, agent, text string, batch int, tokensPerSec float64) int {
	toks := tokens(text)
	step := time.Duration(float64(time.Second) * float64(batch) / tokensPerSec)
	s.m, _ = s.m.Update(eventsMsg{id: s.m.id, run: s.m.run, events: []debate.Event{{Type: debate.EventTurnStart, Round: round, Agent: agent}}})
	evs := make([]debate.Event, 0, batch)
	for i := 0; i < len(toks); i += batch {
		evs = evs[:0]
		for _, tok := range toks[i:min(i+batch, len(toks))] {
			evs = append(evs, debate.Event{Type: debate.EventToken, Round: round, Agent: agent, Text: tok})
		}
		*clock = clock.Add(step)
		s.m, _ = s.m.Update(eventsMsg{id: s.m.id, run: s.m.run, events: evs})
		_ = s.m.View()
		if s.m.growPending && !clock.Before(s.m.lastGrow.Add(mdrender.GrowingInterval)) {
			s.m, _ = s.m.Update(growTickMsg{id: s.m.id})
			_ = s.m.View()
		}
	}
	s.m, _ = s.m.Update(eventsMsg{id: s.m.id, run: s.m.run, events: []debate.Event{{Type: debate.EventTurnEnd, Round: round, Agent: agent, Text: text}}})
	_ = s.m.View()
	return len(toks)
}

// BenchmarkThroughput streams turns round-robin over five columns at
// 20,000 tokens a second of screen time, in the batches the reader takes
// (64 events: the engine's channel buffer), with Update and View for every
// batch. ns/token must stay far below 50 µs (1 s / 20,000) for the screen
// to keep up.
func BenchmarkThroughput(b *testing.B) {
	clock := fixedNow
	s := benchScreen(b, 200, 50, &clock)
	text := words(400, 3)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; n < b.N; i++ {
		n += stream(s, &clock, i/len(benchPanel)+1, benchPanel[i%len(benchPanel)], text, 64, 20000)
		if i%15 == 14 {
			// Three rounds done: start over, so columns do not grow
			// without end.
			b.StopTimer()
			s = benchScreen(b, 200, 50, &clock)
			b.StartTimer()
		}
	}
	b.StopTimer()
	perTok := float64(b.Elapsed().Nanoseconds()) / float64(n)
	b.ReportMetric(perTok, "ns/token")
	b.ReportMetric(1e9/perTok, "tokens/s")
}

// BenchmarkTokenCost is the cost of a token within one long turn, for turn
// lengths of 1 KB and 20 KB: the growing render keeps it flat.
func BenchmarkTokenCost(b *testing.B) {
	for _, size := range []int{1 << 10, 20 << 10} {
		b.Run(fmt.Sprintf("turn=%dKB", size>>10), func(b *testing.B) {
			text := words(size/6, 5)
			for len(text) < size {
				text += " " + words(20, len(text))
			}
			text = text[:size]
			clock := fixedNow
			s := benchScreen(b, 200, 50, &clock)
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := 0; n < b.N; i++ {
				n += stream(s, &clock, 1, benchPanel[i%len(benchPanel)], text, 64, 20000)
				b.StopTimer()
				s = benchScreen(b, 200, 50, &clock)
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/token")
		})
	}
}

// BenchmarkEngineThroughput runs whole mock debates at zero pace through
// the engine, the recorder (which writes the room) and the screen, with
// its real commands and goroutines: the tokens per second the whole path
// sustains.
func BenchmarkEngineThroughput(b *testing.B) {
	total := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h := newHarness(&testing.T{})
		h.start(New(h.options(), mockLaunch(b.TempDir(), 3)), 200, 50)
		deadline := time.Now().Add(time.Minute)
		for !settled(h.m) && time.Now().Before(deadline) {
			h.send(<-h.msgs)
		}
		total += h.m.usage.CompletionTokens
		h.close()
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkColdLayout is the first frame of a debate whose texts are not
// rendered yet (a replay just opened, or a width never seen): Update lays
// out five columns of three ~400-word turns with plain stand-ins, leaving
// Glamour to a background command.
func BenchmarkColdLayout(b *testing.B) {
	clock := fixedNow
	texts := make([]string, 15)
	for i := range texts {
		texts[i] = words(400, i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := benchScreen(b, 120, 50, &clock)
		for r := 1; r <= 3; r++ {
			for j, p := range benchPanel {
				c := s.m.column(p)
				c.turns = append(c.turns, &turn{round: r, text: texts[(r-1)*5+j]})
			}
		}
		b.StartTimer()
		s.m, _ = s.m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
		_ = s.m.View()
	}
}

// BenchmarkFeedDraft is one draft write taken in by a screen following a
// room another process runs, at 200×50 with five personas: the snapshot
// applied (the speaker's draft grown by ~30 tokens, what one write carries
// at 900 tokens/s and 30 writes a second), its growing render, the frame.
// It reports the cost per snapshot and per token.
func BenchmarkFeedDraft(b *testing.B) {
	cwd := b.TempDir()
	r, _, err := room.Create(cwd, "feed", room.CreateOptions{Topic: "Should we adopt GraphQL", Mode: room.ModeDebate, Agents: benchPanel, Rounds: 3})
	if err != nil {
		b.Fatal(err)
	}
	m := newRoomModel(Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true, Renderer: mdrender.New(true)}, r, nil)
	m.feed.watch = &roomWatch{cancel: func() {}}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	toks := tokens(words(400, 3))
	const perWrite = 30
	start := fixedNow
	var text strings.Builder
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n >= len(toks) { // the turn ends: its message, a new draft
			start = start.Add(time.Minute)
			text.Reset()
			n = 0
		}
		for k := 0; k < perWrite && n < len(toks); k++ {
			text.WriteString(toks[n])
			n++
		}
		m.applyRoom(Snapshot{Drafts: []room.Draft{{Seat: benchPanel[0], StartedAt: start, Text: text.String()}}})
		_ = m.growNow(true)
		_ = m.refresh()
		_ = m.View()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/perWrite, "ns/token")
}
