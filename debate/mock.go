package debate

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"
)

// Mock is the provider that needs no model and no key. Its replies are
// deterministic for the same topic, personas, round and seed; each persona
// speaks in its own voice about the topic, answers earlier speakers by name
// and moves its position over the rounds, and the moderator's verdict is
// built from the actual transcript. Replies stream as word-sized tokens,
// one every pace.
type Mock struct {
	pace time.Duration
}

// NewMock returns the mock provider; pace is the pause between tokens (0
// for none, DefaultPace for a lively screen).
func NewMock(pace time.Duration) *Mock { return &Mock{pace: max(pace, 0)} }

// Name is "mock".
func (*Mock) Name() string { return ProviderMock }

// Model is "mock".
func (*Mock) Model() string { return ProviderMock }

// fixedModel marks a provider that ignores per-persona models (ModelLabel).
func (*Mock) fixedModel() {}

// Stream writes the reply for req.Info and streams it token by token.
func (m *Mock) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	usage := Usage{PromptTokens: EstimateTokens(req.Messages)}
	var timer *time.Timer
	if m.pace > 0 {
		timer = time.NewTimer(m.pace)
		defer timer.Stop()
	}
	for i, tok := range splitTokens(MockReply(req.Info)) {
		if timer != nil {
			if i > 0 {
				timer.Reset(m.pace)
			}
			select {
			case <-timer.C:
			case <-ctx.Done():
				return usage, context.Cause(ctx)
			}
		} else if err := ctx.Err(); err != nil {
			return usage, context.Cause(ctx)
		}
		if err := onDelta(tok); err != nil {
			return usage, err
		}
		usage.CompletionTokens++
	}
	return usage, nil
}

// MockReply is the text the mock answers info with.
func MockReply(info TurnInfo) string {
	switch info.Purpose {
	case PurposeVerdict:
		return mockVerdict(withoutNotes(info)) + mockVerdictNotes(info)
	case PurposeConsensus:
		if why, ok := mockUnansweredNote(info); ok {
			return why
		}
		return mockConsensus(withoutNotes(info))
	case PurposeTurn:
		if rest, note := mockNotes(info); note != nil && !info.Blind {
			return mockNoteReply(info, *note) + "\n\n" + mockTurn(rest)
		}
		return mockTurn(withoutNotes(info))
	case PurposeRank:
		return mockRank(info)
	case PurposeSeatLead, PurposeSeatPeer, PurposeSeatSpec:
		return mockSeat(info)
	}
	return mockTurn(info)
}

// EstimateTokens guesses a prompt's token count, as the mock reports it:
// about four characters a token, and four more for each message.
func EstimateTokens(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content)/4 + 4
	}
	return n
}

// splitTokens cuts text into word-sized tokens, each word carrying the
// whitespace before it, so the tokens concatenate back to text exactly.
func splitTokens(text string) []string {
	var toks []string
	start, i := 0, 0
	for i < len(text) {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		for i < len(text) && !isSpace(text[i]) {
			i++
		}
		toks = append(toks, text[start:i])
		start = i
	}
	return toks
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// newRNG returns a generator seeded by seed and parts, so each persona,
// round and purpose draws its own repeatable sequence.
func newRNG(seed int64, parts ...any) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprint(h, seed)
	for _, p := range parts {
		fmt.Fprint(h, "\x00", p)
	}
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}

func pick(rng *rand.Rand, xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[rng.IntN(len(xs))]
}

// Position classes of the mock's "**My position:**" lines.
const (
	posOppose      = -1
	posConditional = 0
	posSupport     = 1
)

var posWords = map[int]string{posOppose: "oppose", posConditional: "conditional", posSupport: "support"}

const positionMark = "**My position:**"

// parsePosition finds the position line of a turn: its class and the
// reason after the class word. ok is false when the turn has none.
func parsePosition(text string) (class int, reason string, ok bool) {
	idx := strings.LastIndex(text, positionMark)
	if idx < 0 {
		return posConditional, "", false
	}
	line, _, _ := strings.Cut(text[idx+len(positionMark):], "\n")
	line = strings.TrimSpace(line)
	low := strings.ToLower(line)
	switch {
	case strings.HasPrefix(low, "oppose"):
		class = posOppose
	case strings.HasPrefix(low, "support"):
		class = posSupport
	default:
		class = posConditional
	}
	if _, after, found := strings.Cut(line, ":"); found {
		line = after
	}
	return class, cleanQuote(line), true
}

// quotables are the lines of a turn worth quoting: its bullets without
// their labels, and its position's reason; for text the mock did not write,
// its longer sentences.
func quotables(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if b, ok := strings.CutPrefix(l, "- "); ok {
			if _, after, found := strings.Cut(b, ":** "); found {
				b = after
			}
			if q := cleanQuote(b); q != "" {
				out = append(out, q)
			}
		}
	}
	if _, reason, ok := parsePosition(text); ok && reason != "" {
		out = append(out, reason)
	}
	if len(out) > 0 {
		return out
	}
	for _, s := range strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' }) {
		if q := cleanQuote(s); len(strings.Fields(q)) >= 6 {
			out = append(out, q)
		}
	}
	return out
}

// cleanQuote strips Markdown and quotes from s and shortens it to a
// quotable length.
func cleanQuote(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "", "“", "", "”", "", "\"", "").Replace(s)
	s = strings.TrimSpace(strings.TrimLeft(s, "#>-* "))
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	words := strings.Fields(s)
	if len(words) > 16 {
		s = strings.Join(words[:14], " ") + "…"
	}
	return s
}
