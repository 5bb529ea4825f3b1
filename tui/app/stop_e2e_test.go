//go:build unix

package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// startLive starts a three-round mock debate in the app, in tmux, and
// waits until the second persona is speaking: one turn saved, one under
// way.
func startLive(t *testing.T, cwd, topic string) *tmuxtest.Session {
	t.Helper()
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: cwd, Env: e2eEnv(t)},
		bin, "tui", "--topic", topic, "--rounds", "3", "--room", "live")
	waitWords(s, "Software Architect")
	waitDraft(t, cwd, "Software Architect")
	return s
}

// waitDraft waits until persona's draft in the room "live" under cwd has
// words: the engine has them too, so a stop now cuts a turn with text
// (the screen's count of tokens can also grow from the turn before).
func waitDraft(t *testing.T, cwd, persona string) {
	t.Helper()
	var r *room.Room
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if r == nil {
			if r, _ = room.Open(cwd, "live"); r == nil {
				continue // the debate has not made its room yet
			}
		}
		ds, _ := r.Drafts()
		for _, d := range ds {
			if d.Seat == persona && len(strings.Fields(d.Text)) >= 3 {
				return
			}
		}
	}
	t.Fatalf("%s's draft never had words", persona)
}

// waitWords waits until persona is speaking and has said a few words (the
// header's count of tokens out grows), so a stop cuts a turn with text.
// It waits for two growths in a row: the count can also jump once when the
// turn before reports its usage just after this one starts, which is not
// this persona's words.
func waitWords(s *tmuxtest.Session, persona string) {
	screen := s.WaitFor(persona+" is speaking", 30*time.Second)
	base := outTokens(screen)
	for range 2 {
		screen = s.WaitUntil("the "+persona+"'s first words", func(sc string) bool {
			return strings.Contains(sc, persona+" is speaking") && outTokens(sc) > base+3
		}, 30*time.Second)
		base = outTokens(screen)
	}
}

var outRe = regexp.MustCompile(`(\d+) out\)`)

