package mcpserver_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestRaceFourProcesses runs two seat processes per seat against one room,
// each posting as fast as it can, and checks the transcript on disk: no
// duplicate sequence number, no two consecutive messages from one seat, and
// every acknowledged post there with its text.
func TestRaceFourProcesses(t *testing.T) {
	const budget = 210
	cwd := t.TempDir()
	type worker struct {
		s    *hosttest.Seat
		name string
	}
	var workers []worker
	for i, name := range []string{"lead", "peer", "lead", "peer"} {
		extra := []string{"--budget", fmt.Sprint(budget)}
		workers = append(workers, worker{hosttest.StartSeat(t, cwd, "race", name, extra...), fmt.Sprintf("%s%d", name, i)})
	}
	type ack struct {
		seq  int
		text string
	}
	var mu sync.Mutex
	var acks []ack
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() {
			for i := 0; ; i++ {
				text := fmt.Sprintf("%s post %d", w.name, i)
				out, refusal, refused := w.s.Call("post", map[string]any{"text": text})
				if !refused {
					mu.Lock()
					acks = append(acks, ack{int(out["posted"].(float64)), text})
					mu.Unlock()
					continue
				}
				if strings.Contains(refusal, "budget") || strings.Contains(refusal, "closed") {
					return
				}
				wait := w.s.OK("wait_for_message", map[string]any{"timeout_seconds": 0.5})
				if note, _ := wait["note"].(string); strings.Contains(note, "lead is writing the spec") {
					return
				}
			}
		})
	}
	wg.Wait()

	r, err := room.Open(cwd, "race")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 2*budget {
		t.Fatalf("%d messages on disk, want %d", len(st.Messages), 2*budget)
	}
	bySeq := map[int]room.Message{}
	for i, m := range st.Messages {
		if _, dup := bySeq[m.Seq]; dup {
			t.Fatalf("duplicate seq %d", m.Seq)
		}
		bySeq[m.Seq] = m
		if m.Seq != i+1 {
			t.Fatalf("seq gap: position %d holds %d", i, m.Seq)
		}
		if i > 0 && st.Messages[i-1].Seat == m.Seat {
			t.Fatalf("messages %d and %d both from %s", i, i+1, m.Seat)
		}
	}
	if len(acks) != len(st.Messages) {
		t.Fatalf("%d posts acknowledged, %d on disk", len(acks), len(st.Messages))
	}
	for _, a := range acks {
		if bySeq[a.seq].Text != a.text {
			t.Fatalf("acknowledged post %d %q; disk has %q", a.seq, a.text, bySeq[a.seq].Text)
		}
	}
	t.Logf("%d posts from 4 processes, 0 duplicates, strictly alternating", len(acks))
}
