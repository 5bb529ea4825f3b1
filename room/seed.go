package room

import (
	"fmt"
	"path/filepath"

	"github.com/roundtable-dev/roundtable/prompts"
)

// SeedResult is what Seed prints: the room, its folder, the spec path and
// the prompt files written.
type SeedResult struct {
	Room    string   `json:"room"`
	Dir     string   `json:"dir"`
	Spec    string   `json:"spec"`
	Prompts []string `json:"prompts"`
}

// Seed creates the room (unless it exists) and writes lead.md and peer.md
// into its folder, with the room's topic, spec and budget filled in.
func Seed(cwd, name string, opt CreateOptions) (SeedResult, error) {
	r, _, err := Create(cwd, name, opt)
	if err != nil {
		return SeedResult{}, err
	}
	cfg := r.Config()
	res := SeedResult{Room: cfg.Room, Dir: r.Dir(), Spec: cfg.Spec}
	for _, seat := range []string{SeatLead, SeatPeer} {
		text, err := prompts.Seat(seat, prompts.SeatValues{Room: cfg.Room, Topic: cfg.Topic, Spec: cfg.Spec, Budget: cfg.Budget})
		if err != nil {
			return SeedResult{}, fmt.Errorf("seat prompt %s: %w", seat, err)
		}
		p := filepath.Join(r.Dir(), seat+".md")
		if err := writeAtomic(p, []byte(text)); err != nil {
			return SeedResult{}, fmt.Errorf("write %s: %w", p, err)
		}
		res.Prompts = append(res.Prompts, p)
	}
	return res, nil
}