// outTokens is the header's count of tokens out; -1 when not shown.
func outTokens(screen string) int {
	m := outRe.FindStringSubmatch(screen)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// roomWhenClosed waits until the room "live" under cwd has its closed.json
// (the process saves it on the way out) and returns its state.
func roomWhenClosed(t *testing.T, cwd string) room.State {
	t.Helper()
	r, err := room.Open(cwd, "live")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := r.State()
		if err != nil {
			t.Fatal(err)
		}
		if st.Closed != nil {
			// closed.json is written after the cut turn: wait for the run
			// lock to be let go too, so nothing is still being saved.
			if !room.RunHolder(r.Dir()).Live {
				return st
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("room live is still open, or its run still holds it: closed %+v, holder %+v", st.Closed, room.RunHolder(r.Dir()))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkStopped checks a room stopped mid-turn: closed as cancelled with
// detail (empty: none expected), the turn under way saved as incomplete.
func checkStopped(t *testing.T, st room.State, detail string) {
	t.Helper()
	if st.Closed.Reason != debate.ReasonCancelled || !strings.Contains(st.Closed.Detail, detail) || (detail == "" && st.Closed.Detail != "") {
		t.Errorf("closed.json: %+v, want reason %q and detail %q", st.Closed, debate.ReasonCancelled, detail)
	}
	cut := false
	for _, m := range st.Messages {
		cut = cut || m.Kind == debate.KindIncomplete
	}
	if len(st.Messages) < 2 || !cut {
		var got []string
		for _, m := range st.Messages {
			got = append(got, fmt.Sprintf("%s round %d %s (%d bytes)", m.Seat, m.Round, m.Kind, len(m.Text)))
		}
		t.Errorf("the turn under way was not saved as incomplete: %d messages %v, closed %+v", len(st.Messages), got, st.Closed)
	}
}

// resumeHeadless resumes the room "live" with the headless command and
// checks that it runs to its verdict.
func resumeHeadless(t *testing.T, cwd string) {
	t.Helper()
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cmd := exec.Command(bin, "debate", "--resume", "live", "--fast", "--format", "jsonl")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), e2eEnv(t)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("debate --resume live: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"event":"done"`) {
		t.Errorf("the resumed debate did not end with its verdict:\n%s", out)
	}
}

// TestE2EEscClosesTheHelpOnly: ? then esc closes the help and nothing
// else; the debate goes on.
func TestE2EEscClosesTheHelpOnly(t *testing.T) {
	s := startLive(t, t.TempDir(), "Esc on the help")
	s.SendKeys("?")
	s.WaitFor("scroll up", 10*time.Second) // the full help
	s.SendKeys("Escape")
	screen := s.WaitUntil("the help closed", func(sc string) bool { return !strings.Contains(sc, "scroll up") }, 10*time.Second)
	if strings.Contains(screen, "stopped") || strings.Contains(screen, "Stop the debate?") {
		t.Errorf("esc on the help did more than close it:\n%s", screen)
	}
	s.WaitFor("Security Reviewer is speaking", 30*time.Second)
	s.SendKeys("C-c")
	if code := s.ExitStatus(15 * time.Second); code != 130 {
		t.Errorf("ctrl+c on a live debate: exit status %d, want 130", code)
	}
}

// TestE2EStopAsksThenResumes: esc asks once; n leaves the debate running;
// esc, y stops it (the cut turn saved); R resumes it in the screen, in the
// same room, to its verdict.
func TestE2EStopAsksThenResumes(t *testing.T) {
	cwd := t.TempDir()
	s := startLive(t, cwd, "Stop and resume")
	s.SendKeys("Escape")
	s.WaitFor("Stop the debate? y/n", 10*time.Second)
	s.SendKeys("n")
	s.WaitUntil("the question gone", func(sc string) bool { return !strings.Contains(sc, "Stop the debate?") }, 10*time.Second)
	waitWords(s, "Security Reviewer")
	waitDraft(t, cwd, "Security Reviewer")
	s.SendKeys("Escape")
	s.WaitFor("Stop the debate? y/n", 10*time.Second)
	s.SendKeys("y")
	s.WaitFor("R resumes it", 15*time.Second)
	checkStopped(t, roomWhenClosed(t, cwd), "")
	s.SendKeys("R")
	s.WaitFor("Resumed: the debate goes on in room live", 15*time.Second)
	s.WaitFor("✓ verdict in", 60*time.Second)
	r, err := room.Open(cwd, "live")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	if st.Closed == nil || st.Closed.Reason != debate.ReasonComplete {
		t.Errorf("the resumed room ended %+v, want complete", st.Closed)
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), "closed-1.json")); err != nil {
		t.Errorf("the stop was not kept as closed-1.json: %v", err)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("q after the verdict: exit status %d", code)
	}
}

// TestE2ESignalsStopTheApp: SIGTERM and SIGHUP to the app stop a live
// debate as esc does (the cut turn saved, closed.json naming the signal)
// and exit 130.
func TestE2ESignalsStopTheApp(t *testing.T) {
	for _, tc := range []struct {
		sig    syscall.Signal
		detail string
	}{{syscall.SIGTERM, "terminated (SIGTERM)"}, {syscall.SIGHUP, "hung up (SIGHUP)"}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			cwd := t.TempDir()
			s := startLive(t, cwd, "Signaled")
			if err := syscall.Kill(s.PID(), tc.sig); err != nil {
				t.Fatal(err)
			}
			if code := s.ExitStatus(20 * time.Second); code != 130 {
				t.Errorf("exit status %d, want 130", code)
			}
			checkStopped(t, roomWhenClosed(t, cwd), tc.detail)
		})
	}
}

// TestE2EPaneClosedSavesTheDebate: the app's terminal goes (its tmux pane
// killed): the debate is saved as stopped by the hang-up, and resumes.
func TestE2EPaneClosedSavesTheDebate(t *testing.T) {
	cwd := t.TempDir()
	s := startLive(t, cwd, "Pane closed")
	s.KillPane()
	checkStopped(t, roomWhenClosed(t, cwd), "hung up (SIGHUP)")
	resumeHeadless(t, cwd)
}

// TestE2EDebatePaneClosed: roundtable debate in a terminal that closes
// saves the cut turn, closes its room saying why, and resumes.
func TestE2EDebatePaneClosed(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 30, Dir: cwd, Env: e2eEnv(t)},
		bin, "debate", "--topic", "Headless hang-up", "--rounds", "3", "--room", "live")
	// The screen's header row holds every column's header, so the words
	// are looked for in the room: a hang-up before the first word leaves
	// no turn to cut.
	waitDraft(t, cwd, "Software Architect")
	s.KillPane()
	checkStopped(t, roomWhenClosed(t, cwd), "hung up (SIGHUP)")
	resumeHeadless(t, cwd)
}

