package debate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// Position is where a resumed debate picks up, rebuilt from its room by
// PositionOf: the round and the persona who speaks next, what was said
// before as the personas see it, and what it cost so far.
type Position struct {
	// Round is the round to continue, from 1; Rounds+1 when every round
	// was held and only the verdict is left.
	Round int
	// Turn is the persona (by speaking order) who speaks first in Round;
	// those before it spoke already.
	Turn int
	// Transcript is every finished turn and note so far, in order. Turns
	// cut short (KindIncomplete) stay in the room but are left out: the
	// turn is spoken again.
	Transcript []Turn
	// Usage is the debate's total so far, the cut turns' usage included.
	Usage Usage
	// Notes counts the notes merged into Transcript.
	Notes int
	// Paused: the debate was paused after round Round-1 (its room's
	// paused.json) when it stopped: with PauseBetweenRounds it pauses
	// there again before going on.
	Paused bool
	// Rankings are the peer rankings (Config.Rank) given before the
	// debate stopped, in the room's order. When there are any, the rounds
	// are over, whatever Round says (a debate stopped early on consensus
	// has rounds left): the personas still to rank do, then the verdict.
	Rankings []Ranking
	// Consensus is the round after which the moderator found the panel
	// agreed (its room's consensus.json; Resume sets it), 0 for none:
	// the rounds are over, whatever Round says, and the rankings (if
	// any) and the verdict come next.
	Consensus int
}

// ErrNotResumable marks a room whose debate cannot be resumed: not a
// debate, still open, complete, or its turns not in its panel's order.
var ErrNotResumable = errors.New("cannot resume the debate")

// resumeAt sets a run to pick up at from (nil: the start).
func (r *run) resumeAt(from *Position) {
	if from == nil {
		return
	}
	r.from = *from
	r.transcript = append([]Turn(nil), from.Transcript...)
	r.total = from.Usage
	r.held = min(max(from.Round-1, 0), r.cfg.Rounds)
	if from.Consensus > 0 {
		r.held = min(from.Consensus, r.cfg.Rounds)
	}
	r.rankings = slices.Clone(from.Rankings)
}

// skip reports whether persona i of round spoke before the debate was
// resumed.
func (r *run) skip(round, i int) bool { return round == r.from.Round && i < r.from.Turn }

// noteTurn is a note of the room as the personas' transcript shows it:
// the user's words (NoteTurn), between the turns they came after. A host's
// note in a debate room is shown the same way.
func noteTurn(n room.Note) Turn { return NoteTurn(n.Round, n.Text) }

// PositionOf rebuilds where cfg's debate stands from its room's state:
// the finished turns in speaking order (each persona once per round),
// cut turns left out, notes merged after the message they followed, and
// the usage of every message summed. It refuses (ErrNotResumable) a room
// whose turns are not cfg's panel in order, or that holds a verdict.
func PositionOf(cfg Config, st room.State) (Position, error) {
	var pos Position
	if len(cfg.Personas) == 0 {
		return pos, fmt.Errorf("%w: the debate has no personas", ErrNotResumable)
	}
	notes := st.Notes
	flushNotes := func(upTo int) {
		for len(notes) > 0 && notes[0].AfterSeq < upTo {
			pos.Transcript = append(pos.Transcript, noteTurn(notes[0]))
			pos.Notes++
			notes = notes[1:]
		}
	}
	done := 0 // finished turns
	for _, m := range st.Messages {
		flushNotes(m.Seq)
		pos.Usage.Add(UsageOf(m))
		switch {
		case m.Seat == room.SeatModerator || m.Kind == room.KindSummary:
			return pos, fmt.Errorf("%w: the room already holds the moderator's verdict (message %d)", ErrNotResumable, m.Seq)
		case m.Kind == KindIncomplete:
			continue
		case m.Kind == room.KindRanking:
			if done%len(cfg.Personas) != 0 || done == 0 {
				return pos, fmt.Errorf("%w: message %d is %s's peer ranking in the middle of round %d", ErrNotResumable, m.Seq, m.Seat, done/len(cfg.Personas)+1)
			}
			pos.Rankings = append(pos.Rankings, rankingOf(m, cfg.Names()))
			continue
		case len(pos.Rankings) > 0:
			return pos, fmt.Errorf("%w: message %d is %s's turn after the peer rankings began", ErrNotResumable, m.Seq, m.Seat)
		}
		round, want := done/len(cfg.Personas)+1, cfg.Personas[done%len(cfg.Personas)].Name
		if m.Seat != want || m.Round != round {
			return pos, fmt.Errorf("%w: message %d is %s's turn in round %d, where the panel's order has %s's turn in round %d next",
				ErrNotResumable, m.Seq, m.Seat, m.Round, want, round)
		}
		pos.Transcript = append(pos.Transcript, Turn{Round: m.Round, Agent: m.Seat, Model: m.Agent, Text: m.Text})
		done++
	}
	flushNotes(int(^uint(0) >> 1))
	pos.Round, pos.Turn = done/len(cfg.Personas)+1, done%len(cfg.Personas)
	if pos.Round > cfg.Rounds {
		pos.Round, pos.Turn = cfg.Rounds+1, 0
	}
	pos.Paused = st.Paused != nil && pos.Turn == 0 && st.Paused.Round == pos.Round-1 && len(pos.Rankings) == 0
	return pos, nil
}

