package room

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room/roomtest"
)

func TestReadsReferenceRooms(t *testing.T) {
	cases := []struct {
		name      string
		messages  int
		round     int
		turn      string
		closed    bool
		outBudget bool
		kinds     []string
	}{
		{"cache-design", 8, 4, SeatLead, true, true, []string{"brief", "objection", "challenge", "proposal", "question", "concession", "decision", "answer"}},
		{"open-room", 3, 2, SeatPeer, false, false, []string{"brief", "objection", "challenge"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cwd := roomtest.CopyTree(t, filepath.Join(roomtest.ReferenceRooms(), c.name))
			r, err := Open(cwd, c.name)
			if err != nil {
				t.Fatal(err)
			}
			st, err := r.State()
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for i, m := range st.Messages {
				kinds = append(kinds, m.Kind)
				if m.Seq != i+1 || m.Text == "" || m.Agent == "" {
					t.Fatalf("message %d: %+v", i, m)
				}
			}
			if len(st.Messages) != c.messages || st.Round != c.round || st.Turn != c.turn ||
				(st.Closed != nil) != c.closed || st.OutOfBudget != c.outBudget || len(st.Skipped) != 0 {
				t.Fatalf("got n=%d round=%d turn=%s closed=%v out=%v skipped=%v",
					len(st.Messages), st.Round, st.Turn, st.Closed != nil, st.OutOfBudget, st.Skipped)
			}
			if !reflect.DeepEqual(kinds, c.kinds) {
				t.Fatalf("kinds %v, want %v", kinds, c.kinds)
			}
			if c.closed && (st.Closed.Reason != "agreement reached" || st.Closed.SpecPath != "SPEC-cache-design.md") {
				t.Fatalf("closed = %+v", st.Closed)
			}
		})
	}
}

// keysOf returns the sorted top-level keys of a JSON object file.
func keysOf(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestWritesTheReferenceShapes(t *testing.T) {
	ref := "testdata/reference-rooms/cache-design/.roundtable/cache-design"
	cwd := t.TempDir()
	r, _, err := Create(cwd, "cache-design", CreateOptions{Topic: "Should the cache be write-through", Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	m := mustPost(t, r, SeatLead, "brief <with> & markup")
	if _, err := r.WriteSpec("spec"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(CloseOptions{Reason: "agreement reached", RequireSpec: true}); err != nil {
		t.Fatal(err)
	}
	refMsgs, _ := filepath.Glob(filepath.Join(ref, "messages", "*.json"))
	pairs := [][2]string{
		{filepath.Join(ref, "room.json"), filepath.Join(r.Dir(), "room.json")},
		{filepath.Join(ref, "closed.json"), filepath.Join(r.Dir(), "closed.json")},
		{refMsgs[0], filepath.Join(r.MessagesDir(), m.File)},
	}
	for _, p := range pairs {
		if got, want := keysOf(t, p[1]), keysOf(t, p[0]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s keys %v, reference %v", filepath.Base(p[1]), got, want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(r.MessagesDir(), m.File))
	if !json.Valid(data) || !containsAll(string(data), `"text": "brief <with> & markup"`, "{\n  \"seq\": 1,\n") {
		t.Errorf("message not written like the reference:\n%s", data)
	}
	if len(m.File) != len(filepath.Base(refMsgs[0])) {
		t.Errorf("file name %s not shaped like %s", m.File, filepath.Base(refMsgs[0]))
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !json.Valid([]byte(s)) || !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
