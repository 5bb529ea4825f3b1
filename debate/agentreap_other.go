//go:build !linux

package debate

// killMarked does nothing where there is no /proc to find the processes
// carrying the agent's mark: the agent's process group is killed, and
// what left it can outlive the agent.
func killMarked(string) {}

// selfStart is 0 where there is no /proc: marks then name no start time,
// and no later roundtable judges them.
func selfStart() uint64 { return 0 }

// sweepOrphanAgents does nothing where there is no /proc.
func sweepOrphanAgents() {}
