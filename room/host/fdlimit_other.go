//go:build !unix

package host

// fileLimit is how many files the process may hold open: unknown here.
func fileLimit() int { return 0 }
