package debate

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// recordingProvider answers with a fixed text, token by token, and keeps
// the request it was given.
type recordingProvider struct {
	reply string
	got   Request
}

func (p *recordingProvider) Stream(_ context.Context, req Request, onDelta func(string) error) (Usage, error) {
	p.got = req
	for _, tok := range splitTokens(p.reply) {
		if err := onDelta(tok); err != nil {
			return Usage{}, err
		}
	}
	return Usage{CompletionTokens: len(splitTokens(p.reply))}, nil
}

func (p *recordingProvider) Name() string  { return "recording" }
func (p *recordingProvider) Model() string { return "recording" }

func TestRoomVerdictJudgesTheRoomsTranscript(t *testing.T) {
	r, _, err := room.Create(t.TempDir(), "cache", room.CreateOptions{Topic: "Cache design", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	post := func(seat, agent, text string) {
		t.Helper()
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: agent, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	post(room.SeatLead, "claude-code", "LRU with a TTL.")
	if _, err := r.AddNote(room.NoteFromHost, "Mind the memory cap.", 1); err != nil {
		t.Fatal(err)
	}
	post(room.SeatPeer, "codex", "Agreed, cap it at 1 GiB.")
	post(room.SeatLead, "claude-code", "Done.")

	p := &recordingProvider{reply: "**Decision:** LRU, capped."}
	var streamed strings.Builder
	text, usage, err := RoomVerdict(context.Background(), r, p, DefaultModerator(), func(s string) error {
		streamed.WriteString(s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if text != p.reply || streamed.String() != p.reply || usage.CompletionTokens == 0 {
		t.Fatalf("verdict %q, streamed %q, usage %+v; want the reply whole, streamed", text, streamed.String(), usage)
	}
	info := p.got.Info
	if info.Purpose != PurposeVerdict || info.Topic != "Cache design" || info.Rounds != 3 || info.Round != 2 {
		t.Errorf("the request: purpose %v topic %q round %d of %d", info.Purpose, info.Topic, info.Round, info.Rounds)
	}
	var lines []string
	for _, tr := range info.Transcript {
		lines = append(lines, tr.Agent+"|"+tr.Text)
	}
	want := []string{"lead (claude-code), brief|LRU with a TTL.", NoteFrom + "|Mind the memory cap.", "peer (codex), answer|Agreed, cap it at 1 GiB.", "lead (claude-code), brief|Done."}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the moderator was shown\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(p.got.Messages[len(p.got.Messages)-1].Content, "Agreed, cap it at 1 GiB.") {
		t.Errorf("the moderator's prompt lacks the transcript")
	}

	empty, _, err := room.Create(t.TempDir(), "empty", room.CreateOptions{Topic: "Nothing", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := RoomVerdict(context.Background(), empty, p, DefaultModerator(), nil); err == nil || !strings.Contains(err.Error(), "no message yet") {
		t.Errorf("a room with no message: %v", err)
	}
	p.reply = "   "
	if _, _, err := RoomVerdict(context.Background(), r, p, DefaultModerator(), nil); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty reply: %v", err)
	}
}
