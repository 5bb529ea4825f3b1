package debate

import (
	"fmt"
	"io"
	"strings"

	"github.com/roundtable-dev/roundtable/prompts"
)

// Transcript collects a debate's events into a finished transcript, for
// the headless md format and for tests. Feed it every event with Add.
type Transcript struct {
	Topic    string
	Agents   []string
	Rounds   int
	Provider string
	Turns    []Turn
	Verdict  string
	Held     int // rounds held (the summary's round)
	// Consensus is the round after which the moderator found consensus
	// and stopped the debate early; 0 when it did not.
	Consensus int
	Error     string // the error event's message, if the debate failed
	Usage     Usage  // the debate's total
	// Budget is the budget event's reason when a budget stopped the
	// debate before its last round; "" otherwise.
	Budget string
	// Rankings are the personas' peer rankings (Config.Rank), in the
	// order given.
	Rankings []Ranking
}

// Add takes one event into the transcript.
func (t *Transcript) Add(ev Event) {
	switch ev.Type {
	case EventSessionStart:
		t.Topic, t.Agents, t.Rounds, t.Provider = ev.Topic, ev.Agents, ev.Rounds, ProviderLabel(ev.Provider, ev.Model)
	case EventTurnEnd:
		t.Turns = append(t.Turns, Turn{Round: ev.Round, Agent: ev.Agent, Model: ev.Model, Text: ev.Text, Incomplete: ev.Incomplete, Truncated: ev.Truncated})
	case EventRanking:
		t.Rankings = append(t.Rankings, Ranking{Agent: ev.Agent, Round: ev.Round, Model: ev.Model, Text: ev.Text, Order: ev.Ranking})
	case EventSummary:
		t.Verdict, t.Held = ev.Text, ev.Round
	case EventDone:
		if ev.Usage != nil {
			t.Usage = *ev.Usage
		}
	case EventError:
		t.Error = ev.Text
		if ev.Usage != nil {
			t.Usage = *ev.Usage
		}
	case EventRoundEnd:
		if ev.Consensus != nil && *ev.Consensus {
			t.Consensus = ev.Round
		}
	case EventNote:
		t.Turns = append(t.Turns, NoteTurn(ev.Round, ev.Text))
	case EventBudget:
		t.Budget, t.Held = ev.Text, ev.Round
	case EventRoundStart, EventTurnStart, EventToken, EventRetry, EventActivity, EventPause:
	}
}

// WriteMarkdown writes the transcript as a Markdown document: the topic,
// each round's turns, the moderator's verdict, and how it ended.
func (t *Transcript) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(t.Topic))
	fmt.Fprintf(&b, "*Persona debate: %s; %d %s", prompts.AndList(t.Agents), t.Rounds, plural(t.Rounds, "round", "rounds"))
	if t.Provider != "" {
		fmt.Fprintf(&b, "; provider %s", t.Provider)
	}
	b.WriteString(".*\n")
	round := 0
	for _, turn := range t.Turns {
		if turn.Round != round {
			round = turn.Round
			fmt.Fprintf(&b, "\n## Round %d\n", round)
		}
		if turn.Note {
			writeNoteMarkdown(&b, turn)
			continue
		}
		fmt.Fprintf(&b, "\n### %s", turn.Agent)
		if turn.Model != "" && turn.Model != t.Provider {
			fmt.Fprintf(&b, " (%s)", turn.Model)
		}
		fmt.Fprintf(&b, "\n\n%s\n", strings.TrimSpace(turn.Text))
		if turn.Incomplete {
			b.WriteString("\n*[incomplete: the turn was cut off]*\n")
		}
	}
	if t.Consensus > 0 && t.Consensus < t.Rounds {
		fmt.Fprintf(&b, "\n*The moderator found consensus after round %d of %d and stopped the debate there.*\n", t.Consensus, t.Rounds)
	}
	if t.Budget != "" {
		fmt.Fprintf(&b, "\n*The debate stopped in round %d: %s. The verdict is on what was said.*\n", t.Held, oneLine(t.Budget))
	}
	if len(t.Rankings) > 0 {
		b.WriteString("\n## Peer ranking\n\n*Each persona ranked the others' final turns, shown without names; best first.*\n\n")
		for _, rk := range t.Rankings {
			if len(rk.Order) == 0 {
				fmt.Fprintf(&b, "- %s gave no ranking that could be read.\n", oneLine(rk.Agent))
				continue
			}
			fmt.Fprintf(&b, "- %s: %s\n", oneLine(rk.Agent), oneLine(strings.Join(rk.Order, ", ")))
		}
		b.WriteString("\n| Persona | Mean position | Rankers |\n| --- | --- | --- |\n")
		for _, s := range AggregateRankings(t.Rankings, t.Agents) {
			mean := "–"
			if s.Rankers > 0 {
				mean = fmt.Sprintf("%.1f", s.Mean)
			}
			fmt.Fprintf(&b, "| %s | %s | %d |\n", strings.ReplaceAll(oneLine(s.Name), "|", "\\|"), mean, s.Rankers)
		}
	}
	if t.Verdict != "" {
		fmt.Fprintf(&b, "\n## Verdict\n\n%s\n", strings.TrimSpace(t.Verdict))
	}
	if t.Error != "" {
		fmt.Fprintf(&b, "\n---\n\n*The debate ended early: %s.*\n", oneLine(t.Error))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
