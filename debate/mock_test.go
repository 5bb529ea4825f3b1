package debate

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

func runMock(t *testing.T, cfg Config) (Transcript, []Event) {
	t.Helper()
	eng, err := New(cfg, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	var tr Transcript
	for _, ev := range evs {
		tr.Add(ev)
	}
	return tr, evs
}

// TestMockTranscriptGolden pins the mock's debate for fixed seeds.
func TestMockTranscriptGolden(t *testing.T) {
	cases := map[string]Config{
		"graphql-default-trio": {Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 3, Seed: 1},
		"kubernetes-custom-blind": {
			Topic: "Migrate to Kubernetes", Rounds: 2, Seed: 42, BlindOpening: true,
			Personas: append(DefaultPersonas()[1:], Persona{Name: "Cost Optimizer", Persona: "a finance-minded reviewer who scrutinizes spend and ROI", Stance: StanceAgainst},
				Persona{Name: "Historian", Persona: "someone who remembers every past migration"}),
		},
	}
	for name, cfg := range cases {
		tr, _ := runMock(t, cfg)
		var b bytes.Buffer
		if err := tr.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		readGolden(t, name, b.Bytes())
	}
}

func TestMockIsDeterministic(t *testing.T) {
	cfg := Config{Topic: "Rewrite the billing service in Rust", Personas: personasN(5), Rounds: 4, Seed: 9}
	a, _ := runMock(t, cfg)
	b, _ := runMock(t, cfg)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("the same seed gave two debates")
	}
	cfg.Seed = 10
	c, _ := runMock(t, cfg)
	if fmt.Sprint(a.Turns) == fmt.Sprint(c.Turns) {
		t.Fatal("another seed gave the same debate")
	}
	cfg.Seed, cfg.Topic = 9, "Adopt Kafka"
	d, _ := runMock(t, cfg)
	if fmt.Sprint(a.Turns) == fmt.Sprint(d.Turns) || !strings.Contains(d.Turns[0].Text+d.Turns[1].Text+d.Turns[2].Text, "Kafka") {
		t.Fatal("another topic gave the same debate, or the topic is not mentioned")
	}
}

// TestMockReadsLikeADebate checks, over many seeds, that later turns answer
// earlier speakers by name and quote them, that personas sound different,
// and that the verdict has its structure and quotes a real dissenting line.
func TestMockReadsLikeADebate(t *testing.T) {
	quoteRE := regexp.MustCompile(`“([^”]+)”`)
	for seed := int64(1); seed <= 25; seed++ {
		tr, _ := runMock(t, Config{Topic: "Should we adopt GraphQL", Personas: personasN(3 + int(seed%3)), Rounds: 3, Seed: seed})
		all := ""
		for _, turn := range tr.Turns {
			all += turn.Text + "\n"
		}
		for i, turn := range tr.Turns {
			if !strings.Contains(turn.Text, positionMark) {
				t.Fatalf("seed %d turn %d has no position line", seed, i)
			}
			if turn.Round > 1 {
				named := false
				for _, other := range tr.Agents {
					if other != turn.Agent && strings.Contains(turn.Text, other) {
						named = true
					}
				}
				if !named {
					t.Errorf("seed %d: %s in round %d answers nobody by name:\n%s", seed, turn.Agent, turn.Round, turn.Text)
				}
				for _, m := range quoteRE.FindAllStringSubmatch(turn.Text, -1) {
					q := strings.TrimSuffix(m[1], "…")
					if !strings.Contains(strings.ReplaceAll(all, "**", ""), q) {
						t.Errorf("seed %d: %s quotes words nobody said: %q", seed, turn.Agent, q)
					}
				}
			}
		}
		v := tr.Verdict
		if !strings.HasPrefix(v, "**Decision:**") {
			t.Errorf("seed %d: the verdict's first line is not the decision: %q", seed, v)
		}
		for _, sec := range []string{"**Confidence:**", "### Where they agreed", "### Dissent", "### Risks", "### Next steps"} {
			if !strings.Contains(v, sec) {
				t.Errorf("seed %d: the verdict lacks %q", seed, sec)
			}
		}
		_, dissent, _ := strings.Cut(v, "### Dissent")
		dissent, _, _ = strings.Cut(dissent, "### Risks")
		m := quoteRE.FindStringSubmatch(dissent)
		if m == nil || !strings.Contains(all, m[1]) {
			t.Errorf("seed %d: the dissent does not quote the transcript: %q", seed, dissent)
		}
	}
}

func TestMockPersonasSoundDifferent(t *testing.T) {
	tr, _ := runMock(t, Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 1, Seed: 1})
	for i := range tr.Turns {
		for j := i + 1; j < len(tr.Turns); j++ {
			a, b := strings.Fields(tr.Turns[i].Text), strings.Fields(tr.Turns[j].Text)
			if overlap(a, b) > 0.5 {
				t.Errorf("%s and %s say much the same", tr.Turns[i].Agent, tr.Turns[j].Agent)
			}
		}
	}
}

func overlap(a, b []string) float64 {
	set := map[string]bool{}
	for _, w := range a {
		set[w] = true
	}
	n := 0
	for _, w := range b {
		if set[w] {
			n++
		}
	}
	return float64(n) / float64(max(len(b), 1))
}