// TestE2EAbandonedDebateOpensResumable: a debate whose process was
// killed (SIGKILL: nothing saved on the way out) leaves its room open;
// the app opens it as a failed debate, and R resumes it to its verdict.
func TestE2EAbandonedDebateOpensResumable(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	cmd, _ := startHeadlessInto(t, bin, cwd, "Killed", "2", 0)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()

	s := tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("R retries from the turn that failed", 15*time.Second)
	r, err := room.Open(cwd, "live")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	if st.Closed == nil || st.Closed.Reason != debate.ReasonFailed+debate.ReasonAbandoned || !strings.Contains(st.Closed.Detail, "ended without closing the room") {
		t.Fatalf("the abandoned room was not closed as such: %+v", st.Closed)
	}
	s.SendKeys("R")
	s.WaitFor("✓ verdict in", 60*time.Second)
	s.SendKeys("q")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestHeadlessDebateSIGHUP: kill -HUP of roundtable debate saves the cut
// turn, closes the room naming the hang-up, exits 130, and --resume goes
// on with it.
func TestHeadlessDebateSIGHUP(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	// Into the second turn: one saved, a few tokens of the next said.
	cmd, out := startHeadlessInto(t, bin, cwd, "Hup five", "3", 3)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("roundtable debate after SIGHUP: %v, want exit status 130", err)
	}
	checkStopped(t, roomWhenClosed(t, cwd), "hung up (SIGHUP)")
	resumeHeadless(t, cwd)
}

// startHeadlessInto starts `roundtable debate` (jsonl, room "live") in
// cwd and reads its events until the first turn has ended and tokens more
// tokens of the next have streamed; it returns the running command and the
// rest of its output.
func startHeadlessInto(t *testing.T, bin, cwd, topic, rounds string, tokens int) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(bin, "debate", "--topic", topic, "--rounds", rounds, "--room", "live", "--format", "jsonl")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), e2eEnv(t)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(out)
	for ends, said := 0, 0; ends < 1 || said < tokens; {
		var ev struct {
			Event string `json:"event"`
		}
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("the debate's events: %v", err)
		}
		switch ev.Event {
		case string(debate.EventTurnEnd):
			ends++
		case string(debate.EventToken):
			if ends > 0 {
				said++
			}
		}
	}
	return cmd, io.MultiReader(dec.Buffered(), out)
}

// seatServerLog waits until the room's server.log holds want and returns it.
func seatServerLog(t *testing.T, dir, want string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, _ := os.ReadFile(filepath.Join(dir, room.LogFile))
		if strings.Contains(string(data), want) {
			return string(data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("server.log never held %q:\n%s", want, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// seatsState is the state roundtable seats gives the peer seat of room.
func seatsState(t *testing.T, bin, cwd, name string) string {
	t.Helper()
	cmd := exec.Command(bin, "seats", "--room", name)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), e2eEnv(t)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("roundtable seats: %v", err)
	}
	var seats []room.SeatInfo
	if err := json.Unmarshal(out, &seats); err != nil {
		t.Fatalf("roundtable seats printed %q: %v", out, err)
	}
	for _, s := range seats {
		if s.Seat == room.SeatPeer {
			return s.State
		}
	}
	return ""
}

// TestE2ESeatHangUpAndKill: a roundtable seat whose terminal closes (its
// pane killed) leaves its disconnect line and exits; one killed
// (SIGKILL, no line written) is gone for roundtable seats and for watch,
// from its lock.
func TestE2ESeatHangUpAndKill(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	res, err := room.Seed(cwd, "seated", room.CreateOptions{Topic: "Cache or not", Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	dir := res.Dir
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 30, Dir: cwd, Env: e2eEnv(t)},
		bin, "seat", "--room", "seated", "--seat", "peer", "--provider", "mock")
	seatServerLog(t, dir, "call seat=peer tool=wait_for_message")
	pid := s.PID()
	s.KillPane()
	seatServerLog(t, dir, "disconnect seat=peer pid="+strconv.Itoa(pid))
	if st := seatsState(t, bin, cwd, "seated"); st != room.StateDisconnected {
		t.Errorf("after the hang-up, seats says the peer is %q", st)
	}

	// Played again, then killed outright.
	cmd := exec.Command(bin, "seat", "--room", "seated", "--seat", "peer", "--provider", "mock")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), e2eEnv(t)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seatServerLog(t, dir, "connect seat=peer agent=roundtable:mock pid="+strconv.Itoa(cmd.Process.Pid))
	w := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 30, Dir: cwd, Env: e2eEnv(t)}, bin, "watch", "--room", "seated")
	w.WaitFor("parked", 20*time.Second)
	if st := seatsState(t, bin, cwd, "seated"); st != room.StateParked {
		t.Fatalf("a live seat: seats says %q", st)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if st := seatsState(t, bin, cwd, "seated"); st != room.StateDisconnected {
		t.Errorf("after SIGKILL, seats says the peer is %q", st)
	}
	w.WaitUntil("the killed seat gone", func(sc string) bool {
		return strings.Contains(sc, "disconnected") && !strings.Contains(sc, "parked")
	}, 20*time.Second)
}

