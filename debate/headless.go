package debate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

// Output formats of the headless command.
const (
	FormatJSONL = "jsonl" // every event as a JSON line, as it happens
	FormatText  = "text"  // readable live text
	FormatMD    = "md"    // the finished transcript in Markdown
)

// HeadlessOptions are the headless command's settings.
type HeadlessOptions struct {
	// Settings is the debate; Start checks them.
	Settings Settings
	// Format is jsonl, md or text; empty: text.
	Format string
	// Interject, when set, gives the user's notes, one a line
	// (--interject-from): the debate pauses after each round and before
	// the verdict for the next line, a non-blank one being a note. Without
	// it, a debate set to pause between rounds goes on at once.
	Interject io.Reader
	// InterjectPrompt says on stderr, at each pause, that a line is
	// awaited (for a person typing on stdin).
	InterjectPrompt bool
	// Resume, when set, names a room (or its folder) whose debate ended
	// before its verdict: it is continued there (Resume) instead of a new
	// debate being started.
	Resume string
	// Width, when above 0, breaks the text format's lines at word
	// boundaries to that many cells: the terminal's width, when stdout is
	// one; and the md format's prose (transcript.ForTerminal: its code and
	// tables stay whole). The jsonl format is never wrapped.
	Width int
}

// checkFormat is the output format named by s.
func checkFormat(s string) (string, error) {
	format := strings.ToLower(strings.TrimSpace(s))
	switch format {
	case "":
		return FormatText, nil
	case FormatJSONL, FormatText, FormatMD:
		return format, nil
	}
	return "", fmt.Errorf("%w: --format %q; use jsonl, md or text", ErrBadConfig, s)
}

// RunHeadless runs a debate without a screen: it starts it (Start), saving
// it as a room under the settings' Cwd, writes its events to stdout in
// opts.Format, and notes the room on stderr. It returns nil when the
// debate is done and saved; an error wrapping context.Canceled when ctx
// was cancelled (after saving what was said), whose message is the one
// line to show; an error wrapping ErrOutputClosed when stdout could no
// longer be written (the debate is then stopped and its room closed as
// "output closed"); and the debate's error otherwise.
func RunHeadless(ctx context.Context, opts HeadlessOptions, stdout, stderr io.Writer) error {
	format, err := checkFormat(opts.Format)
	if err != nil {
		return err
	}
	s := opts.Settings
	if format == FormatMD {
		s.Provider.Pace = 0 // md prints only at the end, so pacing would only wait
	}
	var feed *noteFeed
	if opts.Interject != nil {
		s.Config.PauseBetweenRounds = true
		feed = newNoteFeed(opts.Interject)
	}
	sess, err := startOrResume(ctx, s, opts.Resume, stderr)
	if err != nil {
		return err
	}
	name := sess.Room().Config().Room
	rel := sess.Room().Dir()
	if wd, err := os.Getwd(); err == nil {
		if x, err := filepath.Rel(wd, rel); err == nil && !strings.HasPrefix(x, "..") {
			rel = x
		}
	}
	fmt.Fprintf(stderr, "roundtable: saving the debate in room %s (%s)\n", name, rel)

	ow := &outWriter{w: stdout}
	bw := bufio.NewWriterSize(ow, 32<<10)
	var ww *WrapWriter
	var dst io.Writer = bw
	if format == FormatText && opts.Width > 0 {
		ww = NewWrapWriter(bw, opts.Width)
		dst = ww
	}
	flush := func() {
		if ww != nil && ow.err == nil {
			_ = ww.Flush()
		}
		_ = bw.Flush()
	}
	out := newOutput(format, dst, stderr, opts.Width)
	seedResumed(out, sess, opts.Resume)
	var last Event
	for ev := range sess.Events() {
		last = ev
		if ow.err != nil {
			continue // stopped; the rest is only saved
		}
		out.event(ev)
		switch {
		case ev.IsTerminal():
			flush()
		case format != FormatMD && (ev.Type == EventToken || ev.Type == EventTurnStart || ev.Type == EventRanking):
			// Live formats show each token (and each ranking) as it comes;
			// wrapped text, each word once it is whole.
			_ = bw.Flush()
		}
		if ev.Type == EventPause {
			flush()
			feed.onPause(ctx, sess, ev, opts.InterjectPrompt, stderr)
		}
		if ow.err != nil {
			// Nobody reads any more (a reader like head exited): stop
			// rather than talk to no one, and say so in the room.
			sess.StopBecause(outputCause(ctx, ow.err))
		}
	}
	// The md transcript comes at the end of a debate that ended; one
	// stopped by ctrl+c is in its room, and says so in one line.
	stopped := last.Text == CancelledMessage
	if ow.err == nil && (format != FormatMD || !stopped) {
		out.end()
		flush()
	}

	switch {
	case ow.err != nil && ctx.Err() == nil:
		return &outputClosedError{fmt.Sprintf("the output was closed (%v), so the debate stopped; what was said is saved in room %s", ow.err, name)}
	case last.Type == EventDone:
		fmt.Fprintf(stderr, "roundtable: saved; read it again with: roundtable transcript --room %s\n", name)
		return nil
	case last.Text == CancelledMessage:
		return &StoppedError{Msg: fmt.Sprintf("stopped; what was said is saved in room %s (roundtable transcript --room %s)", name, name)}
	default:
		if err := sess.Err(); errors.Is(err, ErrSave) {
			return err
		}
		return fmt.Errorf("%s (what was said is saved in room %s)", last.Text, name)
	}
}

