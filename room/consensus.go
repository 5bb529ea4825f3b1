package room

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"
)

// ConsensusFile is the marker of a debate that stops early: its run
// writes it when the moderator finds the panel agreed after a round
// (stop on consensus), before the verdict. It is read only to resume a
// debate stopped after that (during its pause, its peer rankings or its
// verdict): the rounds are over, and the verdict comes next.
const ConsensusFile = "consensus.json"

// Consensus is consensus.json.
type Consensus struct {
	// Round is the round after which the moderator found consensus.
	Round int    `json:"round"`
	At    string `json:"at"` // TimeLayout
}

// SetConsensus writes consensus.json: the panel agreed after round.
func (r *Room) SetConsensus(round int) error {
	data, err := json.Marshal(Consensus{Round: round, At: time.Now().UTC().Format(TimeLayout)})
	if err == nil {
		err = writeAtomic(filepath.Join(r.dir, ConsensusFile), append(data, '\n'))
	}
	if err != nil {
		return fmt.Errorf("write %s of room %q: %w", ConsensusFile, r.cfg.Room, err)
	}
	return nil
}

// ConsensusRound is the round after which the room's debate found
// consensus (consensus.json); 0 when it has not, and when the marker
// cannot be read or does not parse (a marker half understood ends no
// debate's rounds).
func (r *Room) ConsensusRound() int {
	if !r.cfg.IsDebate() {
		return 0
	}
	data, err := readRegular(filepath.Join(r.dir, ConsensusFile), 4<<10)
	if err != nil {
		return 0
	}
	var c Consensus
	if json.Unmarshal(data, &c) != nil || c.Round < 1 {
		return 0
	}
	return c.Round
}
