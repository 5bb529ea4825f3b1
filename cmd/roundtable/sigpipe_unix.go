//go:build unix

package main

import (
	"os/signal"
	"syscall"
)

// ignoreSIGPIPE turns a write to a closed pipe into an EPIPE error the
// program handles, instead of the signal that ends it: Go's runtime kills
// a program that writes to a closed stdout unless SIGPIPE is ignored.
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }
