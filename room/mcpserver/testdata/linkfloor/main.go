// Command linkfloor links the two libraries the product requires in the same
// binary as the seat server (Glamour for the screens, mcp-go's server for the
// seats) and does nothing else. BenchmarkStartFloor times it: it is the least
// any single roundtable binary can take to start, before serving anything.
package main

import (
	_ "charm.land/glamour/v2"
	_ "github.com/mark3labs/mcp-go/server"
)

func main() {}
