package roomtest

import (
	"regexp"
	"strings"
)

// OriginalSeat is one entry of the original server's `roundtable seats`
// output: a JSON array of these, two-space indented.
type OriginalSeat struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	Calls int    `json:"calls"`
	Last  string `json:"last,omitempty"`
}

var (
	origSeatRe  = regexp.MustCompile(`\bseat=(\w+)`)
	origAgentRe = regexp.MustCompile(`\bagent=(.*?) pid=`)
	origToolRe  = regexp.MustCompile(`\btool=(\w+)`)
)

// OriginalSeats reads server.log by the rules of the original TypeScript
// server's `seats` (roundtable-mcp 0.2.0), so tests can check what a
// reader written for it makes of a log: a line names a seat with
// seat=<word>; agent=<text> followed by " pid=" sets the agent; any
// tool=<word> counts a call and becomes last. Seats are listed in the order
// they first appear; a missing or empty log gives an empty list.
func OriginalSeats(log []byte) []OriginalSeat {
	var order []string
	found := map[string]*OriginalSeat{}
	for _, line := range strings.Split(string(log), "\n") {
		m := origSeatRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		e, ok := found[m[1]]
		if !ok {
			e = &OriginalSeat{Seat: m[1]}
			found[m[1]] = e
			order = append(order, m[1])
		}
		if a := origAgentRe.FindStringSubmatch(line); a != nil && a[1] != "" {
			e.Agent = a[1]
		}
		if tl := origToolRe.FindStringSubmatch(line); tl != nil {
			e.Calls++
			e.Last = tl[1]
		}
	}
	out := make([]OriginalSeat, 0, len(order))
	for _, k := range order {
		out = append(out, *found[k])
	}
	return out
}