func TestMockConsensus(t *testing.T) {
	info := TurnInfo{Purpose: PurposeConsensus, Round: 2, Personas: DefaultPersonas()[:2], Transcript: []Turn{
		{Round: 1, Agent: "Product Manager", Text: positionMark + " support: go."},
		{Round: 1, Agent: "Software Architect", Text: positionMark + " oppose: no."},
		{Round: 2, Agent: "Product Manager", Text: positionMark + " support: go."},
		{Round: 2, Agent: "Software Architect", Text: positionMark + " conditional: with a way back."},
	}}
	if !ParseConsensus(MockReply(info)) {
		t.Fatalf("no consensus when nobody opposes: %q", MockReply(info))
	}
	info.Transcript[3].Text = positionMark + " oppose: still no."
	if reply := MockReply(info); ParseConsensus(reply) || !strings.Contains(reply, "Software Architect still opposes") {
		t.Fatalf("consensus despite an opponent: %q", reply)
	}
}

// TestMockStopsOnConsensusSometimes: over many seeds the mock panel does
// reach consensus early in some debates and not in others.
func TestMockStopsOnConsensusSometimes(t *testing.T) {
	early, full := 0, 0
	for seed := int64(1); seed <= 30; seed++ {
		tr, evs := runMock(t, Config{Topic: "Adopt GraphQL", Personas: DefaultPersonas(), Rounds: 5, Seed: seed, StopOnConsensus: true})
		var md bytes.Buffer
		if err := tr.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(md.String(), "found consensus after round")
		if held := evs[len(evs)-2].Round; held < 5 {
			early++
			if !said || tr.Consensus != held {
				t.Errorf("seed %d stopped after round %d; the transcript says consensus at %d (%v)", seed, held, tr.Consensus, said)
			}
		} else {
			full++
			if said {
				t.Errorf("seed %d ran all rounds but the transcript claims an early stop", seed)
			}
		}
	}
	if early == 0 || full == 0 {
		t.Fatalf("%d early stops, %d full debates: want some of each", early, full)
	}
}

func TestParseTopic(t *testing.T) {
	tests := []struct{ in, action, gerund, thing string }{
		{"Should we adopt GraphQL?", "adopt GraphQL", "adopting GraphQL", "GraphQL"},
		{"Migrate to Kubernetes", "migrate to Kubernetes", "migrating to Kubernetes", "Kubernetes"},
		{"should we rewrite the billing service in Rust", "rewrite the billing service in Rust", "rewriting the billing service in Rust", "this change"},
		{"Is Rust worth it?", "invest in Rust", "investing in Rust", "Rust"},
		{"Monorepo vs polyrepo", "choose Monorepo over polyrepo", "choosing Monorepo over polyrepo", "Monorepo"},
		{"Can we drop IE11 support", "drop IE11 support", "dropping IE11 support", "IE11 support"},
		{"Stop the feature freeze", "stop the feature freeze", "stopping the feature freeze", "feature freeze"},
		{"A four-day work week", "go ahead with a four-day work week", "going ahead with a four-day work week", "four-day work week"},
		{"GraphQL federation", "go ahead with GraphQL federation", "going ahead with GraphQL federation", "GraphQL federation"},
		{"Should the cache be write-through?", "make the cache write-through", "making the cache write-through", "cache"},
		{"Should the API stay on REST", "keep the API on REST", "keeping the API on REST", "API"},
		{"Should the billing service use Postgres", "have the billing service use Postgres", "having the billing service use Postgres", "billing service"},
	}
	for _, tt := range tests {
		w := parseTopic(tt.in)
		if w.Action != tt.action || w.Gerund != tt.gerund || w.Thing != tt.thing {
			t.Errorf("parseTopic(%q) = %+v, want %q %q %q", tt.in, w, tt.action, tt.gerund, tt.thing)
		}
	}
}

func TestGerund(t *testing.T) {
	for in, want := range map[string]string{
		"adopt": "adopting", "use": "using", "stop": "stopping", "ship": "shipping", "open": "opening",
		"build": "building", "tie": "tying", "see": "seeing", "start": "starting", "buy": "buying", "fix": "fixing",
	} {
		if got := gerund(in); got != want {
			t.Errorf("gerund(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitTokensConcatenates(t *testing.T) {
	f := func(s string) bool { return strings.Join(splitTokens(s), "") == s }
	if err := quick.Check(f, nil); err != nil {
		t.Fatal(err)
	}
	got := splitTokens("Hello  world\n\n- item ")
	want := []string{"Hello", "  world", "\n\n-", " item", " "}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("splitTokens = %q, want %q", got, want)
	}
}

func TestMockPaceAndCancel(t *testing.T) {
	m := NewMock(20 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := m.Stream(ctx, Request{Info: TurnInfo{Purpose: PurposeTurn, Topic: "t", Speaker: DefaultPersonas()[0], Personas: DefaultPersonas(), Round: 1, Rounds: 1}}, func(string) error {
		if n++; n == 3 {
			cancel()
		}
		return nil
	})
	if err == nil || n != 3 {
		t.Fatalf("after cancel: %d tokens, err %v", n, err)
	}
}

func TestVoiceFor(t *testing.T) {
	for _, tt := range []struct {
		p    Persona
		want string
	}{
		{Persona{Name: "Site Reliability Engineer", Persona: "keeps it up"}, "operations"},
		{Persona{Name: "Cost Optimizer", Persona: "x"}, "cost"},
		{Persona{Name: "Bob", Persona: "a privacy lawyer"}, "security"},
		{Persona{Name: "UX Designer", Persona: "cares about the flow"}, "product"},
		{Persona{Name: "Poet", Persona: "writes sonnets"}, "generic"},
	} {
		if got := voiceFor(tt.p).key; got != tt.want {
			t.Errorf("voiceFor(%s) = %s, want %s", tt.p.Name, got, tt.want)
		}
	}
}
