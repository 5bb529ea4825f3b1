//go:build linux

package debate

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
	"github.com/roundtable-dev/roundtable/room"
)

// agentRun is one scripted agent's setup for a run of the built binary.
type agentRun struct {
	env    []string // ACPAGENT_SCRIPT=...
	pidDir string
	record string
}

func scriptFor(t *testing.T, s acpagent.Script) agentRun {
	t.Helper()
	ar := agentRun{pidDir: t.TempDir(), record: filepath.Join(t.TempDir(), "record.jsonl")}
	s.PidDir, s.Record = ar.pidDir, ar.record
	ar.env = []string{acpagent.EnvScript + "=" + acpagent.WriteScript(t, s)}
	return ar
}

// gone fails the test if a process of an agent's group is alive.
func (ar agentRun) gone(t *testing.T) {
	t.Helper()
	// The children (like MCP servers) are in their agent's group.
	agents, _ := acpagent.Pids(ar.pidDir)
	for _, pid := range agents {
		if m := acpagent.GroupMembers(pid); len(m) > 0 {
			t.Errorf("process group %d (agent) still has %v", pid, m)
		}
	}
}

func TestAgentDebateBinary(t *testing.T) {
	bin := buildBinary(t)
	agent := acpagent.Build(t)
	run := binaryRunner(bin, cleanEnv(t))

	t.Run("an agent and a model debate, saved with activity", func(t *testing.T) {
		ar := scriptFor(t, acpagent.Script{Children: 1, IgnoreStdinClose: true, Turns: []acpagent.Turn{
			{Steps: []acpagent.Step{
				{Tool: &acpagent.Tool{Kind: "read", Title: "Read store.go", Path: "store.go"}},
				{Say: "The store is **small**; ", ChunkSize: 4},
				{Permission: &acpagent.Tool{Kind: "edit", Path: "main.go"}},
				{Say: "I would not split it.", ChunkSize: 3},
			}},
			{Steps: []acpagent.Step{{Plan: []string{"reread", "answer"}}, {Say: "Still no."}}},
		}})
		cwd := t.TempDir()
		out, errOut, code := run(cwd, ar.env, "debate", "--topic", "Split the store package", "--rounds", "2",
			"--agent", "Claude=acp:"+agent, "--agent", "Gemma=a careful reviewer of package boundaries",
			"--no-user-personas", "--personas", writePersonas(t, ""), "--fast", "--format", "jsonl", "--room", "split")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, errOut, out)
		}
		var evs []Event
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var ev Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatalf("line %q: %v", sc.Text(), err)
			}
			evs = append(evs, ev)
		}
		// Invariant 2 with activity in the stream: tokens alone make the text.
		tokens := map[string]string{}
		var acts []string
		inTurn := ""
		for _, ev := range evs {
			switch ev.Type {
			case EventTurnStart:
				inTurn = ev.Agent
				key := ev.Agent + "/" + string(rune('0'+ev.Round))
				tokens[key] = ""
				if ev.Agent == "Claude" && ev.Model != "acp:acpagent" {
					t.Errorf("Claude's model label %q, want acp:acpagent", ev.Model)
				}
			case EventToken:
				tokens[ev.Agent+"/"+string(rune('0'+ev.Round))] += ev.Text
			case EventActivity:
				if inTurn != ev.Agent {
					t.Errorf("activity %+v outside its turn (in %q)", ev, inTurn)
				}
				acts = append(acts, ev.Kind+"|"+ev.Text)
			case EventTurnEnd:
				key := ev.Agent + "/" + string(rune('0'+ev.Round))
				if tokens[key] != ev.Text {
					t.Errorf("%s: tokens %q != full_text %q", key, tokens[key], ev.Text)
				}
				inTurn = ""
			default:
			}
		}
		// A command agent that may only read works on a copy, and says so first.
		want := []string{"note|" + copyNote, "tool|reading store.go", "tool|editing main.go", "refused|refused: edit main.go", "plan|plan 1/2: reread"}
		if strings.Join(acts, "\n") != strings.Join(want, "\n") {
			t.Errorf("activity %q, want %q", acts, want)
		}
		if last := evs[len(evs)-1]; last.Type != EventDone {
			t.Fatalf("last event %+v", last)
		}
		r, err := room.Open(cwd, "split")
		if err != nil {
			t.Fatal(err)
		}
		st, _ := r.State()
		var claude []room.Message
		for _, m := range st.Messages {
			if m.Seat == "Claude" {
				claude = append(claude, m)
			}
		}
		if len(claude) != 2 || claude[0].Text != "The store is **small**; I would not split it." || claude[0].Agent != "acp:acpagent" {
			t.Fatalf("Claude's messages: %+v", claude)
		}
		if got := claude[0].Activity; len(got) != 4 || got[0].Text != copyNote || got[3] != (room.Activity{Kind: "refused", Text: "refused: edit main.go"}) {
			t.Errorf("saved activity %+v", got)
		}
		raw, _ := os.ReadFile(filepath.Join(r.MessagesDir(), claude[0].File))
		if !strings.Contains(string(raw), `"activity": [`) {
			t.Errorf("message file lacks the activity field:\n%s", raw)
		}
		outcome := ""
		for _, rec := range acpagent.Records(t, ar.record) {
			if rec["permission"] == "edit" {
				outcome, _ = rec["outcome"].(string)
			}
		}
		if outcome != "reject" {
			t.Errorf("edit permission outcome %q, want reject", outcome)
		}
		ar.gone(t)
	})

	t.Run("a persona file's agent and an agent moderator", func(t *testing.T) {
		ar := scriptFor(t, acpagent.Script{Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Say: "**Decision:** keep it."}}}}})
		cwd := t.TempDir()
		file := writePersonas(t, `
[[persona]]
name = "Qwen"
persona = "a pragmatic maintainer"
agent = ["`+agent+`"]

[moderator]
agent = ["acp:`+agent+`"]
`)
		out, errOut, code := run(cwd, ar.env, "debate", "--topic", "Keep the store", "--rounds", "1",
			"--personas", file, "--no-user-personas", "--fast", "--format", "jsonl", "--room", "keep")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, errOut, out)
		}
		r, _ := room.Open(cwd, "keep")
		st, _ := r.State()
		if len(st.Messages) != 2 || st.Messages[1].Seat != room.SeatModerator || st.Messages[1].Agent != "acp:acpagent" ||
			st.Messages[1].Text != "**Decision:** keep it." {
			t.Fatalf("messages %+v", st.Messages)
		}
		if agents, _ := acpagent.Pids(ar.pidDir); len(agents) != 2 {
			t.Errorf("agents started %v, want one for Qwen and one for the moderator", agents)
		}
		ar.gone(t)
	})

	t.Run("bad input is one sentence and writes nothing unsaid", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			script acpagent.Script
			agent  string
			code   int
			want   string
			room   bool // a room is created (and closed as failed, empty)
		}{
			{"acp: with no command", acpagent.Script{}, "acp:", 2, "names no command", false},
			{"an unclosed quote", acpagent.Script{}, "acp:" + agent + " 'x", 2, "quote is not closed", false},
			{"not installed", acpagent.Script{}, "acp:no-such-agent-xyz", 1, "no-such-agent-xyz is not on PATH", false},
			{"garbage on stdout", acpagent.Script{Garbage: []string{"Loading plugins..."}}, "acp:" + agent, 1, `printed "Loading plugins..." on stdout instead of ACP`, true},
			{"unsupported protocol version", acpagent.Script{ProtocolVersion: 7}, "acp:" + agent, 1, "speaks ACP protocol version 7", true},
			{"asks to sign in", acpagent.Script{AuthRequired: true}, "acp:" + agent, 1, "needs you to sign in first", true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ar := scriptFor(t, tc.script)
				cwd := t.TempDir()
				_, errOut, code := run(cwd, ar.env, "debate", "--topic", "t", "--rounds", "1", "--agent", "A="+tc.agent,
					"--personas", writePersonas(t, ""), "--no-user-personas", "--fast", "--room", "bad")
				if code != tc.code || !strings.Contains(errOut, tc.want) {
					t.Fatalf("exit %d, want %d with %q:\n%s", code, tc.code, tc.want, errOut)
				}
				// One sentence (a usage mistake adds the line pointing at --help).
				lines := strings.Split(strings.TrimSpace(errOut), "\n")
				if !tc.room && (len(lines) > 2 || !strings.Contains(lines[0], tc.want)) {
					t.Errorf("not one sentence:\n%s", errOut)
				}
				_, statErr := os.Stat(filepath.Join(cwd, room.Folder))
				if !tc.room {
					if !errors.Is(statErr, os.ErrNotExist) {
						t.Errorf("created %s", room.Folder)
					}
					return
				}
				r, err := room.Open(cwd, "bad")
				if err != nil {
					t.Fatal(err)
				}
				st, _ := r.State()
				for _, m := range st.Messages {
					if m.Seat == "A" {
						t.Errorf("the agent said nothing, yet the room has %+v", m)
					}
				}
				if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, ReasonFailed) {
					t.Errorf("room closed %+v", st.Closed)
				}
				ar.gone(t)
			})
		}
	})

	t.Run("text output notes activity on stderr, out of the debate's text", func(t *testing.T) {
		ar := scriptFor(t, acpagent.Script{Turns: []acpagent.Turn{{Steps: []acpagent.Step{
			{Permission: &acpagent.Tool{Kind: "execute", Title: "rm -rf build"}}, {Say: "No changes from me."},
		}}}})
		out, errOut, code := run(t.TempDir(), ar.env, "debate", "--topic", "t", "--rounds", "1", "--agent", "A=acp:"+agent,
			"--personas", writePersonas(t, ""), "--no-user-personas", "--fast")
		if code != 0 || !strings.Contains(errOut, "roundtable: A: ✗ refused: rm -rf build") || strings.Contains(out, "refused") ||
			!strings.Contains(out, "No changes from me.") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
	})

	t.Run("tui --topic shares the agent flags and their checks", func(t *testing.T) {
		for _, args := range [][]string{
			{"tui", "--topic", "t", "--agent", "A=acp:"},
			{"tui", "--topic", "t", "--allow-agent-tools", "delete"},
			{"debate", "--topic", "t", "--allow-agent-tools", "write,delete"},
		} {
			cwd := t.TempDir()
			_, errOut, code := run(cwd, nil, args...)
			if code != 2 || !strings.Contains(errOut, "acp:") && !strings.Contains(errOut, "write, exec or write,exec") {
				t.Errorf("%v: exit %d\n%s", args, code, errOut)
			}
			if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%v created %s", args, room.Folder)
			}
		}
	})

	t.Run("ctrl+c kills the agent's group and keeps what was said", func(t *testing.T) {
		ar := scriptFor(t, acpagent.Script{IgnoreStdinClose: true, IgnoreCancel: true, Children: 2, Turns: []acpagent.Turn{
			{Steps: []acpagent.Step{{Say: "Let me look", ChunkSize: 100}, {Stall: true}}},
		}})
		cwd := t.TempDir()
		cmd := exec.Command(bin, "debate", "--topic", "t", "--rounds", "1", "--agent", "A=acp:"+agent,
			"--personas", writePersonas(t, ""), "--no-user-personas", "--fast", "--format", "jsonl", "--room", "stop")
		cmd.Dir = cwd
		cmd.Env = append(cleanEnv(t), ar.env...)
		stdout, _ := cmd.StdoutPipe()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"Let me look"`) {
				break
			}
		}
		agents, children := acpagent.Pids(ar.pidDir)
		if len(agents) != 1 || len(children) != 2 || len(acpagent.GroupMembers(agents[0])) != 3 {
			t.Fatalf("agents %v children %v", agents, children)
		}
		start := time.Now()
		_ = cmd.Process.Signal(os.Interrupt)
		go func() {
			for sc.Scan() {
			}
		}()
		err := cmd.Wait()
		if code := exitCode(err); code == 0 {
			t.Errorf("exit 0 after ctrl+c\n%s", stderr.String())
		}
		if m := acpagent.GroupMembers(agents[0]); len(m) != 0 {
			t.Fatalf("%s after ctrl+c, the agent's group still has %v", time.Since(start), m)
		}
		r, _ := room.Open(cwd, "stop")
		st, _ := r.State()
		last := st.Messages[len(st.Messages)-1]
		if len(st.Messages) != 2 || last.Seat != "A" || last.Kind != KindIncomplete || !strings.HasPrefix(last.Text, "Let me look") ||
			st.Closed == nil || st.Closed.Reason != ReasonCancelled {
			t.Fatalf("room: %+v closed %+v", st.Messages, st.Closed)
		}
	})
}

// writePersonas writes a persona file: body, or when empty a one-persona
// panel of a model persona, Gemma.
func writePersonas(t *testing.T, body string) string {
	t.Helper()
	if body == "" {
		body = "[[persona]]\nname = \"Gemma\"\npersona = \"a careful reviewer of package boundaries\"\n"
	}
	p := filepath.Join(t.TempDir(), "personas.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
