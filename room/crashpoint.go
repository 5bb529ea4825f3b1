//go:build !crashtest

package room

// crashPoint marks a place where the fault-injection build (tag crashtest)
// can kill the process; in a normal build it does nothing.
func crashPoint(string) {}