// openRoomRef opens the room ref names: a room folder (a path with a
// separator, or one holding room.json), else a room name under cwd.
func openRoomRef(cwd, ref string) (*room.Room, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, fmt.Errorf("%w: --resume needs a room name or folder", ErrBadConfig)
	}
	if strings.ContainsRune(ref, filepath.Separator) || strings.ContainsRune(ref, '/') {
		abs, err := filepath.Abs(ref)
		if err != nil {
			return nil, fmt.Errorf("%w: --resume %s: %w", ErrBadConfig, ref, err)
		}
		name, top := filepath.Base(abs), filepath.Dir(abs)
		if filepath.Base(top) != room.Folder {
			return nil, fmt.Errorf("%w: --resume %s is not a room folder (rooms live in %s/<name>); give the room's name and --cwd", ErrBadConfig, ref, room.Folder)
		}
		cwd = filepath.Dir(top)
		ref = name
	}
	if cwd == "" {
		cwd = "."
	}
	r, err := room.Open(cwd, ref)
	if err != nil {
		if errors.Is(err, room.ErrNoRoom) {
			where := cwd
			if abs, aerr := filepath.Abs(cwd); aerr == nil {
				where = abs
			}
			return nil, fmt.Errorf("%w: there is no room %q under %s; roundtable rooms lists the rooms there, or pass --cwd", ErrBadConfig, ref, where)
		}
		return nil, fmt.Errorf("%w: --resume %s: %w", ErrBadConfig, ref, err)
	}
	return r, nil
}

// Resume continues, in its own room, a persona debate that ended before
// its verdict (a turn failed: a connection cut, an HTTP 500 after the
// retries, an agent that crashed; or it was stopped). ref is the room's
// name under s.Cwd, or its folder. The debate is the room's (topic,
// panel, moderator, rounds); the rest comes from s: the provider, the
// options, the budgets and prices.
//
// It rebuilds the transcript, the notes, the usage and where the debate
// stands from the room (PositionOf), checks the provider like Start, then
// reopens the room (its closed.json is moved aside to closed-<n>.json,
// kept) and runs the rest from the turn that failed. The cut turn stays in
// the room, marked incomplete, but no persona sees it; every turn said
// before stands and is not said again.
//
// Errors: those of Prepare and Preflight, and ErrNotResumable (with
// ErrBadConfig, so a command line exits 2) for a room that cannot be.
func Resume(ctx context.Context, s Settings, ref string) (*Session, error) {
	r, err := openRoomRef(s.Cwd, ref)
	if err != nil {
		return nil, err
	}
	name := r.Config().Room
	cfg, ok := ConfigFromRoom(r.Config())
	if !ok {
		return nil, fmt.Errorf("%w: %w: room %s is not a persona debate that records its panel", ErrBadConfig, ErrNotResumable, name)
	}
	// The run lock is taken before anything is decided, so two resumes of
	// one room cannot both go on; it is let go on every way out but the
	// debate running.
	prev := room.RunHolder(r.Dir())
	lock, err := r.LockRun()
	if err != nil {
		if errors.Is(err, room.ErrRunning) {
			return nil, fmt.Errorf("%w: %w: %w", ErrBadConfig, ErrNotResumable, err)
		}
		return nil, err
	}
	sess, err := resumeLocked(ctx, s, r, cfg, lock, prev)
	if err != nil {
		_ = lock.Unlock()
	}
	return sess, err
}

