package mcpserver

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkReadRoomServed is read_room {since: 0} in a room of 10,000
// messages as Serve runs it, without the pipe: the handler, mcp-go's
// marshaling of the response and the splicing writer, into io.Discard.
// It is the server's CPU per call; run it with -cpuprofile.
func BenchmarkReadRoomServed(b *testing.B) {
	cwd := b.TempDir()
	r, _, err := room.Create(cwd, "big", room.CreateOptions{Topic: "bench", Budget: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	para := strings.Repeat("A paragraph of the length agents write, with `code`, a [link](https://example.com) and \"quotes\" <T>. ", 5)
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 1; i <= 10000; i++ {
		seat := room.SeatLead
		if i%2 == 0 {
			seat = room.SeatPeer
		}
		at := base.Add(time.Duration(i) * time.Millisecond)
		data, _ := json.MarshalIndent(room.Message{Seq: i, At: at.Format(room.TimeLayout), Seat: seat, Agent: "a", Kind: room.DefaultKind(seat), Text: fmt.Sprintf("## Point %d\n\n%s", i, para)}, "", "  ")
		if err := os.WriteFile(filepath.Join(r.MessagesDir(), fmt.Sprintf("%04d-%d-abcdef.json", i, at.UnixMilli())), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := NewSeat(b.Context(), Options{Room: "big", Seat: room.SeatLead, Budget: 12, Cwd: cwd})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	s.splice = newSplicer()
	w := s.splice.writer(io.Discard)
	srv := s.MCPServer()
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_room","arguments":{"since":0}}}`)
	for b.Loop() {
		data, err := json.Marshal(srv.HandleMessage(b.Context(), req))
		if err != nil {
			b.Fatal(err)
		}
		// As mcp-go's stdio transport writes a response.
		if _, err := fmt.Fprintf(w, "%s\n", data); err != nil {
			b.Fatal(err)
		}
		if !s.splice.idle() {
			b.Fatal("the reply was not spliced")
		}
	}
}
