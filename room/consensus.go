package room

import (
	"fmt"
	"path/filepath"
	"time"
)

// ConsensusFile is the marker of a debate that stops early: its run
// writes it when the moderator finds the panel agreed after a round
// (stop on consensus), before the verdict. It is read only to resume a
// debate stopped after that (during its pause, its peer rankings or its
// verdict): the rounds are over, and the verdict comes next. It has
// paused.json's shape: {"round": N, "at": …}.
const ConsensusFile = "consensus.json"

// SetConsensus writes consensus.json: the panel agreed after round.
func (r *Room) SetConsensus(round int) error {
	p := Pause{Round: round, At: time.Now().UTC().Format(TimeLayout)}
	if err := writeMarker(filepath.Join(r.dir, ConsensusFile), p); err != nil {
		return fmt.Errorf("write %s of room %q: %w", ConsensusFile, r.cfg.Room, err)
	}
	return nil
}

// ConsensusRound is the round after which the room's debate found
// consensus (consensus.json); 0 when it has not, and when the marker
// cannot be read or does not parse.
func (r *Room) ConsensusRound() int {
	if !r.cfg.IsDebate() {
		return 0
	}
	return pauseRound(readMarker(filepath.Join(r.dir, ConsensusFile)))
}
