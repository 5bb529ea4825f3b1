package watch

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestUntilChange: the clock's next move is exactly when the shown text
// changes: never before (a tick that shows nothing new), never after (a
// stale clock), at most a second apart in the first minute.
func TestUntilChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 8))
	ds := []time.Duration{-3 * time.Second, -time.Nanosecond, 0, time.Second - 1, time.Second, 59 * time.Minute, time.Hour, time.Hour + 30*time.Second, 24*time.Hour - 1, 24 * time.Hour, 50 * time.Hour}
	for range 2000 {
		ds = append(ds, time.Duration(rng.Int64N(int64(72*time.Hour))))
	}
	for _, d := range ds {
		step := untilChange(d)
		if step <= 0 {
			t.Fatalf("untilChange(%v) = %v, not in the future", d, step)
		}
		cur := formatDuration(d)
		if formatDuration(d+step) == cur {
			t.Errorf("at %v + %v the clock still reads %q: a tick that shows nothing new", d, step, cur)
		}
		for _, early := range []time.Duration{step - time.Nanosecond, step / 2} {
			if got := formatDuration(d + early); got != cur {
				t.Errorf("at %v + %v the clock already reads %q (was %q): the tick at %v comes late", d, early, got, cur, step)
			}
		}
		if d >= 0 && d < time.Minute && step > time.Second {
			t.Errorf("untilChange(%v) = %v: seconds are on screen, so at most 1 s", d, step)
		}
		if d >= time.Minute && step < time.Minute-d%time.Minute {
			t.Errorf("untilChange(%v) = %v: only minutes are on screen, so not before the next", d, step)
		}
	}
}

// TestClockTicksWhenShownTimeChanges: three hours into a room, with the
// seats quiet for hours, the screen shows minutes only, so the clock waits
// for the next minute a duration on screen turns; a seat that acts brings
// the tick forward to the next second, and the tick it replaced is dropped.
func TestClockTicksWhenShownTimeChanges(t *testing.T) {
	cwd, name := openMCPRoom(t)
	now := t0.Add(3 * time.Hour) // first message at t0; the lead's last call at t0+1m31s
	m := openModelAt(t, cwd, name, 100, 30, now)
	m.tick()
	// The earliest change: the lead's "2h58m ago" turns 2h59m in 31 s.
	if got := m.tickDue.Sub(m.now); got != 31*time.Second {
		t.Fatalf("next tick in %v, want 31s (the next minute of a seat's \"ago\")", got)
	}
	stale := m.tickGen

	m, cmd := m.Update(seatsMsg{id: m.id, sig: "new", seats: []room.SeatInfo{
		{Seat: room.SeatLead, Agent: "opus-5", State: room.StateActive, LastTool: "post", LastAt: now},
	}})
	if cmd == nil || m.tickGen == stale {
		t.Fatal("a seat that just acted did not bring the tick forward")
	}
	if got := m.tickDue.Sub(m.now); got != time.Second {
		t.Fatalf("next tick in %v after a seat acted, want 1s (\"0s ago\" turns)", got)
	}

	before := m.now
	m, cmd = m.Update(tickMsg{id: m.id, gen: stale, now: now.Add(40 * time.Second)})
	if cmd != nil || !m.now.Equal(before) {
		t.Error("the replaced tick still moved the clock or scheduled another")
	}
}

// TestClockMinutesInFirstHour: 42 minutes in, with the seats quiet, the
// times show minutes, and the next tick waits for the next minute one of
// them turns: an open room left alone repaints once a minute at most.
func TestClockMinutesInFirstHour(t *testing.T) {
	cwd, name := openMCPRoom(t)
	m := openModel(t, cwd, name, 100, 30)
	m.tick()
	if got := m.tickDue.Sub(m.now); got <= time.Second || got > time.Minute {
		t.Fatalf("next tick in %v, want after 1 s and within a minute", got)
	}
}
