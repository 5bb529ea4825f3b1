package transcript

import (
	"hash/fnv"
	"slices"

	"github.com/roundtable-dev/roundtable/room"
)

// colorPair is a color for light backgrounds and one for dark backgrounds.
type colorPair struct{ light, dark string }

// The fixed colors. The light variants keep at least 4.5:1 contrast on
// white, the dark ones on a near-black background.
var (
	leadColor      = colorPair{"#1d4ed8", "#60a5fa"} // blue
	peerColor      = colorPair{"#b45309", "#fbbf24"} // amber
	moderatorColor = colorPair{"#475569", "#cbd5e1"} // slate, set apart from every persona
)

// personaColors are handed to personas by their index in room.json's
// agents, cycling when a debate has more personas than colors.
var personaColors = []colorPair{
	{"#0f766e", "#2dd4bf"}, // teal
	{"#be123c", "#fb7185"}, // rose
	{"#4338ca", "#818cf8"}, // indigo
	{"#15803d", "#4ade80"}, // green
	{"#c2410c", "#fb923c"}, // orange
	{"#0e7490", "#22d3ee"}, // cyan
	{"#a21caf", "#e879f9"}, // fuchsia
	{"#4d7c0f", "#a3e635"}, // lime
}

// SeatColor is the color of a seat or persona, as "#rrggbb" for a light and
// for a dark background. A name listed in agents (room.json's personas) gets
// the color of its index there; otherwise the lead, the peer and the
// moderator have fixed colors, and any other name a stable color derived
// from the name. The TUI uses it so that screens and transcripts agree.
func SeatColor(seat string, agents []string) (light, dark string) {
	c := seatColor(seat, agents)
	return c.light, c.dark
}

func seatColor(seat string, agents []string) colorPair {
	if i := slices.Index(agents, seat); i >= 0 {
		return personaColors[i%len(personaColors)]
	}
	switch seat {
	case room.SeatLead:
		return leadColor
	case room.SeatPeer:
		return peerColor
	case room.SeatModerator:
		return moderatorColor
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(seat))
	return personaColors[h.Sum32()%uint32(len(personaColors))]
}
