package room

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateKind(t *testing.T) {
	ok := []string{
		"", "brief", "concession", "answer", "counter-proposal", "side note",
		"<script>", "réponse", "質問", "👍", "👩‍💻 review", // ZWJ emoji
		strings.Repeat("k", MaxKindRunes), strings.Repeat("é", MaxKindRunes),
	}
	for _, k := range ok {
		if err := ValidateKind(k); err != nil {
			t.Errorf("ValidateKind(%q) = %v, want accepted", k, err)
		}
	}
	bad := []struct{ kind, reason string }{
		{strings.Repeat("k", MaxKindRunes+1), "33 characters"},
		{"two\nlines", "line break"},
		{"cr\rhere", "line break"},
		{"tab\there", "U+0009"},
		{"esc\x1b[31m", "U+001B"},
		{"rtl\u202eevil", "U+202E"},
		{"zero\u200bwidth", "U+200B"},
		{" padded", "white space"},
		{"bad\xffutf8", "UTF-8"},
	}
	for _, c := range bad {
		err := ValidateKind(c.kind)
		var bk *BadKindError
		if !errors.Is(err, ErrBadKind) || !errors.As(err, &bk) || bk.Kind != c.kind || !strings.Contains(bk.Reason, c.reason) {
			t.Errorf("ValidateKind(%q) = %v, want a BadKindError saying %q", c.kind, err, c.reason)
		}
	}
}

// TestPostAnyShortKind: as in the original server, a seat may post any
// short kind, the usual kinds of the other seat included; only kinds that
// cannot be shown as a label are refused, and nothing is written then.
func TestPostAnyShortKind(t *testing.T) {
	r := newRoom(t, 5)
	posts := []struct{ seat, kind, want string }{
		{SeatLead, "concession", "concession"},
		{SeatPeer, "  brief  ", "brief"},
		{SeatLead, "", "brief"},
		{SeatPeer, "counter-proposal", "counter-proposal"},
		{SeatLead, "", "brief"},
		{SeatPeer, "", "answer"},
	}
	for _, p := range posts {
		m, _, err := r.PostMessage(Post{Seat: p.seat, Kind: p.kind, Text: "x"})
		if err != nil || m.Kind != p.want {
			t.Fatalf("%s posting kind %q: kind %q, %v", p.seat, p.kind, m.Kind, err)
		}
	}
	_, _, err := r.PostMessage(Post{Seat: SeatLead, Kind: strings.Repeat("x", 200), Text: "x"})
	if !errors.Is(err, ErrBadKind) {
		t.Fatalf("200-character kind: %v", err)
	}
	st, _ := r.State()
	if len(st.Messages) != len(posts) {
		t.Fatalf("%d messages, want %d", len(st.Messages), len(posts))
	}
}

// TestTypedErrorsCarryData: every refusal matches its sentinel and carries
// what a caller needs to word it, and no store message names an MCP tool.
func TestTypedErrorsCarryData(t *testing.T) {
	r := newRoom(t, 1)
	mustPost(t, r, SeatLead, "brief")
	mustPost(t, r, SeatPeer, "answer")
	_, _, err := r.PostMessage(Post{Seat: SeatLead, Text: "over"})
	var budget *BudgetSpentError
	if !errors.As(err, &budget) || budget.Round != 1 || budget.Budget != 1 {
		t.Fatalf("over budget: %v", err)
	}
	_, _, errLarge := r.PostMessage(Post{Seat: SeatLead, Text: strings.Repeat("x", MaxTextBytes+5)})
	var large *TooLargeError
	if !errors.Is(errLarge, ErrTooLarge) || !errors.As(errLarge, &large) || large.Size != MaxTextBytes+5 || large.Limit != MaxTextBytes || large.What != "message" {
		t.Fatalf("too large: %v", errLarge)
	}
	_, _, errEmpty := r.PostMessage(Post{Seat: SeatLead, Text: " \t"})
	var empty *EmptyError
	if !errors.Is(errEmpty, ErrEmpty) || !errors.As(errEmpty, &empty) || empty.What != "message" {
		t.Fatalf("empty: %v", errEmpty)
	}
	_, errSpec := r.Close(CloseOptions{Reason: "done", RequireSpec: true})
	var noSpec *NoSpecError
	if !errors.Is(errSpec, ErrNoSpec) || !errors.As(errSpec, &noSpec) || noSpec.Spec != "SPEC-r1.md" {
		t.Fatalf("no spec: %v", errSpec)
	}
	if _, err := r.Close(CloseOptions{Reason: "agreement reached"}); err != nil {
		t.Fatal(err)
	}
	_, _, errClosed := r.PostMessage(Post{Seat: SeatLead, Text: "late"})
	var closed *ClosedError
	if !errors.Is(errClosed, ErrClosed) || !errors.As(errClosed, &closed) || closed.Reason != "agreement reached" {
		t.Fatalf("closed: %v", errClosed)
	}
	_, errAgain := r.Close(CloseOptions{Reason: "again"})
	if !errors.As(errAgain, &closed) || closed.Reason != "agreement reached" {
		t.Fatalf("second close: %v", errAgain)
	}
	_, _, errTopic := Create(t.TempDir(), "big", CreateOptions{Budget: 1, Topic: strings.Repeat("x", MaxTopicBytes+1)})
	if !errors.As(errTopic, &large) || large.What != "topic" || large.Limit != MaxTopicBytes {
		t.Fatalf("big topic: %v", errTopic)
	}
	for _, e := range []error{err, errLarge, errEmpty, errSpec, errClosed, errAgain, errTopic} {
		for _, tool := range []string{"wait_for_message", "write_spec", "close_room", "read_room", "room_status"} {
			if strings.Contains(e.Error(), tool) {
				t.Errorf("store error %q names the tool %s", e, tool)
			}
		}
	}
}
