package debate

import (
	"context"
	"os"
	"path/filepath"
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

// TestMockVerdictOnAnMCPRoom: the mock moderator's verdict on a room whose
// agents state no position in so many words says so, everywhere: no
// tally of conditions, no "agreed: little" and no dissent made up; a
// position stated ("**My position:** oppose: …") is counted. The file ends
// with a newline.
func TestMockVerdictOnAnMCPRoom(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "cache", room.CreateOptions{Topic: "Should the cache be write-through", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"Options: write-through now, or in steps.", "Steps, behind a switch.", "Agreed: steps.", "Then we measure a week."} {
		seat := room.SeatLead
		if i%2 == 1 {
			seat = room.SeatPeer
		}
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: "agent", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	path, err := SaveRoomVerdict(context.Background(), r, NewMock(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(cwd, path))
	if err != nil {
		t.Fatal(err)
	}
	v := string(data)
	if !strings.HasSuffix(v, "\n") {
		t.Errorf("the verdict file does not end with a newline: %q", v[max(len(v)-40, 0):])
	}
	for _, bad := range []string{"with conditions", "Little: every participant", "turn your conditions"} {
		if strings.Contains(v, bad) {
			t.Errorf("the verdict says %q of a room where nobody stated a position:\n%s", bad, v)
		}
	}
	for _, want := range []string{"No call yet", "two stated no position", "**Confidence:** Low", "None recorded."} {
		if !strings.Contains(v, want) {
			t.Errorf("the verdict lacks %q:\n%s", want, v)
		}
	}

	// A position stated in the room is read as one.
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "agent", Text: "**My position:** oppose: the audit log needs every write."}); err != nil {
		t.Fatal(err)
	}
	text, _, err := RoomVerdict(context.Background(), r, NewMock(0), DefaultModerator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "one opposes") || !strings.Contains(text, "one stated no position") || !strings.Contains(text, "the audit log needs every write") {
		t.Errorf("the verdict after the lead opposed:\n%s", text)
	}
}

// TestMockVerdictReadsKinds: in an MCP room whose posts state no position
// in the mock's words, the kinds do: the lead's decision is support on its
// terms, a concession support, an objection opposition, quoted in the
// seat's own last words (past its quote of the other seat).
func TestMockVerdictReadsKinds(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "grpc", room.CreateOptions{Topic: "Adopt gRPC?", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	post := func(seat, kind, text string) {
		t.Helper()
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Kind: kind, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	post(room.SeatLead, "brief", "Options: gRPC everywhere now, or in steps behind a switch.")
	post(room.SeatPeer, "objection", "You wrote: \"Options\". That misses the case where the rollout fails halfway through.")
	post(room.SeatLead, "decision", "I take that into the decision: adopting gRPC in steps, with the rollback written first.")
	post(room.SeatPeer, "concession", "You wrote: \"in steps\". The evidence is on your side there, so I concede the point.")
	v, _, err := RoomVerdict(context.Background(), r, NewMock(0), DefaultModerator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**Decision:** Adopt gRPC as a time-boxed pilot",
		"one supports it outright and one supports it with conditions",
		"peer can accept it: “The evidence is on your side there, so I concede the point”",
		"lead can accept it: “I take that into the decision: adopting gRPC in steps",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the verdict lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "No call yet") || strings.Contains(v, "stated no position") || strings.Contains(v, "You wrote") {
		t.Errorf("the verdict misreads the kinds:\n%s", v)
	}

	// A seat whose last word is an objection opposes, in its own words.
	post(room.SeatLead, "challenge", "Can the switch be flipped back within a minute?")
	post(room.SeatPeer, "objection", "No: the clients cache the schema for a day, so a rollback takes a full day.")
	v, _, err = RoomVerdict(context.Background(), r, NewMock(0), DefaultModerator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v, "one opposes") || !strings.Contains(v, "> “No: the clients cache the schema for a day, so a rollback takes a full day” (peer, round 3)") {
		t.Errorf("the verdict after the peer objected:\n%s", v)
	}
}
