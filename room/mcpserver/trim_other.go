//go:build !linux

package mcpserver

// trimResident is a no-op where /proc/self/maps does not exist.
func trimResident() {}
