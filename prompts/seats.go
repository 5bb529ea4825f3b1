package prompts

import (
	"embed"
	"strconv"
	"strings"
)

//go:embed seats/*.md
var seats embed.FS

// SeatValues fill a seat prompt's placeholders.
type SeatValues struct {
	Room   string
	Topic  string
	Spec   string
	Budget int
}

// Seat returns the prompt for seat ("lead" or "peer") with its placeholders
// ({{ROOM}}, {{TOPIC}}, {{SPEC}}, {{BUDGET}}) filled in.
func Seat(seat string, v SeatValues) (string, error) {
	data, err := seats.ReadFile("seats/" + seat + ".md")
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
