package debate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/debatetest"
	"github.com/roundtable-dev/roundtable/room"
)

func headlessOpts(cwd, format string) HeadlessOptions {
	return HeadlessOptions{Format: format, Settings: Settings{
		Config: Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 2, Seed: 1},
		Cwd:    cwd, Getenv: envOf(nil),
	}}
}

func onlyRoom(t *testing.T, cwd string) *room.Room {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(cwd, room.Folder))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) != 1 {
		t.Fatalf("rooms %v, want one", names)
	}
	r, err := room.Open(cwd, names[0])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestHeadlessJSONL(t *testing.T) {
	cwd := t.TempDir()
	var out, errOut bytes.Buffer
	if err := RunHeadless(context.Background(), headlessOpts(cwd, FormatJSONL), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var evs []Event
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	cfg, _ := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 2}.Normalize()
	checkInvariants(t, evs, cfg)
	r := onlyRoom(t, cwd)
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 7 || st.Closed == nil || st.Closed.Reason != ReasonComplete {
		t.Fatalf("room has %d messages, closed %+v", len(st.Messages), st.Closed)
	}
	if !strings.Contains(errOut.String(), r.Config().Room) {
		t.Errorf("stderr %q does not name the room", errOut.String())
	}
}

func TestHeadlessTextAndMarkdown(t *testing.T) {
	cwd := t.TempDir()
	var text, md bytes.Buffer
	if err := RunHeadless(context.Background(), headlessOpts(cwd, FormatText), &text, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := RunHeadless(context.Background(), headlessOpts(cwd, FormatMD), &md, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Debate: Should we adopt GraphQL", "Round 1 of 2", "Round 2 of 2", "▌ Product Manager · mock", "▌ Security Reviewer", "Moderator's verdict", "**Decision:**", "Tokens:"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q", want)
		}
	}
	m := md.String()
	if !strings.HasPrefix(m, "# Should we adopt GraphQL\n") || !strings.Contains(m, "## Round 2") || !strings.Contains(m, "## Verdict\n\n**Decision:**") {
		t.Errorf("markdown output:\n%s", m)
	}
	// The same seed gives the same debate in both formats.
	for _, line := range strings.Split(m, "\n") {
		if strings.HasPrefix(line, "- **") && !strings.Contains(text.String(), line) {
			t.Errorf("md line %q is not in the text output", line)
		}
	}
}

func TestHeadlessRejectsBadSettingsBeforeCreating(t *testing.T) {
	tests := []struct {
		name   string
		change func(*HeadlessOptions)
		usage  bool
		want   string
	}{
		{"no topic", func(o *HeadlessOptions) { o.Settings.Config.Topic = "" }, true, "topic"},
		{"rounds", func(o *HeadlessOptions) { o.Settings.Config.Rounds = 11 }, true, "rounds must be a number from 1 to 10"},
		{"format", func(o *HeadlessOptions) { o.Format = "xml" }, true, "--format"},
		{"room", func(o *HeadlessOptions) { o.Settings.Room = "../up" }, true, "--room"},
		{"no persona", func(o *HeadlessOptions) { o.Settings.Config.Personas = nil }, true, "at least one persona"},
		{"provider", func(o *HeadlessOptions) { o.Settings.Provider.Name = "gemini" }, true, "unknown provider"},
		{"base URL without a port", func(o *HeadlessOptions) {
			o.Settings.Provider = ProviderConfig{Name: "openai", BaseURL: "http://127.0.0.1:/v1"}
		}, true, `--base-url "http://127.0.0.1:/v1" has a colon after the host but no port`},
		{"timeout", func(o *HeadlessOptions) { o.Settings.Config.TurnTimeout = -1 }, true, "turn timeout"},
		{"cwd", func(o *HeadlessOptions) { o.Settings.Cwd = filepath.Join(o.Settings.Cwd, "absent") }, true, "--cwd"},
		{"missing key", func(o *HeadlessOptions) { o.Settings.Provider.Name = "openrouter" }, false, "OPENROUTER_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := t.TempDir()
			o := headlessOpts(cwd, FormatText)
			tt.change(&o)
			var out bytes.Buffer
			err := RunHeadless(context.Background(), o, &out, &out)
			if err == nil || IsUsage(err) != tt.usage || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v (usage %v), want usage=%v mentioning %q", err, IsUsage(err), tt.usage, tt.want)
			}
			if tt.name == "missing key" && !errors.Is(err, ErrMissingKey) {
				t.Fatalf("err %v, want ErrMissingKey", err)
			}
			if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) || out.Len() != 0 {
				t.Fatalf("bad settings created %s or printed %q", room.Folder, out.String())
			}
		})
	}
}

