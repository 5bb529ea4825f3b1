package debate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func mockSettings(cwd string) Settings {
	return Settings{
		Config: Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 1, Seed: 1},
		Cwd:    cwd, Getenv: envOf(nil),
	}
}

// closedState waits for the session's stream to end and returns its
// room's state.
func closedState(t *testing.T, s *Session, evs []Event) (room.State, Event) {
	t.Helper()
	st, err := s.Room().State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil {
		t.Fatal("the room is still open after the stream ended")
	}
	return st, evs[len(evs)-1]
}

func TestStartRunsAndRecords(t *testing.T) {
	s, err := Start(context.Background(), mockSettings(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, s.Events())
	checkInvariants(t, evs, s.Config())
	st, last := closedState(t, s, evs)
	if last.Type != EventDone || st.Closed.Reason != ReasonComplete || len(st.Messages) != 4 {
		t.Fatalf("last %+v, closed %+v, %d messages", last, st.Closed, len(st.Messages))
	}
	if s.Provider().Name != ProviderMock || s.Config().MaxTurnTokens != TurnTokenCap(DefaultMaxTokens) {
		t.Errorf("provider %+v, max turn tokens %d", s.Provider(), s.Config().MaxTurnTokens)
	}
}

// TestStartRefusesBeforeCreating: settings that cannot run and a server
// that is not there are errors of Start, with nothing created.
func TestStartRefusesBeforeCreating(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Settings)
		is   error
	}{
		{"no topic", func(s *Settings) { s.Config.Topic = " " }, ErrBadConfig},
		{"no persona", func(s *Settings) { s.Config.Personas = nil }, ErrBadPersona},
		{"a base URL without its port", func(s *Settings) {
			s.Provider = ProviderConfig{Name: ProviderOllama, BaseURL: "http://127.0.0.1:/v1"}
		}, ErrBadProvider},
		{"a server not running", func(s *Settings) {
			s.Provider = ProviderConfig{Name: ProviderOllama, BaseURL: "http://127.0.0.1:" + closedPort(t) + "/v1"}
		}, ErrUnreachable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := t.TempDir()
			s := mockSettings(cwd)
			tt.edit(&s)
			sess, err := Start(context.Background(), s)
			if !errors.Is(err, tt.is) || sess != nil {
				t.Fatalf("Start = %v, %v; want %v", sess, err, tt.is)
			}
			if tt.is == ErrBadConfig {
				var te *TopicError
				if !errors.As(err, &te) || !te.Empty {
					t.Errorf("a missing topic is not a TopicError: %v", err)
				}
			}
			if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused start created %s", room.Folder)
			}
		})
	}
}

// TestSessionStops: Stop ends the debate as cancelled, StopBecause with
// ErrOutputClosed as "output closed", each keeping what was said; Close
// returns once the room is saved, read or not.
func TestSessionStops(t *testing.T) {
	for _, tt := range []struct {
		name   string
		stop   func(*Session)
		reason string
	}{
		{"stop", (*Session).Stop, ReasonCancelled},
		{"output closed", func(s *Session) { s.StopBecause(ErrOutputClosed) }, ReasonOutputClosed},
		{"close", (*Session).Close, ReasonCancelled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set := mockSettings(t.TempDir())
			set.Provider.Pace = 1 << 20 // about a millisecond a token
			s, err := Start(context.Background(), set)
			if err != nil {
				t.Fatal(err)
			}
			var evs []Event
			for ev := range s.Events() {
				evs = append(evs, ev)
				if ev.Type == EventToken && tokens(evs) == 1 {
					tt.stop(s)
					if tt.name == "close" {
						break // Close drained the rest
					}
				}
			}
			st, err := s.Room().State()
			if err != nil {
				t.Fatal(err)
			}
			if st.Closed == nil || st.Closed.Reason != tt.reason || len(st.Messages) != 1 || st.Messages[0].Kind != KindIncomplete {
				t.Fatalf("closed %+v, messages %+v", st.Closed, st.Messages)
			}
			if tt.name != "close" {
				if last := evs[len(evs)-1]; last.Type != EventError || last.Text != CancelledMessage {
					t.Fatalf("last event %+v", last)
				}
			}
		})
	}
}

// TestPlanStartsFresh: one plan started twice runs two debates, each in a
// room of its own.
func TestPlanStartsFresh(t *testing.T) {
	p, err := Prepare(mockSettings(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	a, err := p.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	collect(t, a.Events())
	b, err := p.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, b.Events())
	if evs[len(evs)-1].Type != EventDone || a.Room().Dir() == b.Room().Dir() {
		t.Fatalf("second run ended %+v in %s (first %s)", evs[len(evs)-1], b.Room().Dir(), a.Room().Dir())
	}
}

// tokens counts the token events in evs.
func tokens(evs []Event) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == EventToken {
			n++
		}
	}
	return n
}
