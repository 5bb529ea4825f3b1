package mcpserver

// STAND-IN for helper H7's room/mcpserver/hostprint.go (issue 15): the
// contract's HostInstructions, printing only the token and the claude line,
// so the host compiles before H7's file lands. The lead deletes this file at
// merge in favour of H7's.

import (
	"fmt"
	"io"
	"sort"
)

// HostInstructions prints each grant's token and how to connect with it.
func HostInstructions(w io.Writer, url, roomName string, tokens map[string]string) {
	grants := make([]string, 0, len(tokens))
	for g := range tokens {
		grants = append(grants, g)
	}
	sort.Strings(grants)
	for _, g := range grants {
		fmt.Fprintf(w, "room %s, %s: token %s\n", roomName, g, tokens[g])
		if g == "observer" {
			fmt.Fprintf(w, "  roundtable watch --url %s --token %s\n", url, tokens[g])
			continue
		}
		fmt.Fprintf(w, "  claude mcp add --transport http roundtable-%s-%s %s --header \"Authorization: Bearer %s\"\n", roomName, g, url, tokens[g])
	}
}
