package room

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func newCouncil(t *testing.T, budget int, seats ...string) *Room {
	t.Helper()
	r, _, err := Create(t.TempDir(), "c1", CreateOptions{Topic: "t", Budget: budget, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustState(t *testing.T, r *Room) State {
	t.Helper()
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A council's turn goes round its seats in the room's order, the lead
// first; a round is every seat once and the budget counts the lead's posts.
func TestCouncilTurnOrderAndBudget(t *testing.T) {
	seats := []string{SeatLead, "critic", "security", SeatPeer}
	r := newCouncil(t, 2, seats...)
	st := mustState(t, r)
	if !slices.Equal(st.Seats, seats) || st.Turn != SeatLead || st.Round != 0 || st.Passed != nil {
		t.Fatalf("empty council: seats %q turn %s round %d passed %q", st.Seats, st.Turn, st.Round, st.Passed)
	}
	for round := 1; round <= 2; round++ {
		for i, seat := range seats {
			st = mustState(t, r)
			if st.Turn != seat {
				t.Fatalf("round %d, post %d: turn %s, want %s", round, i, st.Turn, seat)
			}
			for _, other := range seats {
				if other == seat {
					continue
				}
				_, _, err := r.PostMessage(Post{Seat: other, Text: "out of turn"})
				var turn *NotYourTurnError
				if !errors.As(err, &turn) || turn.Turn != seat || turn.Seat != other || !strings.Contains(err.Error(), "it is the "+seat+"'s turn") {
					t.Fatalf("%s out of turn (turn %s): %v", other, seat, err)
				}
			}
			mustPost(t, r, seat, "r"+seat)
		}
		if st = mustState(t, r); st.Round != round || st.Turn != SeatLead {
			t.Fatalf("after round %d: round %d turn %s", round, st.Round, st.Turn)
		}
	}
	st = mustState(t, r)
	if !st.OutOfBudget {
		t.Fatal("two rounds of a budget of 2 spent, not out of budget")
	}
	_, _, err := r.PostMessage(Post{Seat: SeatLead, Text: "a third round"})
	var budget *BudgetSpentError
	if !errors.As(err, &budget) || budget.Round != 2 {
		t.Fatalf("lead past the budget: %v", err)
	}
	if len(st.Messages) != 8 {
		t.Fatalf("%d messages, want 8", len(st.Messages))
	}
}

// A pass takes the seat's turn as a message, may have no text, and is
// listed in Passed for the rest of the round only.
func TestCouncilPass(t *testing.T) {
	r := newCouncil(t, 3, SeatLead, "critic", "security")
	mustPost(t, r, SeatLead, "brief")
	m, st, err := r.PostMessage(Post{Seat: "critic", Kind: KindPass})
	if err != nil {
		t.Fatalf("an empty pass: %v", err)
	}
	if m.Kind != KindPass || m.Text != "" || st.Turn != "security" || !slices.Equal(st.Passed, []string{"critic"}) {
		t.Fatalf("after the critic's pass: %+v turn %s passed %q", m, st.Turn, st.Passed)
	}
	data, err := os.ReadFile(filepath.Join(r.MessagesDir(), m.File))
	if err != nil || !strings.Contains(string(data), `"kind": "pass"`) {
		t.Fatalf("the pass on disk: %s %v", data, err)
	}
	if _, _, err := r.PostMessage(Post{Seat: "security", Kind: "answer", Text: "  "}); !errors.Is(err, ErrEmpty) {
		t.Fatalf("an empty post that is not a pass: %v, want ErrEmpty", err)
	}
	_, st, _ = r.PostMessage(Post{Seat: "security", Kind: KindPass, Text: "nothing to add"})
	if !slices.Equal(st.Passed, []string{"critic", "security"}) || st.Turn != SeatLead {
		t.Fatalf("both passed: passed %q turn %s", st.Passed, st.Turn)
	}
	_, st, _ = r.PostMessage(Post{Seat: SeatLead, Text: "next round"})
	if st.Passed != nil || st.Round != 2 {
		t.Fatalf("a new round: passed %q round %d", st.Passed, st.Round)
	}
}

// A two-seat room keeps its rule: an empty pass is refused there, as any
// empty post is.
func TestTwoSeatRoomRefusesEmptyPass(t *testing.T) {
	r := newRoom(t, 2)
	mustPost(t, r, SeatLead, "brief")
	if _, _, err := r.PostMessage(Post{Seat: SeatPeer, Kind: KindPass}); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty pass in a two-seat room: %v, want ErrEmpty", err)
	}
	st := mustState(t, r)
	if !slices.Equal(st.Seats, DefaultSeats()) || st.Turn != SeatPeer {
		t.Fatalf("two-seat room: seats %q turn %s", st.Seats, st.Turn)
	}
}

func TestCouncilRefusesAStranger(t *testing.T) {
	r := newCouncil(t, 2, SeatLead, "critic", "security")
	_, _, err := r.PostMessage(Post{Seat: "intruder", Text: "hi"})
	if !errors.Is(err, ErrBadSeat) || !strings.Contains(err.Error(), "its seats: lead, critic, security") {
		t.Fatalf("a seat not in the list: %v", err)
	}
	if _, _, err := newRoom(t, 2).PostMessage(Post{Seat: "critic", Text: "hi"}); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("a council seat in a two-seat room: %v", err)
	}
}

func TestCouncilSeatRules(t *testing.T) {
	cwd := t.TempDir()
	for _, bad := range [][]string{
		{"critic", SeatLead},
		{SeatLead, "a", "b", "c", "d", "e", "f", "g", "h"},
		{SeatLead, GrantObserver},
	} {
		_, _, err := Create(cwd, "bad", CreateOptions{Topic: "T", Budget: 2, Seats: bad})
		if !errors.Is(err, ErrBadSeat) {
			t.Fatalf("seats %q: %v, want ErrBadSeat", bad, err)
		}
	}
	eight := []string{SeatLead, "a", "b", "c", "d", "e", "f", "g"}
	r, _, err := Create(cwd, "eight", CreateOptions{Topic: "T", Budget: 2, Seats: eight})
	if err != nil || !r.Config().IsCouncil() || !slices.Equal(mustState(t, r).Seats, eight) {
		t.Fatalf("eight seats: %v", err)
	}
	// A debate's personas are its seats: no council rule applies.
	d, _, err := Create(cwd, "deb", CreateOptions{Topic: "T", Budget: 2, Mode: ModeDebate, Seats: []string{"x", "y"}})
	if err != nil || d.Config().IsCouncil() || !slices.Equal(mustState(t, d).Seats, DefaultSeats()) {
		t.Fatalf("debate: %v", err)
	}
}

// A person may take any seat of a council, and none outside it.
func TestPersonTakesACouncilSeat(t *testing.T) {
	r := newCouncil(t, 2, SeatLead, "critic", "security")
	p, err := r.TakeSeatAsPerson("security")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if _, err := r.TakeSeatAsPerson("intruder"); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("a stranger's seat: %v", err)
	}
}