// outputClosedError is a debate stopped because its output was closed:
// errors.Is(err, ErrOutputClosed) holds.
type outputClosedError struct{ msg string }

func (e *outputClosedError) Error() string { return e.msg }
func (e *outputClosedError) Unwrap() error { return ErrOutputClosed }

// hangupGrace is how long a debate whose terminal failed (EIO) waits for
// the hang-up signal the kernel sends with it, so closed.json names the
// hang-up rather than the failed write that raced it.
const hangupGrace = 2 * time.Second

// outputCause is why a debate whose output failed with err stops: the
// signal that stopped ctx when the output was a terminal that went away
// (EIO comes with SIGHUP, in either order), else ErrOutputClosed.
func outputCause(ctx context.Context, err error) error {
	if !errors.Is(err, syscall.EIO) {
		return ErrOutputClosed
	}
	t := time.NewTimer(hangupGrace)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return ErrOutputClosed
	}
}

// outWriter keeps the first error writing w; it writes nothing after one.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

// output writes events in one format.
type output interface {
	event(ev Event)
	end()
}

// newOutput writes events to w in format; the readable formats note
// retries on stderr, keeping them out of the debate's text.
func newOutput(format string, w, stderr io.Writer, width int) output {
	switch format {
	case FormatJSONL:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return &jsonlOutput{enc: enc}
	case FormatMD:
		return &mdOutput{w: w, stderr: stderr, width: width}
	}
	return &textOutput{w: w, stderr: stderr}
}

// noteRetry writes a retry event as one line on stderr.
func noteRetry(stderr io.Writer, ev Event) {
	wait := ev.Wait.Round(100 * time.Millisecond)
	if ev.Wait < time.Second {
		wait = ev.Wait.Round(time.Millisecond)
	}
	fmt.Fprintf(stderr, "roundtable: %s: %s (in %s)\n", ev.Agent, ev.RetryLabel(), wait)
}

// noteActivity writes an activity event as one line on stderr, keeping it
// out of the debate's text: "roundtable: Claude: ⚙ reading room/store.go".
func noteActivity(stderr io.Writer, ev Event) {
	fmt.Fprintf(stderr, "roundtable: %s: %s\n", ev.Agent, ActivityLine(ev.Kind, ev.Text))
}

// ActivityLine is an activity as screens show it: "⚙ reading
// room/store.go", "✗ refused: edit main.go", "✗ failed: touch x".
func ActivityLine(kind, text string) string {
	switch kind {
	case ActivityRefused, ActivityFailed:
		return "✗ " + text
	case ActivityPlan:
		return "☰ " + text
	case ActivityNote:
		return "· " + text
	}
	return "⚙ " + text
}

type jsonlOutput struct{ enc *json.Encoder }

func (o *jsonlOutput) event(ev Event) { _ = o.enc.Encode(ev) }
func (o *jsonlOutput) end()           {}

type mdOutput struct {
	w, stderr io.Writer
	t         Transcript
	resumed   *room.Room // a resumed debate's room: its turns make the transcript
	width     int        // a terminal's: the prose breaks at words (HeadlessOptions.Width)
}

func (o *mdOutput) event(ev Event) {
	if ev.Type == EventRetry {
		noteRetry(o.stderr, ev)
	}
	o.t.Add(ev)
}

func (o *mdOutput) end() {
	if turns, rankings, ok := resumedFrom(o.resumed, o.t.Agents); ok {
		o.t.Turns, o.t.Rankings = turns, rankings
	}
	var b strings.Builder
	_ = o.t.WriteMarkdown(&b)
	_, _ = io.WriteString(o.w, transcript.ForTerminal(b.String(), o.width)) // as written when width is 0
}

// textOutput writes a debate as readable live text.
type textOutput struct {
	w, stderr io.Writer
	rounds    int
	inTurn    bool // between a turn_start and its turn_end
	verdict   bool // the verdict's heading is written: it streams
	agents    []string
	rankings  []Ranking // the peer rankings so far, whose table comes before the verdict
	rankHead  bool      // the rankings' heading is written
	ranked    bool      // the rankings' table is written
}

