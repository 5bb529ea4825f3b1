//go:build !unix

package main

// ignoreSIGPIPE does nothing where there is no SIGPIPE: a write to a
// closed pipe is already an error there.
func ignoreSIGPIPE() {}
