package room

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// server.log lines carry any seat's name: a name with spaces, quotes or
// other scripts is quoted on write and read back whole.
func TestServerLogCarriesAnySeatName(t *testing.T) {
	r := newRoom(t, 2)
	seat := `Zoë "the" 李 x`
	if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", seat), F("agent", "roundtable:mock"), F("pid", 1)); err != nil {
		t.Fatal(err)
	}
	seats, err := ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range seats {
		names = append(names, s.Seat)
		if s.Seat == seat && s.Agent == "roundtable:mock" && s.Connected() {
			return
		}
	}
	t.Fatalf("seats read back: %s", strings.Join(names, " | "))
}

func TestSeatFileIsSafeAndDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, seat := range []string{"lead", "peer", "Lead", "moderator", "a b", "a-b", "..", "/", "", "李", strings.Repeat("x", 200)} {
		f := SeatFile(seat)
		if f == "" || strings.ContainsAny(f, `/\. `) || len(f) > 48 {
			t.Fatalf("SeatFile(%q) = %q", seat, f)
		}
		if other, ok := seen[f]; ok {
			t.Fatalf("%q and %q share the file %q", seat, other, f)
		}
		seen[f] = seat
	}
	if SeatFile(SeatLead) != "lead" || SeatFile(SeatPeer) != "peer" {
		t.Fatal("the lead and the peer changed file names")
	}
}

func TestParseSeatList(t *testing.T) {
	got, err := ParseSeatList(" lead, critic ,security,peer")
	if err != nil || !slices.Equal(got, []string{"lead", "critic", "security", "peer"}) {
		t.Fatalf("ParseSeatList = %q, %v; want the four seats trimmed", got, err)
	}
	if got, err := ParseSeatList("lead,peer"); err != nil || !slices.Equal(got, DefaultSeats()) {
		t.Fatalf("the default seats: %q, %v", got, err)
	}
	for v, want := range map[string]string{
		"lead":                 "lists 1 seats",
		"lead,a,b,c,d,e,f,g,h": "lists 9 seats",
		"peer,lead":            "list it first",
		"lead,critic,critic":   "listed twice",
		"lead,,peer":           "without control characters",
		"lead,observer":        "watch-only token",
	} {
		_, err := ParseSeatList(v)
		if err == nil || !errors.Is(err, ErrBadSeat) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSeatList(%q) = %v; want ErrBadSeat saying %q", v, err, want)
		}
	}
}
