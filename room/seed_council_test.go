package room

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/prompts"
)

// Seeding a council writes a prompt for every seat, naming the seat, the
// others and the turn order; the JSON lists them all.
func TestSeedCouncilWritesEveryPrompt(t *testing.T) {
	cwd := t.TempDir()
	seats := []string{SeatLead, "critic", "security", SeatPeer}
	res, err := Seed(cwd, "council", CreateOptions{Topic: "cache it", Budget: 4, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Prompts) != len(seats) {
		t.Fatalf("prompts = %q, want one per seat", res.Prompts)
	}
	for i, seat := range seats {
		if filepath.Base(res.Prompts[i]) != PromptFile(seat) {
			t.Fatalf("prompt %d is %s, want %s", i, res.Prompts[i], PromptFile(seat))
		}
		data, err := os.ReadFile(res.Prompts[i])
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if strings.Contains(text, "{{") || !strings.Contains(text, "lead → critic → security → peer") || !strings.Contains(text, "cache it") {
			t.Fatalf("%s prompt:\n%s", seat, text)
		}
		if !strings.Contains(text, "# You hold the "+seat+" seat of roundtable council `council`") {
			t.Fatalf("%s prompt does not name its seat:\n%s", seat, text)
		}
	}
	lead, _ := os.ReadFile(res.Prompts[0])
	if !strings.Contains(string(lead), "you, the lead, and the critic, the security and the peer") {
		t.Fatalf("the lead's prompt does not name the others:\n%s", lead)
	}
	critic, _ := os.ReadFile(res.Prompts[1])
	if !strings.Contains(string(critic), "(the security and the peer)") || !strings.Contains(string(critic), "kind `pass`") {
		t.Fatalf("the critic's prompt:\n%s", critic)
	}
	// The seats are the room's from its creation: seeding it with others
	// is refused with a sentence, and writes nothing.
	_, err = Seed(cwd, "council", CreateOptions{Topic: "cache it", Budget: 4, Seats: []string{SeatLead, "x", "y"}})
	if !errors.Is(err, ErrBadSeat) || !strings.Contains(err.Error(), "exists with the seats lead,critic,security,peer") {
		t.Fatalf("seeding with other seats: %v", err)
	}
}

// A two-seat room's prompts are the lead's and the peer's, as before.
func TestSeedTwoSeatPromptsUnchanged(t *testing.T) {
	cwd := t.TempDir()
	res, err := Seed(cwd, "pair", CreateOptions{Topic: "cache it", Budget: 4, Seats: DefaultSeats()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Prompts) != 2 || filepath.Base(res.Prompts[0]) != "lead.md" || filepath.Base(res.Prompts[1]) != "peer.md" {
		t.Fatalf("prompts = %q", res.Prompts)
	}
	for i, seat := range DefaultSeats() {
		want, err := prompts.Seat(seat, prompts.SeatValues{Room: "pair", Topic: "cache it", Spec: "SPEC-pair.md", Budget: 4})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(res.Prompts[i])
		if string(got) != want || strings.Contains(want, "council") {
			t.Fatalf("%s.md is not the two-seat prompt:\n%s", seat, got)
		}
	}
}
