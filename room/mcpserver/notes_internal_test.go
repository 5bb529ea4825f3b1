package mcpserver

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestNotesEncode: a reply with notes is the JSON encoding/json writes,
// the notes before the messages, and its quoted form (the one a large
// read_room is spliced in with) is that JSON as a string.
func TestNotesEncode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 12 {
		var notes []room.Note
		for i := range n {
			notes = append(notes, room.Note{Seq: i + 1, At: randomText(rng), From: room.NoteFromHost, Text: randomText(rng), AfterSeq: i, File: "ignored"})
		}
		msgs := []room.Message{{Seq: 1, At: "t", Seat: "lead", Agent: "a", Kind: "brief", Text: randomText(rng)}}
		extra := map[string]any{"messages": msgs, "notes": notesOut(notes)}
		st := status{Room: "r", YouAre: "peer", Turn: "peer", MessageCount: 1}
		got, err := merge(extra, st).encode()
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			Notes    []noteOut      `json:"notes"`
			Messages []room.Message `json:"messages"`
		}
		if err := json.Unmarshal(got, &back); err != nil || len(back.Notes) != n || len(back.Messages) != 1 {
			t.Fatalf("%d notes: %v\n%s", n, err, got)
		}
		for i, o := range back.Notes {
			var want string // the text as encoding/json carries it
			data, _ := json.Marshal(notes[i].Text)
			_ = json.Unmarshal(data, &want)
			if o.Text != want || o.From != "host" || o.AfterSeq != i || o.Seq != i+1 {
				t.Fatalf("note %d back as %+v", i, o)
			}
		}
		if bytes.Index(got, []byte(`"notes"`)) > bytes.Index(got, []byte(`"messages"`)) {
			t.Fatalf("notes after the messages:\n%s", got)
		}
		quoted, err := merge(extra, st).encodeQuoted()
		if err != nil {
			t.Fatal(err)
		}
		if want := appendString(nil, string(got)); !bytes.Equal(quoted, want) {
			t.Fatalf("%d notes quoted:\ngot  %s\nwant %s", n, quoted, want)
		}
	}
}

func TestUnionNotes(t *testing.T) {
	mk := func(seqs ...int) []room.Note {
		var out []room.Note
		for _, s := range seqs {
			out = append(out, room.Note{Seq: s})
		}
		return out
	}
	seqs := func(ns []room.Note) []int {
		var out []int
		for _, n := range ns {
			out = append(out, n.Seq)
		}
		return out
	}
	cases := []struct{ a, b, want []int }{
		{nil, nil, nil},
		{[]int{1, 3}, []int{2, 3, 4}, []int{1, 2, 3, 4}},
		{[]int{2}, nil, []int{2}},
		{nil, []int{5, 6}, []int{5, 6}},
	}
	for _, c := range cases {
		got := seqs(unionNotes(mk(c.a...), mk(c.b...)))
		if len(got) != len(c.want) {
			t.Fatalf("union %v %v = %v, want %v", c.a, c.b, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("union %v %v = %v, want %v", c.a, c.b, got, c.want)
			}
		}
	}
}
