package watch_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// takeTimeout bounds each wait of the take tests: the mock seat and the
// seat servers answer in milliseconds, but the machine may be busy.
const takeTimeout = 20 * time.Second

// toolText is the text of a tool call's result, or the JSON-RPC error.
func toolText(t *testing.T, r map[string]any) string {
	t.Helper()
	if r["error"] != nil {
		t.Fatalf("tool call failed: %v", r["error"])
	}
	data, _ := json.Marshal(r["result"])
	return string(data)
}

func toJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// runBin runs the binary to its end and returns its exit code and stderr.
func runBin(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatalf("run %v: %v", args, err)
	return -1, "", ""
}

// oneLine is a screen's words on one line, so checks do not depend on
// where text wraps.
func oneLine(screen string) string { return strings.Join(strings.Fields(screen), " ") }

// TestTakePeerSeatAgainstAScriptedLead: a person takes the peer seat of a
// room whose lead is an agent's seat server (the built binary, driven
// over stdio by this test as an MCP client would), answers twice, and the
// lead writes the spec and closes. A second watcher shows the person and
// their draft; a second taker (a person, roundtable seat) is refused
// naming the first; the room's messages carry the person's posts; q gives
// the seat up.
func TestTakePeerSeatAgainstAScriptedLead(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	const name = "take-peer"
	lead := startSeatProc(t, bin, cwd, name, "lead")
	toolText(t, <-lead.call("post", map[string]any{"text": "The brief: stream the upload or load it whole?"}))

	other := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 30, Dir: t.TempDir()}, bin, "watch", "--room", name, "--cwd", cwd)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 30, Dir: t.TempDir()}, bin, "watch", "--room", name, "--cwd", cwd, "--take", "peer")
	s.WaitFor("Your turn as peer · round 1", takeTimeout)
	pid := s.PID()
	other.WaitUntil("the other watcher showing the person", func(sc string) bool {
		return strings.Contains(oneLine(sc), "peer a person (at the keyboard) at the keyboard, its turn to write")
	}, takeTimeout)

	// roundtable seats says so too.
	code, out, errOut := runBin(t, bin, "seats", "--room", name, "--cwd", cwd)
	var seats []room.SeatInfo
	if code != 0 || json.Unmarshal([]byte(out), &seats) != nil {
		t.Fatalf("seats: exit %d, %s %s", code, out, errOut)
	}
	found := false
	for _, si := range seats {
		if si.Seat == "peer" && si.Agent == room.PersonAgent && si.State == room.StateAtKeyboard && si.PID == pid {
			found = true
		}
	}
	if !found {
		t.Fatalf("roundtable seats does not show the person (pid %d) in the peer seat: %s", pid, out)
	}

	// A second taker is refused, naming the first.
	want := "the peer seat of room " + name + " is already played by a person at the keyboard (roundtable watch --take, pid " + strconv.Itoa(pid) + "); stop it first"
	if code, _, errOut := runBin(t, bin, "watch", "--room", name, "--cwd", cwd, "--take", "peer"); code != 2 || !strings.Contains(errOut, want) {
		t.Fatalf("a second person: exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
	if code, _, errOut := runBin(t, bin, "seat", "--room", name, "--cwd", cwd, "--seat", "peer", "--provider", "mock"); code != 2 || !strings.Contains(errOut, want) {
		t.Fatalf("roundtable seat: exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
	// And an agent's seat server for the peer: its first request fails
	// naming the person, and it never connects.
	intruder := startSeatProc(t, bin, cwd, name, "peer")
	if r := <-intruder.call("room_status", map[string]any{}); r["error"] == nil || !strings.Contains(oneLine(toJSON(r["error"])), want) {
		t.Fatalf("an MCP peer under the person: %v", r)
	}
	intruder.stop()
	if logData, _ := os.ReadFile(filepath.Join(room.Dir(cwd, name), room.LogFile)); strings.Contains(string(logData), "agent=peer-e2e") {
		t.Fatalf("the refused MCP peer connected:\n%s", logData)
	}
	// So is a person taking the seat of the connected MCP lead.
	if code, _, errOut := runBin(t, bin, "watch", "--room", name, "--cwd", cwd, "--take", "lead"); code != 2 || !strings.Contains(errOut, "already played by an agent over MCP (lead-e2e, pid "+strconv.Itoa(lead.cmd.Process.Pid)+")") {
		t.Fatalf("taking the MCP lead's seat: exit %d, stderr %q", code, errOut)
	}

	// The person writes: the other watcher sees the draft, then the post
	// wakes the parked lead.
	woke := lead.call("wait_for_message", map[string]any{"timeout_seconds": 50})
	s.SendKeys("-l", "/objection Stream it: uploads reach 4 GB.")
	other.WaitUntil("the draft on the other watcher", func(sc string) bool {
		l := oneLine(sc)
		return strings.Contains(l, "peer is writing… person") && strings.Contains(l, "uploads reach 4 GB.")
	}, takeTimeout)
	s.SendKeys("Enter")
	if got := toolText(t, <-woke); !strings.Contains(got, "Stream it: uploads reach 4 GB.") {
		t.Fatalf("the lead's wait returned %s", got)
	}
	other.WaitUntil("the post on the other watcher", func(sc string) bool {
		l := oneLine(sc)
		return strings.Contains(l, "objection") && strings.Contains(l, "Stream it: uploads reach 4 GB.") && !strings.Contains(l, "is writing")
	}, takeTimeout)

	toolText(t, <-lead.call("post", map[string]any{"text": "Round two: what bounds the memory?", "kind": "question"}))
	s.WaitFor("Your turn as peer · round 2", takeTimeout)
	woke = lead.call("wait_for_message", map[string]any{"timeout_seconds": 50})
	s.SendKeys("-l", "A fixed 8 MiB buffer per upload.")
	s.SendKeys("Enter")
	if got := toolText(t, <-woke); !strings.Contains(got, "A fixed 8 MiB buffer per upload.") {
		t.Fatalf("the lead's second wait returned %s", got)
	}

	toolText(t, <-lead.call("write_spec", map[string]any{"text": "# Spec\n\nStream uploads with an 8 MiB buffer.\n"}))
	toolText(t, <-lead.call("close_room", map[string]any{"reason": "agreement reached"}))
	s.WaitFor("CLOSED · agreement reached", takeTimeout)
	other.WaitFor("CLOSED · agreement reached", takeTimeout)

	r, st := onDisk(t, cwd, name)
	var mine []string
	for _, m := range st.Messages {
		if m.Seat == "peer" {
			if m.Agent != room.PersonAgent {
				t.Errorf("peer message %d by %q, want the person", m.Seq, m.Agent)
			}
			mine = append(mine, m.Kind+": "+m.Text)
		}
	}
	if strings.Join(mine, " | ") != "objection: Stream it: uploads reach 4 GB. | answer: A fixed 8 MiB buffer per upload." {
		t.Fatalf("the peer's messages: %q", mine)
	}

	s.SendKeys("q")
	if code := s.ExitStatus(takeTimeout); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
	logData, _ := os.ReadFile(filepath.Join(r.Dir(), room.LogFile))
	if !strings.Contains(string(logData), "disconnect seat=peer pid="+strconv.Itoa(pid)) {
		t.Fatalf("no disconnect line for the person:\n%s", logData)
	}
	other.WaitUntil("the other watcher showing the person gone", func(sc string) bool {
		return strings.Contains(oneLine(sc), "peer a person (at the keyboard) disconnected")
	}, takeTimeout)
}

// bgProc is a background process of the built binary, its stderr kept.
type bgProc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	errb bytes.Buffer
	done chan int
}

func (p *bgProc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errb.Write(b)
}

func (p *bgProc) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errb.String()
}

func startBg(t *testing.T, bin string, args ...string) *bgProc {
	t.Helper()
	p := &bgProc{cmd: exec.Command(bin, args...), done: make(chan int, 1)}
	p.cmd.Stderr = p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.cmd.Wait()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		p.done <- code
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		code := <-p.done
		p.done <- code
	})
	return p
}

