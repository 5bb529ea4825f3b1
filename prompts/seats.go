package prompts

import (
	"embed"
	"strconv"
	"strings"
)

//go:embed seats/*.md
var seatFS embed.FS

// SeatValues fill a seat prompt's placeholders.
type SeatValues struct {
	Room   string
	Topic  string
	Spec   string
	Budget int
}

// CouncilSeat returns the prompt of seat in a council (a room of seats
// other than the lead and the peer), seats being the room's seats in turn
// order, the lead first: the lead's council prompt for the lead, the
// seat's for any other. It fills Seat's placeholders and {{SEAT}},
// {{COUNT}}, {{ORDER}} (every seat, in order) and {{OTHERS}} (every seat
// but this one and the lead, for the lead every seat but itself).
func CouncilSeat(seat string, seats []string, v SeatValues) (string, error) {
	name := "seats/council-seat.md"
	if seat == "lead" {
		name = "seats/council-lead.md"
	}
	data, err := seatFS.ReadFile(name)
	if err != nil {
		return "", err
	}
	var others []string
	for _, s := range seats {
		if s != seat && s != "lead" {
			others = append(others, "the "+s)
		}
	}
	return strings.NewReplacer(
		"{{ROOM}}", v.Room,
		"{{TOPIC}}", v.Topic,
		"{{SPEC}}", v.Spec,
		"{{BUDGET}}", strconv.Itoa(v.Budget),
		"{{SEAT}}", seat,
		"{{COUNT}}", strconv.Itoa(len(seats)),
		"{{ORDER}}", strings.Join(seats, " → "),
		"{{OTHERS}}", othersList(others),
	).Replace(string(data)), nil
}

// othersList names the other seats as prose (AndList), or says there is
// none.
func othersList(words []string) string {
	if len(words) == 0 {
		return "no other seat"
	}
	return AndList(words)
}

// Seat returns the prompt for seat ("lead" or "peer") with its placeholders
// ({{ROOM}}, {{TOPIC}}, {{SPEC}}, {{BUDGET}}) filled in.
func Seat(seat string, v SeatValues) (string, error) {
	data, err := seatFS.ReadFile("seats/" + seat + ".md")
	if err != nil {
		return "", err
	}
	return strings.NewReplacer(
		"{{ROOM}}", v.Room,
		"{{TOPIC}}", v.Topic,
		"{{SPEC}}", v.Spec,
		"{{BUDGET}}", strconv.Itoa(v.Budget),
	).Replace(string(data)), nil
}
