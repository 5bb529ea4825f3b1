package transcript

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// mcpGroups splits an MCP room into rounds: a lead post opens a round and the
// replies that follow belong to it. Messages before the first lead post are
// kept in a group of their own.
func mcpGroups(msgs []room.Message, entries []entry) []group {
	var groups []group
	round := 0
	for i := range msgs {
		if msgs[i].Seat == room.SeatLead {
			round++
			groups = append(groups, group{Title: "Round " + strconv.Itoa(round)})
		} else if len(groups) == 0 {
			groups = append(groups, group{Title: "Before the first lead post"})
		}
		g := &groups[len(groups)-1]
		g.Entries = append(g.Entries, entries[i])
	}
	return groups
}

// debateGroups groups a debate by its recorded round, in round order, each
// round's turns in persona (sequence) order; the moderator's verdicts are
// returned apart. Turns without a round number come last, then the
// personas' peer rankings (room.KindRanking), a group of their own.
func debateGroups(msgs []room.Message, entries []entry) (groups []group, verdicts []entry) {
	byRound := map[int]int{} // round -> index in groups
	var rounds []int
	ranking := group{Title: "Peer ranking"}
	for i := range msgs {
		m := &msgs[i]
		if m.Seat == room.SeatModerator && m.Kind == room.KindSummary {
			verdicts = append(verdicts, entries[i])
			continue
		}
		if m.Kind == room.KindRanking && m.Seat != room.SeatModerator {
			ranking.Entries = append(ranking.Entries, entries[i])
			continue
		}
		gi, ok := byRound[m.Round]
		if !ok {
			gi = len(groups)
			byRound[m.Round] = gi
			rounds = append(rounds, m.Round)
			title := "Round " + strconv.Itoa(m.Round)
			if m.Round <= 0 {
				title = "Turns without a round"
			}
			groups = append(groups, group{Title: title})
		}
		groups[gi].Entries = append(groups[gi].Entries, entries[i])
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	key := func(i int) int {
		if rounds[i] <= 0 {
			return int(^uint(0) >> 1)
		}
		return rounds[i]
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key(a), key(b)) })
	sorted := make([]group, len(groups))
	for i, gi := range order {
		sorted[i] = groups[gi]
	}
	if len(ranking.Entries) > 0 {
		sorted = append(sorted, ranking)
	}
	return sorted, verdicts
}

// agentsBySeat lists, per seat, the distinct agent labels its messages carry,
// in order of first use.
func agentsBySeat(msgs []room.Message) map[string][]string {
	out := map[string][]string{}
	for i := range msgs {
		m := &msgs[i]
		a := oneLine(m.Agent)
		if a != "" && !slices.Contains(out[m.Seat], a) {
			out[m.Seat] = append(out[m.Seat], a)
		}
	}
	return out
}

// mcpSeats says who sat where, for each of the room's seats (and anyone
// else who posted): the label each seat connected with in server.log, then
// any other label its messages carry.
func mcpSeats(seats []string, logSeats []room.SeatInfo, msgs []room.Message, classes *classMap) []seatLine {
	fromMsgs := agentsBySeat(msgs)
	seen := map[string]bool{}
	var out []seatLine
	add := func(seat string, labels []string) {
		if seen[seat] {
			return
		}
		seen[seat] = true
		for _, a := range fromMsgs[seat] {
			if !slices.Contains(labels, a) {
				labels = append(labels, a)
			}
		}
		line := seatLine{Key: seat, Seat: oneLine(seat), Agents: strings.Join(labels, ", "), Class: classes.class(seat)}
		if line.Agents == "" {
			line.Agents = noAgentsMCP
		}
		out = append(out, line)
	}
	logLabels := func(s room.SeatInfo) []string {
		if a := oneLine(s.Agent); a != "" {
			return []string{a}
		}
		return nil
	}
	for _, seat := range seats { // every seat of the room in its order, a council's too
		var labels []string
		for _, s := range logSeats {
			if s.Seat == seat {
				labels = logLabels(s)
			}
		}
		add(seat, labels)
	}
	for _, s := range logSeats {
		labels := logLabels(s)
		if len(labels) == 0 && len(fromMsgs[s.Seat]) == 0 {
			continue // a stranger in the log that never said anything
		}
		add(s.Seat, labels)
	}
	for i := range msgs {
		add(msgs[i].Seat, nil)
	}
	return out
}

// debateSeats lists the personas in room.json's order, then anyone else who
// spoke (the moderator), each with the agent labels of their turns and
// the stance room.json gives it.
func debateSeats(cfg room.Config, msgs []room.Message, classes *classMap) []seatLine {
	fromMsgs := agentsBySeat(msgs)
	seen := map[string]bool{}
	var out []seatLine
	add := func(seat string) {
		if seen[seat] {
			return
		}
		seen[seat] = true
		line := seatLine{Key: seat, Seat: oneLine(seat), Agents: strings.Join(fromMsgs[seat], ", "), Class: classes.class(seat), Stance: oneLine(cfg.StanceOf(seat))}
		if line.Agents == "" {
			line.Agents = noAgentsDebate
		}
		out = append(out, line)
	}
	for _, a := range cfg.Agents {
		add(a)
	}
	for i := range msgs {
		add(msgs[i].Seat)
	}
	return out
}

// What a seat line says when no agent is known: in an MCP room, and in a
// debate (a persona that has not spoken).
const (
	noAgentsMCP    = "nobody"
	noAgentsDebate = "no turn recorded"
)
