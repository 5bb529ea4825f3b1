package app

import (
	"bytes"
	"testing"

	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
)

// TestReportStopped: quitting names each seat process it stopped, in one
// sentence, and says nothing when there were none.
func TestReportStopped(t *testing.T) {
	var b bytes.Buffer
	reportStopped(&b, nil)
	if b.Len() != 0 {
		t.Errorf("said %q with nothing stopped", b.String())
	}
	reportStopped(&b, []seatproc.Status{{Room: "cache", Seat: "peer", Mind: "acp:codex", PID: 42}})
	if got, want := b.String(), "Stopped the seat roundtable played: the peer of room cache (acp:codex, pid 42).\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	reportStopped(&b, []seatproc.Status{
		{Room: "cache", Seat: "lead", Mind: "model mock", PID: 7},
		{Room: "x\x1b[2J", Seat: "peer", Mind: "model openai/gpt-4o-mini", PID: 8},
	})
	want := "Stopped the seats roundtable played: the lead of room cache (model mock, pid 7); the peer of room x␛[2J (model openai/gpt-4o-mini, pid 8).\n"
	if got := b.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