func TestHeadlessCancelSaves(t *testing.T) {
	cwd := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := headlessOpts(cwd, FormatJSONL)
	// About 5 ms a token. The output is the room read back: its token
	// events are the drafts' growth, up to 30 a second, several tokens
	// each, trailing the engine by at most a draft interval (33 ms). A
	// cancel once the output shows ten words of a turn lands well inside
	// that turn (a turn here is about a hundred tokens).
	o.Settings.Provider.Pace = 5 << 20
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- RunHeadless(ctx, o, pw, &bytes.Buffer{})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var said strings.Builder
	cancelled := false
	for sc.Scan() {
		var ev struct {
			Event string
			Data  struct{ Text string }
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Event {
		case "turn_start":
			said.Reset()
		case "token":
			said.WriteString(ev.Data.Text)
			if !cancelled && len(strings.Fields(said.String())) >= 10 {
				cancelled = true
				cancel()
			}
		}
	}
	err := <-errc
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	st, err := onlyRoom(t, cwd).State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != ReasonCancelled || len(st.Messages) == 0 || st.Messages[len(st.Messages)-1].Kind != KindIncomplete {
		t.Fatalf("closed %+v, %d messages", st.Closed, len(st.Messages))
	}
}

func TestHeadlessProviderFailure(t *testing.T) {
	fs := newFakeServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"max_tokens is too large"}}`)
	})
	cwd := t.TempDir()
	o := headlessOpts(cwd, FormatText)
	o.Settings.Provider = ProviderConfig{Name: "openai", BaseURL: fs.URL + "/v1"}
	var out bytes.Buffer
	err := RunHeadless(context.Background(), o, &out, &bytes.Buffer{})
	if err == nil || IsUsage(err) || !strings.Contains(err.Error(), "HTTP 400") || !strings.Contains(err.Error(), "Product Manager") {
		t.Fatalf("err %v", err)
	}
	st, _ := onlyRoom(t, cwd).State()
	if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, ReasonFailed) || !strings.Contains(st.Closed.Reason, "max_tokens is too large") {
		t.Fatalf("closed %+v", st.Closed)
	}
	if !strings.Contains(out.String(), "The debate stopped:") {
		t.Errorf("text output does not say it stopped:\n%s", out.String())
	}
}

// TestHeadlessCancelIsOneLine: a debate stopped by its context returns
// the one line to show (a *StoppedError, context.Canceled), and writes no
// closing text: the text format only ends the cut turn's line, md writes
// nothing.
func TestHeadlessCancelIsOneLine(t *testing.T) {
	for _, format := range []string{FormatText, FormatMD} {
		t.Run(format, func(t *testing.T) {
			o := headlessOpts(t.TempDir(), format)
			o.Settings.Provider.Pace = time.Millisecond
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if format == FormatMD {
				cancel() // md runs unpaced: stop it from the start
			} else {
				time.AfterFunc(150*time.Millisecond, cancel)
			}
			var out, errOut bytes.Buffer
			err := RunHeadless(ctx, o, &out, &errOut)
			var se *StoppedError
			if !errors.As(err, &se) || !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "context canceled") {
				t.Fatalf("err %v", err)
			}
			if strings.Count(errOut.String(), "\n") != 1 || !strings.HasPrefix(errOut.String(), "roundtable: saving the debate in room ") {
				t.Errorf("stderr before the stop line: %q", errOut.String())
			}
			switch format {
			case FormatMD:
				if out.Len() != 0 {
					t.Errorf("md wrote %q", out.String())
				}
			case FormatText:
				// The stop lands mid-turn ("[incomplete]" ends the cut
				// line), between a speaker's header and its first token
				// (nothing was said, so the header is the last line), or
				// between two turns (a whole turn is the last thing); in
				// every case stdout ends with a whole line and says nothing
				// of the stop, which is stderr's.
				if strings.Contains(out.String(), "stopped") || !strings.HasSuffix(out.String(), "\n") || strings.Contains(out.String(), "[incomplete]") && !strings.HasSuffix(out.String(), "[incomplete]\n") {
					t.Errorf("text ends %q", out.String()[max(out.Len()-80, 0):])
				}
			}
		})
	}
}

// TestOutputCauseNamesTheHangUp: a terminal that goes fails the write
// (EIO) and sends SIGHUP, in either order; the debate stops for the
// hang-up when it comes, and for the closed output otherwise.
func TestOutputCauseNamesTheHangUp(t *testing.T) {
	hup := errors.New("hung up (SIGHUP)")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		time.Sleep(50 * time.Millisecond)
		cancel(hup)
	}()
	eio := &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EIO}
	if got := outputCause(ctx, eio); got != hup {
		t.Errorf("EIO, then the hang-up: cause %v, want %v", got, hup)
	}
	if got := outputCause(context.Background(), syscall.EPIPE); got != ErrOutputClosed {
		t.Errorf("EPIPE: cause %v, want ErrOutputClosed", got)
	}
	if got := outputCause(context.Background(), eio); got != ErrOutputClosed {
		t.Errorf("EIO with no hang-up: cause %v, want ErrOutputClosed", got)
	}
}

// TestHeadlessNamesTheProvider: each format names the provider and its
// model, on the mock and on an OpenAI-compatible server (an httptest
// server speaking the streaming wire format): the text's panel line, the
// Markdown's byline and jsonl's session_start.
func TestHeadlessNamesTheProvider(t *testing.T) {
	cs := debatetest.NewCutServer(t, 0, debatetest.CutOptions{})
	for _, tc := range []struct {
		name            string
		prov            ProviderConfig
		text, md, jsonl string
	}{
		{"mock", ProviderConfig{}, "(1 round, mock)", "; provider mock.*", `"provider":"mock","model":"mock"}}`},
		{
			"openai",
			ProviderConfig{Name: ProviderOpenAI, BaseURL: cs.URL + "/v1", Model: "tiny-4m", APIKey: "k"},
			"(1 round, openai · tiny-4m)", "; provider openai · tiny-4m.*", `"provider":"openai","model":"tiny-4m"}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for format, want := range map[string]string{FormatText: tc.text, FormatMD: tc.md, FormatJSONL: tc.jsonl} {
				o := headlessOpts(t.TempDir(), format)
				o.Settings.Config.Rounds, o.Settings.Provider = 1, tc.prov
				var out bytes.Buffer
				if err := RunHeadless(context.Background(), o, &out, &bytes.Buffer{}); err != nil {
					t.Fatalf("%s: %v", format, err)
				}
				first, _, _ := strings.Cut(strings.TrimPrefix(out.String(), "Debate: Should we adopt GraphQL\n"), "\n")
				if format == FormatMD {
					_, rest, _ := strings.Cut(out.String(), "\n\n")
					first, _, _ = strings.Cut(rest, "\n")
				}
				if !strings.HasSuffix(first, want) {
					t.Errorf("%s: the line naming the panel is %q, want it to end %q", format, first, want)
				}
			}
		})
	}
}
