package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestAnyKindRendered: a room may carry any kind (the original server
// takes any string; we take any short label): the transcript shows each
// whole, on the message's header line, a hostile one on one line with its
// escape sequence made visible text.
func TestAnyKindRendered(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("very long kind ", 20))
	hostile := "line one\nline two \x1b[2J " + long
	r := writeRoom(t, "kinds", room.Config{Room: "kinds", Topic: "kinds", Budget: 4, Spec: "SPEC-kinds.md", CreatedAt: t0.Format(room.TimeLayout)}, []fileMsg{
		{1, t0.Format(room.TimeLayout), "lead", "opus-5", "concession", "The lead concedes.", 0},
		{2, t0.Format(room.TimeLayout), "peer", "codex", "counter-proposal", "A label of its own.", 0},
		{3, t0.Format(room.TimeLayout), "lead", "opus-5", hostile, "A kind from another server.", 0},
		{4, t0.Format(room.TimeLayout), "peer", "codex", "", "No kind at all.", 0},
	}, nil)
	md, html := renderMD(t, r), renderPage(t, r)
	shown := "line one line two ␛[2J " + long
	for _, kind := range []string{"concession", "counter-proposal", shown} {
		if !headerHas(md, kind) {
			t.Errorf("Markdown: no header line with kind %q:\n%s", kind, md)
		}
		if !strings.Contains(html, `<span class="kind">`+kind+`</span>`) {
			t.Errorf("HTML: kind %q not shown as a label", kind)
		}
	}
	for _, out := range []string{md, html} {
		if strings.Contains(out, "\x1b") {
			t.Error("the hostile kind's escape sequence reached the output")
		}
	}
}

// headerHas reports whether a line of md that holds a message's header
// carries kind.
func headerHas(md, kind string) bool {
	for _, line := range strings.Split(md, "\n") {
		if strings.Contains(line, kind) && (strings.Contains(line, "lead") || strings.Contains(line, "peer")) {
			return true
		}
	}
	return false
}

// TestRankingsGroupedApart: a debate's peer rankings come after its
// rounds, in a group of their own, before the verdict.
func TestRankingsGroupedApart(t *testing.T) {
	at := t0.Format(room.TimeLayout)
	r := writeRoom(t, "ranked", room.Config{
		Room: "ranked", Topic: "ranked", Budget: 1, Spec: "SPEC-ranked.md", CreatedAt: at,
		Mode: room.ModeDebate, Agents: []string{"Ann", "Bob"}, Rounds: 1, Rank: true,
	}, []fileMsg{
		{1, at, "Ann", "mock", "turn", "Ann's turn.", 1},
		{2, at, "Bob", "mock", "turn", "Bob's turn.", 1},
		{3, at, "Ann", "mock", room.KindRanking, "Ann ranks. FINAL RANKING: A", 1},
		{4, at, "Bob", "mock", room.KindRanking, "Bob ranks. FINAL RANKING: A", 1},
		{5, at, room.SeatModerator, "mock", room.KindSummary, "**Decision:** go.", 1},
	}, nil)
	out, last := renderMD(t, r), -1
	for _, want := range []string{"## Round 1", "Bob's turn.", "## Peer ranking", "Ann ranks.", "Bob ranks.", "## Verdict", "**Decision:** go."} {
		i := strings.Index(out, want)
		if i <= last {
			t.Fatalf("%q is missing or out of place (at %d, after %d):\n%s", want, i, last, out)
		}
		last = i
	}
	// The live page shows the rankings in the verdict's place, before it;
	// the turns stay in their columns.
	l, err := LiveView(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range l.Parts {
		got = append(got, fmt.Sprintf("%d:%v", p.Seq, p.Verdict))
	}
	if want := "1:false 2:false 3:true 4:true 5:true"; strings.Join(got, " ") != want {
		t.Errorf("live parts (seq:in the verdict's place) %s, want %s", strings.Join(got, " "), want)
	}
}

// TestStancesShown: a debate whose personas were given stances (debate
// --stances) names each one's stance beside its name in every export and
// on the live page; a persona without one shows none.
func TestStancesShown(t *testing.T) {
	at := t0.Format(room.TimeLayout)
	r := writeRoom(t, "stances", room.Config{
		Room: "stances", Topic: "stances", Budget: 1, Spec: "SPEC-stances.md", CreatedAt: at,
		Mode: room.ModeDebate, Agents: []string{"Ann", "Bob", "Cy"}, Rounds: 1,
		Personas: []room.PersonaInfo{
			{Name: "Ann", Persona: "a PM", Stance: "for"},
			{Name: "Bob", Persona: "an architect", Stance: "against\x1b[2J"},
			{Name: "Cy", Persona: "a reviewer"},
		},
	}, []fileMsg{
		{1, at, "Ann", "mock", "turn", "Ann's turn.", 1},
		{2, at, "Bob", "mock", "turn", "Bob's turn.", 1},
		{3, at, "Cy", "mock", "turn", "Cy's turn.", 1},
	}, nil)
	md, html := renderMD(t, r), renderPage(t, r)
	doc, err := Model(r)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(doc.Seats)
	if err != nil {
		t.Fatal(err)
	}
	js := string(data)
	for _, want := range []string{"  - Ann (for): mock\n", "  - Bob (against␛[2J): mock\n", "  - Cy: mock\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(html, `<span class="who s0">Ann</span> <span class="stance">(for)</span>: mock`) ||
		strings.Contains(html, `Cy</span> <span class="stance">`) {
		t.Errorf("HTML seat list does not show Ann's stance alone:\n%s", html)
	}
	if !strings.Contains(js, `"seat":"Ann","agents":"mock","class":"s0","stance":"for"`) {
		t.Errorf("JSON seats lack Ann's stance:\n%s", js)
	}
	for _, out := range []string{md, html, js} {
		if strings.Contains(out, "\x1b") {
			t.Error("a stance's escape sequence reached an export")
		}
	}
	l, err := LiveView(r)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, s := range l.Seats {
		got = append(got, s.Name+"="+s.Stance)
	}
	if want := "Ann=for Bob=against␛[2J Cy="; strings.Join(got, " ") != want {
		t.Errorf("live seats' stances %q, want %q", strings.Join(got, " "), want)
	}
}
