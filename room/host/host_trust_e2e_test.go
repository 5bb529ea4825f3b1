package host_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// startHostStderr runs `roundtable host args...` (no --listen added),
// keeping its output, and waits for the serving line; it returns the URL
// and the stdout and stderr so far and to come. The host is killed at the
// test's end.
func startHostStderr(t *testing.T, args ...string) (url string, stdout, stderr *hosttest.LockedBuffer) {
	t.Helper()
	cmd := exec.Command(hosttest.Binary(), append([]string{"host"}, args...)...)
	stdout, stderr = &hosttest.LockedBuffer{}, &hosttest.LockedBuffer{}
	cmd.Stderr = stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	urlc := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			_, _ = stdout.Write([]byte(sc.Text() + "\n"))
			if m := hosttest.ServingLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urlc <- m[1]:
				default:
				}
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case url = <-urlc:
	case <-done:
		t.Fatalf("host exited before serving:\n%s", stderr)
	case <-time.After(20 * time.Second):
		t.Fatalf("host did not print its URL:\n%s", stderr)
	}
	return url, stdout, stderr
}

// TestHostCommandLineMistakes (issue 20, item 9): each mistake is refused
// with a sentence before the host says it serves, and a mistyped room is
// not created.
func TestHostCommandLineMistakes(t *testing.T) {
	cwd := t.TempDir()
	issueTokens(t, cwd, "real", 3)
	out, stderr, code := hosttest.Run(t, "host", "--room", "real", "--cwd", cwd, "--listen", "127.0.0.1:99999")
	if code != 2 || !strings.Contains(stderr, "65535") || strings.Contains(out, "serving") {
		t.Fatalf("--listen 127.0.0.1:99999: exit %d\n%s%s; want a usage error (2) naming the port range", code, out, stderr)
	}
	out, stderr, code = hosttest.Run(t, "host", "--room", "real", "--cwd", cwd, "--allow-origin", "app.example.com")
	if code != 2 || !strings.Contains(stderr, "--allow-origin") || !strings.Contains(stderr, "scheme://host") || strings.Contains(out, "serving") {
		t.Fatalf("--allow-origin app.example.com: exit %d\n%s%s; want a usage error (2) saying how to write an origin", code, out, stderr)
	}
	missing := filepath.Join(cwd, "missing.pem")
	out, stderr, code = hosttest.Run(t, "host", "--room", "real", "--cwd", cwd, "--tls-cert", missing, "--tls-key", missing)
	if code == 0 || strings.Contains(out, "serving") || !strings.Contains(stderr, missing) || !strings.Contains(stderr, "PEM") {
		t.Fatalf("--tls-cert %s: exit %d\n%s%s; want refused before serving, naming the file", missing, code, out, stderr)
	}
	out, stderr, code = hosttest.Run(t, "host", "--room", "nope", "--cwd", cwd)
	if code != 2 || !strings.Contains(stderr, `roundtable seed --room nope --topic`) || strings.Contains(out, "rt_") {
		t.Fatalf("host --room nope: exit %d\n%s%s; want refused as seat refuses it", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable", "nope")); err == nil {
		t.Fatal("host --room nope created the room")
	}
}

// TestHostInsecureWarns: --insecure on an address other machines reach is
// served, with a warning on stderr; on loopback it says nothing.
func TestHostInsecureWarns(t *testing.T) {
	cwd := t.TempDir()
	issueTokens(t, cwd, "open", 3)
	_, _, stderr := startHostStderr(t, "--room", "open", "--cwd", cwd, "--listen", "0.0.0.0:0", "--insecure")
	if !strings.Contains(stderr.String(), "warning: --insecure") || !strings.Contains(stderr.String(), "clear text") {
		t.Fatalf("stderr of host --insecure on 0.0.0.0: %q; want a warning", stderr)
	}
	_, _, stderr = startHostStderr(t, "--room", "open", "--cwd", cwd, "--listen", "127.0.0.1:0", "--insecure")
	if strings.Contains(stderr.String(), "warning") {
		t.Fatalf("stderr of host --insecure on loopback: %q; want none", stderr)
	}
}

// TestHostRotatePrintsTheRunningPort: host --rotate prints lines with the
// URL the room's host serves at, not the default port.
func TestHostRotatePrintsTheRunningPort(t *testing.T) {
	cwd := t.TempDir()
	issueTokens(t, cwd, "turn", 3)
	h := hosttest.Start(t, "--room", "turn", "--cwd", cwd)
	out, stderr, code := hosttest.Run(t, "host", "--room", "turn", "--cwd", cwd, "--rotate", "peer")
	if code != 0 || !strings.Contains(out, h.URL) || strings.Contains(out, ":8765") {
		t.Fatalf("rotate: exit %d\n%s%s; want the lines to name %s", code, out, stderr, h.URL)
	}
	// --listen says otherwise: its address is used.
	out, _, _ = hosttest.Run(t, "host", "--room", "turn", "--cwd", cwd, "--rotate", "peer", "--listen", "127.0.0.1:9911")
	if !strings.Contains(out, "127.0.0.1:9911") {
		t.Fatalf("rotate --listen: %s", out)
	}
}

// TestHostRefusesUntrustedTokens (issue 20, item 4): a room folder other
// users can write stops the host, saying what to run; host --all leaves
// that room out, says why on stderr and serves it once it is fixed; a
// tokens.json planted in a running host's room opens nothing.
func TestHostRefusesUntrustedTokens(t *testing.T) {
	cwd := t.TempDir()
	good := issueTokens(t, cwd, "good", 3)
	issueTokens(t, cwd, "open", 3)
	openDir := filepath.Join(cwd, ".roundtable", "open")
	if err := os.Chmod(openDir, 0o777); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := hosttest.Run(t, "host", "--room", "open", "--cwd", cwd)
	if code != 1 || !strings.Contains(stderr, "chmod go-w "+openDir) || strings.Contains(out, "serving") {
		t.Fatalf("host a room others can write: exit %d\n%s%s; want refused with chmod go-w %s", code, out, stderr, openDir)
	}
	url, outs, errs := startHostStderr(t, "--all", "--cwd", cwd, "--listen", "127.0.0.1:0")
	waitUntil(t, func() bool { return strings.Contains(errs.String(), "room open is not served") }, "the --all host to say room open is not served:\n"+errs.String())
	if !strings.Contains(errs.String(), "chmod go-w "+openDir) {
		t.Fatalf("stderr: %s", errs)
	}
	if code, _, _ := rawPost(t, url, "Bearer "+good[room.GrantLead], "", strings.NewReader(initBody)); code != 200 {
		t.Fatalf("a trusted room's token: HTTP %d", code)
	}
	// Fixed as the line says, the room is served.
	if err := os.Chmod(openDir, 0o755); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return strings.Contains(outs.String(), "now also serving open") }, "room open to be served once fixed:\n"+errs.String())

	// Another user plants a tokens.json in the good room.
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root (the CI runs the tests as root)")
	}
	planted := "rt_" + strings.Repeat("A", 43)
	plantTokensFile(t, filepath.Join(cwd, ".roundtable", "good", room.TokensFile), planted)
	for _, tok := range []string{planted, good[room.GrantLead]} {
		if code, _, body := rawPost(t, url, "Bearer "+tok, "", strings.NewReader(initBody)); code != 401 {
			t.Fatalf("token %.8s… after the plant: HTTP %d %s; want 401", tok, code, body)
		}
	}
	// The host's owner is told, on stderr.
	waitUntil(t, func() bool { return strings.Contains(errs.String(), "no token of the room works") }, "the host to say the room's tokens are refused:\n"+errs.String())
	if !strings.Contains(errs.String(), "belongs to nobody") {
		t.Fatalf("stderr: %s", errs)
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// plantTokensFile writes a tokens.json whose lead token is planted, owned
// by nobody and mode 0644, replacing p by a rename.
func plantTokensFile(t *testing.T, p, planted string) {
	t.Helper()
	sum := sha256Hex(planted)
	tmp := p + ".planted"
	body := `{"tokens":[{"grant":"lead","sha256":"` + sum + `","created":"2026-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

// waitUntil polls cond until it holds, failing after 20 s with what.
func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestHostGivesNamesNotAddresses (issue 20, item 8): what a remote client
// is shown names rooms and seats, never the host's addresses, pid, session
// ids or absolute paths; server.log on the host's disk keeps them.
func TestHostGivesNamesNotAddresses(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "plain", 3)
	h := hosttest.Start(t, "--room", "plain", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	obs := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantObserver], hosttest.ProtoLegacy)
	hidden := func(what, text string) {
		t.Helper()
		for _, leak := range []string{cwd, "127.0.0.1:", "remote=", "pid=", "session=", "rt-"} {
			if strings.Contains(text, leak) {
				t.Fatalf("%s shows %q to a remote client:\n%s", what, leak, text)
			}
		}
	}
	st := lead.Call("room_status", nil)
	hidden("room_status", st.Text)
	if st.JSON["transcript_dir"] != ".roundtable/plain" {
		t.Fatalf("transcript_dir %v; want .roundtable/plain", st.JSON["transcript_dir"])
	}
	if r := lead.Call("post", map[string]any{"text": "Write-through keeps the cache honest."}); r.IsError {
		t.Fatal(r.Text)
	}
	if r := peer.Call("post", map[string]any{"text": "Agreed; write the spec."}); r.IsError {
		t.Fatal(r.Text)
	}
	w := lead.Call("write_spec", map[string]any{"text": "# Spec\n\nWrite-through.\n"})
	hidden("write_spec", w.Text)
	if w.JSON["written"] != "SPEC-plain.md" {
		t.Fatalf("write_spec written %v; want SPEC-plain.md", w.JSON["written"])
	}
	// An error naming a file of the room: the spec's path is a folder.
	spec := filepath.Join(cwd, "SPEC-plain.md")
	if err := os.Remove(spec); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := lead.Call("write_spec", map[string]any{"text": "# Spec\n"})
	if !bad.IsError || !strings.Contains(bad.Text, "SPEC-plain.md") {
		t.Fatalf("write_spec onto a folder: %s", bad.Text)
	}
	hidden("write_spec's error", bad.Text)

	o := obs.Call("observe_room", map[string]any{"wait_seconds": 0})
	if o.IsError || !strings.Contains(o.Text, "connect") {
		t.Fatalf("observe_room: %s", o.Text)
	}
	hidden("observe_room", o.Text)
	// The observer still sees who is connected, by name.
	var snap room.Snapshot
	if err := json.Unmarshal([]byte(o.Text), &snap); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snap.Log, "seat=lead") || !strings.Contains(snap.Log, "transport=http") {
		t.Fatalf("observe_room's log lost the seats' names:\n%s", snap.Log)
	}
	// The host's owner keeps the addresses in server.log on disk.
	if log := serverLog(t, cwd, "plain"); !strings.Contains(log, "remote=127.0.0.1:") || !strings.Contains(log, "pid=") {
		t.Fatalf("server.log on disk lost the addresses:\n%s", log)
	}
}
