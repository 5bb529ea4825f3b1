//go:build !linux

package room

// eventsComplete reports whether kernel events see every change under
// path. Outside Linux it is not checked, so folders are rescanned at
// RescanInterval.
func eventsComplete(string) bool { return false }
