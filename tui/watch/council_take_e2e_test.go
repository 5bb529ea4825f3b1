// The third seat of a council taken by a person: the store's council turn
// order (State.Turn names each seat in order, a post of kind "pass"
// passes) seen through the screen.

package watch_test

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestTakeThirdSeatOfACouncil: a person takes the third seat of a
// five-seat room (watch --take security) and plays it through the store's
// turn order: the composer opens when the lead and the critic have
// posted, the person passes, the header says so and moves the turn to
// the fourth seat; in round two the person posts an objection.
func TestTakeThirdSeatOfACouncil(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	const name = "council-take"
	r, _, err := room.Create(cwd, name, room.CreateOptions{
		Topic: "Stream uploads or load them whole", Budget: 3,
		Seats: []string{"lead", "critic", "security", "peer", "ops"},
	})
	if err != nil {
		t.Fatal(err)
	}
	post := func(seat, kind, text string) {
		t.Helper()
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: seat + "-agent", Kind: kind, Text: text}); err != nil {
			t.Fatalf("post as %s: %v", seat, err)
		}
	}
	post("lead", "brief", "Stream the uploads or load them whole?")

	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 40, Dir: t.TempDir()}, // every seat's column in view
		bin, "watch", "--room", name, "--cwd", cwd, "--take", "security")
	s.WaitUntil("the person in the security seat, waiting", func(sc string) bool {
		return strings.Contains(oneLine(sc), "security a person (at the keyboard) at the keyboard, waiting for its turn")
	}, takeTimeout)
	if sc := s.Capture(); strings.Contains(sc, "Your turn as security") {
		t.Fatalf("the composer opened on the critic's turn:\n%s", sc)
	}

	post("critic", "objection", "Streaming needs back-pressure.")
	s.WaitFor("Your turn as security · round 1", takeTimeout)
	s.SendKeys("-l", "/pass Nothing to add this round.")
	s.SendKeys("Enter")
	s.WaitUntil("the pass in the header, the peer's turn", func(sc string) bool {
		return strings.Contains(sc, "security (passed)") && strings.Contains(sc, "turn peer")
	}, takeTimeout)
	_, st := onDisk(t, cwd, name)
	if n := len(st.Messages); n != 3 || st.Messages[2].Seat != "security" || st.Messages[2].Kind != "pass" || st.Messages[2].Agent != room.PersonAgent {
		t.Fatalf("after the pass: %+v", st.Messages)
	}

	post("peer", "answer", "Stream above 8 MiB.")
	post("ops", "proposal", "Measure first.")
	post("lead", "challenge", "What does a failed upload cost?")
	post("critic", "objection", "A retry of the whole file.")
	s.WaitFor("Your turn as security · round 2", takeTimeout)
	s.SendKeys("-l", "/objection Sign each chunk URL.")
	s.SendKeys("Enter")
	s.WaitFor("Sign each chunk URL.", takeTimeout)
	_, st = onDisk(t, cwd, name)
	last := st.Messages[len(st.Messages)-1]
	if last.Seat != "security" || last.Kind != "objection" || st.Turn != "peer" {
		t.Fatalf("after the objection: last %+v, turn %q", last, st.Turn)
	}

	s.SendKeys("q")
	if code := s.ExitStatus(takeTimeout); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
}