func (o *textOutput) event(ev Event) {
	w := o.w
	switch ev.Type {
	case EventSessionStart:
		o.rounds, o.agents = ev.Rounds, ev.Agents
		fmt.Fprintf(w, "Debate: %s\nPanel:  %s (%d %s", oneLine(ev.Topic), prompts.AndList(ev.Agents), ev.Rounds, plural(ev.Rounds, "round", "rounds"))
		if p := ProviderLabel(ev.Provider, ev.Model); p != "" {
			fmt.Fprintf(w, ", %s", p)
		}
		fmt.Fprint(w, ")\n")
	case EventRoundStart:
		fmt.Fprintf(w, "\n━━━ Round %d of %d ━━━\n", ev.Round, o.rounds)
	case EventTurnStart:
		o.inTurn = true
		fmt.Fprintf(w, "\n▌ %s", ev.Agent)
		if ev.Model != "" {
			fmt.Fprintf(w, " · %s", ev.Model)
		}
		fmt.Fprint(w, "\n\n")
	case EventToken:
		if !o.inTurn && !o.verdict {
			// Outside a turn: the verdict, streaming.
			o.verdict = true
			o.rankTable()
			fmt.Fprint(w, "\n━━━ Moderator's verdict ━━━\n\n")
		}
		fmt.Fprint(w, ev.Text)
	case EventRetry:
		noteRetry(o.stderr, ev)
	case EventActivity:
		noteActivity(o.stderr, ev)
	case EventTurnEnd:
		o.inTurn = false
		if ev.Incomplete {
			fmt.Fprint(w, " [incomplete]")
		}
		fmt.Fprint(w, "\n")
	case EventNote:
		writeNoteText(w, ev)
	case EventPause:
	case EventRoundEnd:
		if ev.Consensus != nil && *ev.Consensus && ev.Round < o.rounds {
			fmt.Fprintf(w, "\nThe moderator finds consensus after round %d; going to the verdict.\n", ev.Round)
		}
	case EventBudget:
		fmt.Fprintf(w, "\nThe debate stops here: %s. The moderator gives a verdict on what was said.\n", oneLine(ev.Text))
	case EventRanking:
		if !o.rankHead {
			o.rankHead = true
			fmt.Fprint(w, "\n━━━ Peer ranking ━━━\n\n")
		}
		// A resumed debate's rankings were read from its room once the run
		// had started (seedResumed): one given since is there already.
		rk := Ranking{Agent: ev.Agent, Round: ev.Round, Order: ev.Ranking}
		if i := slices.IndexFunc(o.rankings, func(x Ranking) bool { return x.Agent == rk.Agent && x.Round == rk.Round }); i >= 0 {
			o.rankings[i] = rk
		} else {
			o.rankings = append(o.rankings, rk)
		}
		if len(ev.Ranking) == 0 {
			fmt.Fprintf(w, "%s gave no ranking that could be read.\n", oneLine(ev.Agent))
			break
		}
		fmt.Fprintf(w, "%s ranks: %s\n", oneLine(ev.Agent), oneLine(strings.Join(ev.Ranking, " > ")))
	case EventSummary:
		if o.verdict {
			fmt.Fprint(w, "\n") // it streamed
			break
		}
		o.rankTable()
		fmt.Fprintf(w, "\n━━━ Moderator's verdict ━━━\n\n%s\n", strings.TrimSpace(ev.Text))
	case EventDone:
		if ev.Usage != nil {
			fmt.Fprintf(w, "\n%s\n", usageLine(*ev.Usage))
		}
	case EventError:
		// A stop by the user is said once, on stderr, by the caller.
		if ev.Text != CancelledMessage {
			fmt.Fprintf(w, "\nThe debate stopped: %s\n", oneLine(ev.Text))
		}
	}
}

func (o *textOutput) end() {}

// rankTable writes the table of the peer rankings, once, before the
// verdict: each persona's mean position, best first.
func (o *textOutput) rankTable() {
	if o.ranked || len(o.rankings) == 0 {
		return
	}
	o.ranked = true
	fmt.Fprintf(o.w, "\n%s\n", RankTableHeader)
	for _, line := range RankTable(o.rankings, o.agents) {
		fmt.Fprintf(o.w, "  %s\n", line)
	}
}

// RankTableHeader heads the table of a debate's peer rankings.
const RankTableHeader = "Peer ranking (mean position, lower is better)"

// RankTable is the table of rankings, one line per persona of names,
// best first: "1. Security Lead   1.5  2 rankers"; a persona nobody
// ranked shows "–" and comes last.
func RankTable(rankings []Ranking, names []string) []string {
	ss := AggregateRankings(rankings, names)
	w := 0
	for _, s := range ss {
		w = max(w, utf8.RuneCountInString(oneLine(s.Name)))
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		name := oneLine(s.Name)
		pad := strings.Repeat(" ", w-utf8.RuneCountInString(name))
		if s.Rankers == 0 {
			out[i] = fmt.Sprintf("%d. %s%s     –  not ranked", i+1, name, pad)
			continue
		}
		out[i] = fmt.Sprintf("%d. %s%s  %4.1f  %d %s", i+1, name, pad, s.Mean, s.Rankers, plural(s.Rankers, "ranker", "rankers"))
	}
	return out
}

func usageLine(u Usage) string {
	s := fmt.Sprintf("Tokens: %d prompt, %d completion", u.PromptTokens, u.CompletionTokens)
	if u.Cost > 0 {
		s += ", cost " + FormatDollars(u.Cost)
	}
	return s + "."
}
