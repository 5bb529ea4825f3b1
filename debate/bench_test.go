package debate

import (
	"context"
	"io"
	"testing"
)

// BenchmarkMockDebate is a 3-persona, 3-round mock debate at zero pace, run
// headless to io.Discard with the room written to disk (target: 100 ms).
func BenchmarkMockDebate(b *testing.B) {
	cwd := b.TempDir()
	opts := HeadlessOptions{Format: FormatText, Settings: Settings{
		Config: Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 3},
		Cwd:    cwd, Getenv: func(string) string { return "" },
	}}
	b.ReportAllocs()
	for b.Loop() {
		if err := RunHeadless(context.Background(), opts, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMockDebateEngineOnly is the same debate without output or room.
func BenchmarkMockDebateEngineOnly(b *testing.B) {
	cfg := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 3}
	b.ReportAllocs()
	for b.Loop() {
		eng, err := New(cfg, NewMock(0))
		if err != nil {
			b.Fatal(err)
		}
		for ev := range eng.Run(context.Background()) {
			if ev.Type == EventError {
				b.Fatal(ev.Text)
			}
		}
	}
}

// tokenSource streams n one-word tokens as fast as it can.
type tokenSource struct{ n int }

func (tokenSource) Name() string  { return "bench" }
func (tokenSource) Model() string { return "bench" }
func (s tokenSource) Stream(_ context.Context, req Request, onDelta func(string) error) (Usage, error) {
	n := s.n
	if req.Info.Purpose != PurposeTurn {
		n = 1
	}
	for range n {
		if err := onDelta(" word"); err != nil {
			return Usage{}, err
		}
	}
	return Usage{CompletionTokens: n}, nil
}

// BenchmarkEngineTokenOverhead is the engine's cost per token: queueing the
// delta, emitting the token event and accumulating the turn, with a consumer
// draining the channel (target: 2 µs). One op is one token.
func BenchmarkEngineTokenOverhead(b *testing.B) {
	b.ReportAllocs()
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas()[:1], Rounds: 1, MaxTurnTokens: b.N + 1}, tokenSource{n: b.N})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	tokens := 0
	for ev := range eng.Run(context.Background()) {
		if ev.Type == EventToken {
			tokens++
		}
	}
	b.StopTimer()
	if tokens != b.N {
		b.Fatalf("%d tokens, want %d", tokens, b.N)
	}
}
