package eval

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// RoomName is the room a debate arm's item is saved in: "eval-", the arm,
// and the question's id as a slug (with a hash of the id when the slug
// is not the id itself, so two ids never share a room), at most 64
// characters.
func RoomName(arm, questionID string) string {
	slug := room.Slug(questionID)
	if slug != questionID || slug == "" {
		h := fnv.New32a()
		_, _ = h.Write([]byte(questionID)) // a hash's Write never fails
		slug = fmt.Sprintf("%.40s-%08x", slug, h.Sum32())
	}
	return fmt.Sprintf("%.64s", "eval-"+arm+"-"+slug)
}

// saveRoom writes a finished debate item as a debate room under
// opt.RoomsDir (its .roundtable folder): room.json with the panel and the
// rounds, each turn as the persona's message, each peer ranking (the
// rank arm) as a ranking message, the moderator's reply as
// the summary, closed complete; so roundtable rooms and roundtable tui,
// run in that folder, open it as any finished debate. A room left by a
// run stopped before its item was saved is put in the trash first.
func (r *runner) saveRoom(q Question, a Arm, panel []debate.Persona, mod debate.Persona, posts []room.Post) (string, error) {
	name := RoomName(a.Name, q.ID)
	cwd := r.opt.RoomsDir
	if _, err := os.Stat(room.Dir(cwd, name)); err == nil {
		if _, err := room.Trash(cwd, name, time.Now()); err != nil {
			return "", fmt.Errorf("room %s is left from a stopped run and cannot be moved to the trash: %w", name, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	cfg := debate.Config{
		Topic: questionText(q), Personas: panel, Moderator: mod, Rounds: r.opt.Rounds,
		Provider: r.opt.Provider.Name(), Model: r.opt.Provider.Model(), Rank: a.Kind == ArmRank,
	}
	rm, err := debate.CreateRoom(cwd, name, cfg)
	if err != nil {
		return "", err
	}
	for _, p := range posts {
		if _, err := rm.Record(p); err != nil {
			return "", fmt.Errorf("room %s: %w", name, err)
		}
	}
	if _, err := rm.Close(room.CloseOptions{Reason: debate.ReasonComplete}); err != nil {
		return "", fmt.Errorf("room %s: %w", name, err)
	}
	return name, nil
}

// postOf is call c as a room message of seat in round.
func postOf(seat, kind string, round int, c Call) room.Post {
	text := c.Reply
	if text == "" {
		text = "(no reply)"
	}
	p := room.Post{Seat: seat, Agent: c.Model, Kind: kind, Text: text, Round: round}
	if c.PromptTokens+c.CompletionTokens > 0 || c.Cost > 0 {
		p.Usage = &room.Usage{PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens, Cost: c.Cost}
	}
	return p
}
