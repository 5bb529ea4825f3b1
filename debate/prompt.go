package debate

import (
	"fmt"
	"strings"
	"text/template"

	"github.com/roundtable-dev/roundtable/prompts"
)

// templates are the embedded prompts, parsed once. A template that does not
// parse is a build mistake, caught by the package's tests.
var templates = template.Must(
	template.New("debate").Option("missingkey=error").ParseFS(prompts.Debate, "debate/*.md"),
)

// promptData is what the prompt templates see.
type promptData struct {
	Topic      string
	Name       string
	Persona    string
	Stance     string
	Others     string // the other personas, as a phrase
	Panel      string // every persona, as a phrase
	Round      int
	Rounds     int
	Blind      bool
	Final      bool
	Transcript string
	Purpose    Purpose // agent prompts: what the request is for
	ReadOnly   bool    // agent prompts: the agent may not change anything
	Responses  string  // a ranking request: the turns to rank, unlabelled
	Letters    string  // a ranking request: the letters shown, "A, B, C"
	Rankings   string  // the verdict: the panel's peer rankings, when it ranked
}

func render(name string, d promptData) string {
	var b strings.Builder
	if err := templates.ExecuteTemplate(&b, name, d); err != nil {
		// The data is a fixed struct, so this is a build mistake.
		panic(fmt.Sprintf("debate: prompt %s: %v", name, err))
	}
	return strings.TrimSpace(b.String())
}

// turnMessages are the chat messages for a persona's turn.
func turnMessages(info TurnInfo) []Message {
	d := promptData{
		Topic: info.Topic, Name: info.Speaker.Name, Persona: info.Speaker.Persona,
		Stance: info.Speaker.Stance, Others: prompts.AndList(othersThan(info.Personas, info.Speaker.Name)),
		Round: info.Round, Rounds: info.Rounds, Blind: info.Blind,
		Final:      info.Round == info.Rounds && info.Rounds > 1,
		Transcript: FormatTranscript(info.Transcript),
	}
	return []Message{
		{Role: RoleSystem, Content: render("persona_system.md", d)},
		{Role: RoleUser, Content: render("persona_turn.md", d)},
	}
}

// verdictMessages are the chat messages for the moderator's verdict.
func verdictMessages(info TurnInfo) []Message {
	d := moderatorData(info)
	return []Message{
		{Role: RoleSystem, Content: render("moderator_system.md", d)},
		{Role: RoleUser, Content: render("moderator_verdict.md", d)},
	}
}

// rankMessages are the chat messages for a persona's ranking of the
// others' final turns (info.Ranked), shown without their names.
func rankMessages(info TurnInfo) []Message {
	d := promptData{
		Topic: info.Topic, Name: info.Speaker.Name, Persona: info.Speaker.Persona,
		Stance: info.Speaker.Stance, Round: info.Round, Rounds: info.Rounds,
	}
	var b strings.Builder
	letters := make([]string, len(info.Ranked))
	for i, t := range info.Ranked {
		if i > 0 {
			b.WriteString("\n\n")
		}
		letters[i] = responseLetter(i)
		fmt.Fprintf(&b, "### %s\n\n%s", ResponseLabel(i), strings.TrimSpace(t.Text))
	}
	d.Responses, d.Letters = b.String(), strings.Join(letters, ", ")
	return []Message{
		{Role: RoleSystem, Content: render("rank_system.md", d)},
		{Role: RoleUser, Content: render("rank_turn.md", d)},
	}
}

// FormatRankings writes the panel's peer rankings the way the moderator's
// prompt shows them: each ranking in persona names, then each persona's
// mean position; "" when there are none. names are the personas in
// speaking order.
func FormatRankings(rankings []Ranking, names []string) string {
	if len(rankings) == 0 {
		return ""
	}
	var b strings.Builder
	for _, rk := range rankings {
		if len(rk.Order) == 0 {
			fmt.Fprintf(&b, "- %s gave no ranking that could be read.\n", rk.Agent)
			continue
		}
		fmt.Fprintf(&b, "- %s ranked: %s\n", rk.Agent, strings.Join(rk.Order, ", "))
	}
	b.WriteString("\nMean position (1 is best; lower is better):\n")
	for _, s := range AggregateRankings(rankings, names) {
		if s.Rankers == 0 {
			fmt.Fprintf(&b, "- %s: not ranked\n", s.Name)
			continue
		}
		fmt.Fprintf(&b, "- %s: %.1f (%d %s)\n", s.Name, s.Mean, s.Rankers, plural(s.Rankers, "ranking", "rankings"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// consensusMessages are the chat messages for the check after a round.
func consensusMessages(info TurnInfo) []Message {
	d := moderatorData(info)
	return []Message{
		{Role: RoleSystem, Content: render("consensus_system.md", d)},
		{Role: RoleUser, Content: render("consensus_check.md", d)},
	}
}

func moderatorData(info TurnInfo) promptData {
	names := make([]string, len(info.Personas))
	for i, p := range info.Personas {
		names[i] = p.Name
	}
	return promptData{
		Topic: info.Topic, Name: info.Speaker.Name, Persona: info.Speaker.Persona,
		Panel: prompts.AndList(names), Round: info.Round, Rounds: info.Rounds,
		Transcript: FormatTranscript(info.Transcript),
		Rankings:   FormatRankings(info.Rankings, names),
	}
}

// FormatTranscript writes turns the way prompts show them: a heading per
// turn, then its text.
func FormatTranscript(turns []Turn) string {
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if t.Note {
			formatNote(&b, t)
			continue
		}
		fmt.Fprintf(&b, "### %s (round %d)\n\n%s", t.Agent, t.Round, strings.TrimSpace(t.Text))
		if t.Incomplete {
			b.WriteString("\n\n(cut off before the end)")
		}
	}
	return b.String()
}

// ParseConsensus reads the moderator's answer to a consensus check: true
// when the first non-empty line says CONSENSUS (and not "no consensus").
func ParseConsensus(reply string) bool {
	for _, line := range strings.Split(reply, "\n") {
		l := strings.ToUpper(strings.Trim(strings.TrimSpace(line), "*#_>`:. "))
		if l == "" {
			continue
		}
		return strings.HasPrefix(l, "CONSENSUS") || strings.HasPrefix(l, "YES")
	}
	return false
}

func othersThan(ps []Persona, name string) []string {
	var out []string
	for _, p := range ps {
		if p.Name != name {
			out = append(out, p.Name)
		}
	}
	return out
}