// TestNohupDebateKeepsRunning: a debate started with SIGHUP ignored
// (nohup) keeps running through a hang-up; SIGTERM still stops it.
func TestNohupDebateKeepsRunning(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", `trap "" HUP; exec "$0" "$@"`, bin, "debate", "--topic", "Nohup", "--rounds", "3", "--room", "live", "--format", "jsonl")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), e2eEnv(t)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(out)
	next := func(want debate.EventType) {
		t.Helper()
		for {
			var ev struct {
				Event string `json:"event"`
			}
			if err := dec.Decode(&ev); err != nil {
				t.Fatalf("the debate's events: %v", err)
			}
			if ev.Event == string(want) {
				return
			}
		}
	}
	next(debate.EventTurnEnd)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	// Still speaking after the hang-up: the next turn ends.
	next(debate.EventTurnEnd)
	next(debate.EventToken)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("after SIGTERM: %v, want exit status 130", err)
	}
	checkStopped(t, roomWhenClosed(t, cwd), "terminated (SIGTERM)")
}

// pausedStopped starts a 2-round debate on topic that pauses between
// rounds, in the room "live" under a new folder, and stops it in its
// screen (esc, y) during the Software Architect's first turn, its room
// closed; it returns the binary, the folder and the screen.
func pausedStopped(t *testing.T, topic string) (bin, cwd string, s *tmuxtest.Session) {
	t.Helper()
	bin = tmuxtest.Build(t, "./cmd/roundtable")
	cwd = t.TempDir()
	s = tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: cwd, Env: e2eEnv(t)},
		bin, "tui", "--topic", topic, "--rounds", "2", "--room", "live", "--pause-between-rounds")
	waitWords(s, "Software Architect")
	waitDraft(t, cwd, "Software Architect")
	s.SendKeys("Escape")
	s.WaitFor("Stop the debate? y/n", 15*time.Second)
	s.SendKeys("y")
	s.WaitFor("R resumes it", 15*time.Second)
	roomWhenClosed(t, cwd)
	return bin, cwd, s
}

// resumedFromHome starts a new app in cwd, opens its one room, a debate
// that can be resumed, and resumes it with R: it pauses after round 1 and
// offers i. It returns the app's screen.
func resumedFromHome(t *testing.T, bin, cwd string) *tmuxtest.Session {
	t.Helper()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("R resumes it", 15*time.Second)
	s.SendKeys("R")
	screen := s.WaitFor("Paused after round 1: enter to go on, i to speak.", 60*time.Second)
	if !strings.Contains(screen, "note to the panel") {
		t.Errorf("the debate resumed from home does not offer i (note to the panel):\n%s", screen)
	}
	return s
}

// sendNote writes note to the panel with i and waits for its band.
func sendNote(s *tmuxtest.Session, note string) {
	s.SendKeys("i")
	s.WaitFor("Writing a note to the panel", 15*time.Second)
	s.SendKeys("-l", note)
	s.SendKeys("Enter")
	s.WaitFor("note to the panel · round", 15*time.Second) // the note's band
}