// resumeLocked is Resume once the room's run lock is held: a debate left
// open by a process that died (killed, or its machine went down) is closed
// first, saying so, then resumed like any other.
func resumeLocked(ctx context.Context, s Settings, r *room.Room, cfg Config, lock *room.SeatLock, prev room.Holder) (*Session, error) {
	name := r.Config().Room
	if err := closeAbandoned(r, prev); err != nil {
		return nil, err
	}
	st, err := r.Refresh()
	if err != nil {
		return nil, err
	}
	switch {
	case st.Closed == nil:
		return nil, fmt.Errorf("%w: %w: room %s is still open, so its debate may be running; stop it first (esc in its screen)", ErrBadConfig, ErrNotResumable, name)
	case IsComplete(st.Closed.Reason):
		return nil, fmt.Errorf("%w: %w: the debate in room %s is complete; run it again in a new room instead", ErrBadConfig, ErrNotResumable, name)
	}
	s.Config.Topic, s.Config.Personas, s.Config.Moderator, s.Config.Rounds = cfg.Topic, cfg.Personas, cfg.Moderator, cfg.Rounds
	// A debate that paused between rounds pauses again, however it is
	// resumed (a headless run without notes goes on at once, as it does).
	s.Config.PauseBetweenRounds = s.Config.PauseBetweenRounds || cfg.PauseBetweenRounds
	// A ranked debate still ranks: its rankings not given yet are asked.
	s.Config.Rank = s.Config.Rank || cfg.Rank
	s.Cwd, s.Room = r.Cwd(), ""
	p, err := Prepare(s)
	if err != nil {
		return nil, err
	}
	pos, err := PositionOf(p.cfg, st)
	if err != nil {
		return nil, fmt.Errorf("%w: room %s: %w", ErrBadConfig, name, err)
	}
	if k := r.ConsensusRound(); k > 0 && k < p.cfg.Rounds && pos.Turn == 0 && pos.Round == k+1 {
		pos.Consensus = k // stopped after the panel agreed: on to the verdict
	}
	if spent := BudgetReached(p.cfg, pos.Usage); spent != "" {
		return nil, fmt.Errorf("%w: %w: in room %s %s already; resume with a larger budget", ErrBadConfig, ErrNotResumable, name, spent)
	}
	return p.launch(ctx, &pos, func(Config) (*room.Room, *room.SeatLock, error) {
		if err := reopen(r); err != nil {
			return nil, nil, err
		}
		return r, lock, nil
	})
}

// ReasonAbandoned is the failure a debate room is closed with when the
// process running its debate ended without closing it (killed, or its
// machine went down): closed.json's reason is ReasonFailed followed by it.
const ReasonAbandoned = "its process ended without closing the room"

// Abandoned reports whether the debate room r is open with nobody running
// its debate: its run lock (room.LockRun) is free, the process named in it
// gone. A room from before run locks, open and without one, counts as
// abandoned too. It reads two small files.
func Abandoned(r *room.Room) bool {
	if !r.Config().IsDebate() {
		return false
	}
	if _, err := os.Lstat(filepath.Join(r.Dir(), "closed.json")); err == nil {
		return false
	}
	return !room.RunHolder(r.Dir()).Live
}

// CloseAbandoned closes a debate room that Abandoned reports, so it reads
// as the failed debate it is (resumable with --resume, or R in the
// screen); it does nothing to any other room. It takes the run lock while
// it looks, so a debate starting in the room meanwhile is never closed.
func CloseAbandoned(r *room.Room) error {
	prev := room.RunHolder(r.Dir())
	lock, err := r.LockRun()
	if errors.Is(err, room.ErrRunning) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = lock.Unlock() }()
	return closeAbandoned(r, prev)
}

