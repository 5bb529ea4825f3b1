package eval

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadArms marks an --arms value that names no arm this package runs. A
// command line exits 2 on it.
var ErrBadArms = errors.New("bad arms")

// Arm kinds.
const (
	ArmSingle = "single" // one answer
	ArmVote   = "vote"   // K independent answers, the majority
	ArmDebate = "debate" // personas × rounds, then the moderator's answer
	// ArmRank is the debate, then each persona ranks the others' final
	// replies, unlabelled, and the moderator reads the rankings.
	ArmRank = "rank"
	// ArmStances is the debate with each persona assigned for, against
	// or neutral on the proposed answer (the last round's majority).
	ArmStances = "stances"
)

// MaxVotes bounds vote:K.
const MaxVotes = 64

// Arm is one way of answering every question.
type Arm struct {
	Name string // as written in --arms: single, vote:5, debate
	Kind string // ArmSingle, ArmVote, ArmDebate, ArmRank or ArmStances
	K    int    // samples of a vote; 1 for single
}

// IsDebate says the arm is a panel's debate: debate, rank or stances.
func (a Arm) IsDebate() bool {
	return a.Kind == ArmDebate || a.Kind == ArmRank || a.Kind == ArmStances
}

// ParseArms reads a comma-separated list of arms: single, vote:K (K from
// 1 to MaxVotes), debate, rank and stances, each at most once. Errors
// wrap ErrBadArms.
func ParseArms(s string) ([]Arm, error) {
	var arms []Arm
	seen := map[string]bool{}
	for part := range strings.SplitSeq(s, ",") {
		name := strings.ToLower(strings.TrimSpace(part))
		if name == "" {
			continue
		}
		var a Arm
		switch {
		case name == ArmSingle:
			a = Arm{Name: name, Kind: ArmSingle, K: 1}
		case name == ArmDebate || name == ArmRank || name == ArmStances:
			a = Arm{Name: name, Kind: name}
		case strings.HasPrefix(name, ArmVote+":"):
			k, err := strconv.Atoi(strings.TrimPrefix(name, ArmVote+":"))
			if err != nil || k < 1 || k > MaxVotes {
				return nil, fmt.Errorf("%w: %q: K in vote:K is a number from 1 to %d", ErrBadArms, part, MaxVotes)
			}
			name = fmt.Sprintf("vote:%d", k)
			a = Arm{Name: name, Kind: ArmVote, K: k}
		default:
			return nil, fmt.Errorf("%w: %q is not an arm; arms are single, vote:K, debate, rank and stances", ErrBadArms, strings.TrimSpace(part))
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: %s is named twice", ErrBadArms, name)
		}
		seen[name] = true
		arms = append(arms, a)
	}
	if len(arms) == 0 {
		return nil, fmt.Errorf("%w: no arm named; for example single,vote:5,debate,rank", ErrBadArms)
	}
	return arms, nil
}