// TestE2EResumedDebatePauses: a debate that pauses between rounds,
// stopped (esc, y) and resumed with R in its screen, pauses after round 1
// as the first run would: the key bar offers i, i sends a note, enter goes
// on (after round 2 too, before the verdict), and it ends with its
// verdict, the note in the room.
func TestE2EResumedDebatePauses(t *testing.T) {
	_, cwd, s := pausedStopped(t, "Pause and resume")
	s.SendKeys("R")
	s.WaitFor("Resumed: the debate goes on in room live", 15*time.Second)
	screen := s.WaitFor("Paused after round 1: enter to go on, i to speak.", 60*time.Second)
	if !strings.Contains(screen, "note to the panel") {
		t.Errorf("the resumed debate's key bar does not offer i (note to the panel):\n%s", screen)
	}
	const note = "Mind the latency budget"
	sendNote(s, note)
	s.WaitFor("Paused after round 1", 15*time.Second)
	s.SendKeys("Enter")
	// The last round pauses too, before the verdict.
	s.WaitFor("Paused after round 2", 90*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("✓ verdict in", 90*time.Second)
	r, err := room.Open(cwd, "live")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	if st.Closed == nil || st.Closed.Reason != debate.ReasonComplete {
		t.Errorf("the resumed room ended %+v, want complete", st.Closed)
	}
	noted := false
	for _, m := range st.Messages {
		noted = noted || strings.Contains(m.Text, note)
	}
	if !noted {
		t.Errorf("the note sent while paused is not in the room")
	}
}

// TestE2EResumedFromHomePauses: the same debate stopped, the app quit,
// the room opened from the home screen of a new app and resumed with R
// there pauses after round 1 too: the pause is the room's (room.json),
// not the first screen's.
func TestE2EResumedFromHomePauses(t *testing.T) {
	bin, cwd, s := pausedStopped(t, "Pause from home")
	s.SendKeys("Escape")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Fatalf("q on the home screen: exit status %d", code)
	}
	// Another day, another app: only the room knows the debate paused.
	s = resumedFromHome(t, bin, cwd)
	s.SendKeys("Enter")
	s.WaitFor("Paused after round 2", 90*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("✓ verdict in", 90*time.Second)
}

// TestE2EKilledWhilePausedResumesPaused: the app killed (SIGTERM) while
// its debate waits after round 1; a new app resumes the room from its
// home screen with R, and the debate waits where it stopped, round 2 not
// yet begun (the room's paused.json, not the first screen's memory); i
// sends a note that round 2 answers, enter goes on, and it ends with its
// verdict.
func TestE2EKilledWhilePausedResumesPaused(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: cwd, Env: e2eEnv(t)},
		bin, "tui", "--topic", "Killed while paused", "--rounds", "2", "--room", "live", "--pause-between-rounds")
	s.WaitFor("Paused after round 1: enter to go on, i to speak.", 90*time.Second)
	if err := syscall.Kill(s.PID(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.ExitStatus(20 * time.Second); code != 130 {
		t.Fatalf("exit status %d after SIGTERM, want 130", code)
	}
	st := roomWhenClosed(t, cwd)
	r, err := room.Open(cwd, "live")
	if err != nil {
		t.Fatal(err)
	}
	if st.Paused == nil || st.Paused.Round != 1 {
		t.Fatalf("the room stopped while paused keeps no pause after round 1: %+v", st.Paused)
	}
	before := len(st.Messages)

	s = resumedFromHome(t, bin, cwd)
	if st, err := r.Refresh(); err != nil || len(st.Messages) != before {
		t.Fatalf("the debate resumed paused went on before enter: %d messages, was %d (%v)", len(st.Messages), before, err)
	}
	const note = "Answer the latency question first"
	sendNote(s, note)
	s.SendKeys("Enter")
	s.WaitFor("Paused after round 2", 90*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("✓ verdict in", 90*time.Second)
	st, err = r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != debate.ReasonComplete || st.Paused != nil {
		t.Errorf("the resumed room ended %+v, paused %+v; want complete, not paused", st.Closed, st.Paused)
	}
	answered := false
	for _, m := range st.Messages[before:] {
		answered = answered || (m.Round == 2 && strings.Contains(m.Text, "latency"))
	}
	if !answered {
		t.Errorf("no round-2 turn answers the note %q", note)
	}
}