// closeAbandoned is CloseAbandoned with the run lock held by the caller;
// prev is who the lock named before the caller took it.
func closeAbandoned(r *room.Room, prev room.Holder) error {
	if !r.Config().IsDebate() {
		return nil
	}
	st, err := r.Refresh()
	if err != nil || st.Closed != nil {
		return err
	}
	detail := "nobody ran the debate any more: no run lock (a room from before roundtable kept one)"
	if prev.PID > 0 && prev.PID != os.Getpid() {
		detail = fmt.Sprintf("process %d, which ran the debate, ended without closing the room; a turn it was speaking was not saved", prev.PID)
	} else if prev.Known {
		detail = "the process that ran the debate ended without closing the room"
	}
	_, err = r.Close(room.CloseOptions{Reason: ReasonFailed + ReasonAbandoned, Detail: detail})
	if errors.Is(err, room.ErrClosed) {
		return nil
	}
	return err
}

// reopen moves a closed room's closed.json aside, to the first free
// closed-<n>.json, so the room is open again and the earlier ending is
// kept. Another process reopening it first is an error.
func reopen(r *room.Room) error {
	// A pause it stopped in is taken up by the run (Position.Paused),
	// which writes it again: readers see the pause the run is in.
	if err := r.ClearPaused(); err != nil {
		return err
	}
	closed := filepath.Join(r.Dir(), "closed.json")
	for n := 1; n < 10000; n++ {
		aside := filepath.Join(r.Dir(), fmt.Sprintf("closed-%d.json", n))
		err := os.Link(closed, aside)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: room %s was reopened by another process meanwhile", ErrNotResumable, r.Config().Room)
		}
		if err != nil {
			return fmt.Errorf("reopen room %s: keep %s: %w", r.Config().Room, aside, err)
		}
		if err := os.Remove(closed); err != nil {
			_ = os.Remove(aside)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%w: room %s was reopened by another process meanwhile", ErrNotResumable, r.Config().Room)
			}
			return fmt.Errorf("reopen room %s: remove closed.json: %w", r.Config().Room, err)
		}
		return nil
	}
	return fmt.Errorf("reopen room %s: closed-1.json to closed-9999.json are all taken; remove some", r.Config().Room)
}

// startOrResume is the headless command's start: Start, or Resume of the
// room ref names, saying so on stderr.
func startOrResume(ctx context.Context, s Settings, ref string, stderr io.Writer) (*Session, error) {
	if strings.TrimSpace(ref) == "" {
		return Start(ctx, s)
	}
	sess, err := Resume(ctx, s, ref)
	if err == nil {
		fmt.Fprintf(stderr, "roundtable: resuming the debate in room %s from the turn that did not finish\n", sess.Room().Config().Room)
	}
	return sess, err
}

// seedResumed has the md output of a resumed debate (ref set) print the
// whole debate at its end, read from its room, not only the turns said
// since the resume; the text output's table of the peer ranking counts
// the rankings given before the resume too.
func seedResumed(out output, sess *Session, ref string) {
	if strings.TrimSpace(ref) == "" {
		return
	}
	switch o := out.(type) {
	case *mdOutput:
		o.resumed = sess.Room()
	case *textOutput:
		_, o.rankings, _ = resumedFrom(sess.Room(), sess.Config().Names())
	}
}

// resumedFrom reads r once: every turn saved in it (the cut ones with
// their note) and every peer ranking, kept to names, the personas. ok is
// false when r is nil or cannot be read.
func resumedFrom(r *room.Room, names []string) (turns []Turn, rankings []Ranking, ok bool) {
	if r == nil {
		return nil, nil, false
	}
	st, err := r.Refresh()
	if err != nil {
		return nil, nil, false
	}
	for _, m := range st.Messages {
		switch {
		case m.Kind == room.KindRanking:
			rankings = append(rankings, rankingOf(m, names))
		case m.Seat != room.SeatModerator:
			// A cut turn's text ends with the note saying so.
			turns = append(turns, Turn{Round: m.Round, Agent: m.Seat, Model: m.Agent, Text: m.Text})
		}
	}
	return turns, rankings, true
}