// TestTakeLeadSeatAgainstAMockPeer: a person takes the lead seat against
// `roundtable seat --seat peer` on the mock model, posts the brief and a
// second round, and once the budget is spent writes the spec in $EDITOR
// (a script standing in for the editor) and closes the room; the mock
// peer sees the close and leaves.
func TestTakeLeadSeatAgainstAMockPeer(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	const name = "take-lead"
	if _, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Queue or cron for the nightly export", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	// The editor appends the decision to the file it is given, as a
	// person would type it.
	editor := filepath.Join(t.TempDir(), "editor.sh")
	script := "#!/bin/sh\nprintf 'Use a queue: retries come free.\\n\\n## Dissent\\n\\nThe peer prefers cron.\\n' >> \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 32, Dir: t.TempDir(), Env: []string{"EDITOR=" + editor, "VISUAL="}},
		bin, "watch", "--room", name, "--cwd", cwd, "--take", "lead")
	s.WaitFor("Your turn as lead · round 1", takeTimeout)
	peer := startBg(t, bin, "seat", "--room", name, "--cwd", cwd, "--seat", "peer", "--provider", "mock", "--fast")

	s.SendKeys("-l", "/brief Queue or cron? The export takes 40 minutes.")
	s.SendKeys("Enter")
	s.WaitFor("Your turn as lead · round 2", takeTimeout)
	s.SendKeys("-l", "/challenge What happens when it fails at 3 am?")
	s.SendKeys("Enter")
	screen := s.WaitFor("the round budget is spent: S writes the spec, then C closes the room", takeTimeout)
	if strings.Contains(screen, "Your turn as lead") {
		t.Fatalf("the composer opened with the budget spent:\n%s", screen)
	}

	s.SendKeys("S")
	s.WaitFor("the spec is written to", takeTimeout)
	spec, err := os.ReadFile(filepath.Join(cwd, "SPEC-"+name+".md"))
	if err != nil || string(spec) != "# Queue or cron for the nightly export\n\nUse a queue: retries come free.\n\n## Dissent\n\nThe peer prefers cron.\n" {
		t.Fatalf("the spec: %q (%v)", spec, err)
	}
	s.SendKeys("C")
	s.WaitFor("y closes it", takeTimeout)
	s.SendKeys("y")
	s.WaitFor("CLOSED · closed by the lead at the keyboard", takeTimeout)

	select {
	case code := <-peer.done:
		peer.done <- code
		if code != 0 {
			t.Fatalf("the mock peer exited %d: %s", code, peer.stderr())
		}
	case <-time.After(takeTimeout):
		t.Fatalf("the mock peer did not leave the closed room: %s", peer.stderr())
	}

	r, st := onDisk(t, cwd, name)
	var got []string
	for _, m := range st.Messages {
		got = append(got, m.Seat+"/"+m.Agent+"/"+m.Kind)
	}
	if len(st.Messages) != 4 || st.Messages[0].Text != "Queue or cron? The export takes 40 minutes." ||
		strings.Join([]string{got[0], got[2]}, " ") != "lead/person/brief lead/person/challenge" ||
		!strings.HasPrefix(got[1], "peer/roundtable:mock/") || !strings.HasPrefix(got[3], "peer/roundtable:mock/") {
		t.Fatalf("messages %q", got)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(takeTimeout); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
	seats, err := room.ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if seats[0].Seat != "lead" || seats[0].Agent != room.PersonAgent || seats[0].State != room.StateDisconnected || seats[0].Last != "close_room" {
		t.Fatalf("the lead after q: %+v", seats[0])
	}
}

