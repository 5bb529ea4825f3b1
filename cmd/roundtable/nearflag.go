package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagSynonyms are names a new user tries for a flag that has another:
// each is offered only where the command has the flag it points to.
var flagSynonyms = map[string]string{
	"port": "listen", "addr": "listen", "address": "listen", "bind": "listen",
	"turns": "rounds", "dir": "cwd", "folder": "cwd",
	"question": "topic", "decision": "topic", "prompt": "topic",
}

// nearFlag adds to cobra's "unknown flag: --X" the command's flag the
// user most likely meant (a typo of one or two letters, a missing
// plural, or a usual other name), when there is one.
func nearFlag(cmd *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	name, _, _ = strings.Cut(name, "=")
	if name == "room" && cmd.Annotations[wordsAre] == wordsAreTheRoom {
		return fmt.Errorf("%w (it takes the room as a word: %s %s)", err, cmd.Parent().CommandPath(), cmd.Use)
	}
	if s := nearestFlag(cmd, name); s != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, s)
	}
	return err
}

// nearestFlag is the command's visible flag nearest to name: its synonym,
// else the one fewest edits away, at most 1 edit for a name of up to 4
// letters and 2 for a longer one; "" when none is that near. The flag
// error comes from parsing, so Flags holds the inherited flags too.
func nearestFlag(cmd *cobra.Command, name string) string {
	name = strings.ToLower(name)
	if to, ok := flagSynonyms[name]; ok && cmd.Flags().Lookup(to) != nil {
		return to
	}
	limit := 1
	if len(name) > 4 {
		limit = 2
	}
	best, bestD := "", limit+1
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if d := editDistance(name, f.Name); !f.Hidden && d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the number of single-letter insertions, deletions,
// substitutions and swaps of two letters side by side that turn a into b (the
// optimal string alignment distance): "hots" is one edit from "host".
func editDistance(a, b string) int {
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		before, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, before
	}
	return rows[1][len(b)]
}

// nearestCommands is cobra's suggestions for a mistyped command, only
// the nearest: a command that names typed in its SuggestFor first, else
// those fewest edits away.
func nearestCommands(root *cobra.Command, typed string) []string {
	best, out := -1, []string(nil)
	for _, name := range root.SuggestionsFor(typed) {
		d := editDistance(strings.ToLower(typed), name)
		if sub, _, err := root.Find([]string{name}); err == nil && slices.Contains(sub.SuggestFor, strings.ToLower(typed)) {
			d = 0
		}
		switch {
		case best < 0 || d < best:
			best, out = d, []string{name}
		case d == best:
			out = append(out, name)
		}
	}
	return out
}
