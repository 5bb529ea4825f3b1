package mcpserver

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkWakeReply: what a wait_for_message reply costs beyond the wake,
// by the messages it carries: one (a two-seat room's peer, woken by the
// lead) or seven (an 8-seat council's last seat, at its turn). Each op
// builds the reply, marshals the JSON-RPC response as the server writes
// it, and decodes it as a client does; BenchmarkCouncilWake's rooms differ
// by this much.
func BenchmarkWakeReply(b *testing.B) {
	for _, n := range []int{1, 7} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			msgs := make([]room.Message, n)
			for i := range msgs {
				msgs[i] = room.Message{Seq: 2400 + i, At: "2026-12-02T12:00:00.000Z", Seat: fmt.Sprintf("s%d", i), Agent: "bench", Kind: "reply", Text: "ping"}
			}
			st := status{
				Room: "council8", Topic: "bench", YouAre: "s7", Round: 300, Budget: 1 << 30, Turn: "s7", YourTurn: true,
				MessageCount: 2400, Seats: []string{"lead", "s1", "s2", "s3", "s4", "s5", "s6", "s7"},
			}
			for b.Loop() {
				res, err := reply(merge(map[string]any{"messages": msgs}, st))
				if err != nil {
					b.Fatal(err)
				}
				data, err := json.Marshal(mcp.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(1), Result: res})
				if err != nil {
					b.Fatal(err)
				}
				var v map[string]any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