// TestTakeSeatGivenUpOnHangupAndTerm: a closed terminal (SIGHUP) or a
// SIGTERM ends the screen as q does: the disconnect line is written and
// the seat is free for the next taker.
func TestTakeSeatGivenUpOnHangupAndTerm(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	const name = "take-signal"
	if _, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Signals", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 28, Dir: t.TempDir()}, bin, "watch", "--room", name, "--cwd", cwd, "--take", "peer")
		s.WaitFor("you play the peer", takeTimeout)
		pid := s.PID()
		proc, err := os.FindProcess(pid)
		if err != nil {
			t.Fatal(err)
		}
		if err := proc.Signal(sig); err != nil {
			t.Fatal(err)
		}
		s.ExitStatus(takeTimeout)
		logData, _ := os.ReadFile(filepath.Join(room.Dir(cwd, name), room.LogFile))
		if !strings.Contains(string(logData), "disconnect seat=peer pid="+strconv.Itoa(pid)) {
			t.Fatalf("no disconnect line after %v:\n%s", sig, logData)
		}
		r, err := room.Open(cwd, name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := r.TakeSeatAsPerson(room.SeatPeer)
		if err != nil {
			t.Fatalf("the seat after %v: %v", sig, err)
		}
		_ = p.Release()
	}
}

// onDisk opens room name under cwd and reads it as it is on disk now.
func onDisk(t *testing.T, cwd, name string) (*room.Room, room.State) {
	t.Helper()
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	return r, st
}
