package eval

import (
	"errors"
	"fmt"
	"slices"
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
	Name string // as written in --arms: single, vote:5, debate, debate=a+b
	Kind string // ArmSingle, ArmVote, ArmDebate, ArmRank or ArmStances
	K    int    // samples of a vote; 1 for single
	// Models, when set (debate=a+b+c), are the arm's own, given out in
	// turn as Options.Models are, in place of them.
	Models []string
}

// IsDebate says the arm is a panel's debate: debate, rank or stances.
func (a Arm) IsDebate() bool {
	return a.Kind == ArmDebate || a.Kind == ArmRank || a.Kind == ArmStances
}

// ParseArms reads a comma-separated list of arms: single, vote:K (K from
// 1 to MaxVotes), debate, rank and stances, each at most once with the
// same models. An arm may name its own models after "=", joined by "+"
// (vote:5=gpt-4o-mini, debate=model-a+model-b+model-c): they are given
// out in turn, one per sample or persona, the moderator and single
// taking the first; the name then keeps them, so two arms of one kind
// with other models are two arms. Errors wrap ErrBadArms.
func ParseArms(s string) ([]Arm, error) {
	var arms []Arm
	seen := map[string]bool{}
	for part := range strings.SplitSeq(s, ",") {
		kind, models, hasModels := strings.Cut(strings.TrimSpace(part), "=")
		name := strings.ToLower(strings.TrimSpace(kind))
		if name == "" && !hasModels {
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
		if hasModels {
			for m := range strings.SplitSeq(models, "+") {
				if m = strings.TrimSpace(m); m != "" {
					a.Models = append(a.Models, m)
				}
			}
			if len(a.Models) == 0 {
				return nil, fmt.Errorf("%w: %q names no model after =; write %s=MODEL, or %s=MODEL+MODEL for several", ErrBadArms, strings.TrimSpace(part), name, name)
			}
			name += "=" + strings.Join(a.Models, "+")
			a.Name = name
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

// ArmModels lists the models arms name of their own, each once, in the
// order named.
func ArmModels(arms []Arm) []string {
	var out []string
	for _, a := range arms {
		for _, m := range a.Models {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// AllOwnModels says every arm names its own models: none asks the
// provider's.
func AllOwnModels(arms []Arm) bool {
	for _, a := range arms {
		if len(a.Models) == 0 {
			return false
		}
	}
	return len(arms) > 0
}
