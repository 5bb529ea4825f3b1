package mcpserver_test

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestPIEBuildServesASeat builds roundtable as a position-independent
// executable, as several Linux distributions package Go programs
// (`go build -buildmode=pie`), and runs a seat for over a second over stdio:
// it answers initialize and a tool call, is still alive and answering after
// a second, and exits 0 when stdin closes. A seat that tampered with its own
// executable's mappings once died here with SIGSEGV a quarter second in.
func TestPIEBuildServesASeat(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "roundtable-pie")
	if out, err := exec.Command("go", "build", "-buildmode=pie", "-o", bin, "github.com/roundtable-dev/roundtable/cmd/roundtable").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=pie: %v\n%s", err, out)
	}
	if runtime.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		typ := f.Type
		f.Close()
		if typ != elf.ET_DYN {
			t.Fatalf("the build is ELF type %v, want ET_DYN (position-independent)", typ)
		}
	}

	cmd := exec.Command(bin, "--room", "pie", "--seat", "lead", "--agent", "pie-test", "--cwd", t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &hosttest.LockedBuffer{}
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	send := func(line string) {
		t.Helper()
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatalf("write to the seat: %v (stderr: %s)", err, stderr.String())
		}
	}
	// reply reads the next line, which must be the response to id.
	reply := func(id int) map[string]any {
		t.Helper()
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the seat closed stdout before answering request %d (stderr: %s)", id, stderr.String())
			}
			var msg map[string]any
			if err := json.Unmarshal([]byte(line), &msg); err != nil {
				t.Fatalf("stdout carried a line that is not JSON-RPC: %q", line)
			}
			if got, _ := msg["id"].(float64); int(got) != id || msg["result"] == nil {
				t.Fatalf("want the result of request %d, got %s", id, line)
			}
			return msg["result"].(map[string]any)
		case <-time.After(10 * time.Second):
			t.Fatalf("no reply to request %d in 10 s (stderr: %s)", id, stderr.String())
		}
		return nil
	}
	statusCall := func(id int) {
		t.Helper()
		send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"room_status","arguments":{}}}`)
		res := reply(id)
		data, _ := json.Marshal(res)
		if res["isError"] == true || !strings.Contains(string(data), `you_are`) || !strings.Contains(string(data), `lead`) {
			t.Fatalf("room_status: %s", data)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pie-test","version":"1"}}}`)
	if info, _ := reply(1)["serverInfo"].(map[string]any); info["name"] != "roundtable" {
		t.Fatalf("initialize: serverInfo %v", info)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	statusCall(2)

	// Stay up past the first second, then prove the seat still answers.
	select {
	case err := <-exited:
		t.Fatalf("the seat exited after %v: %v (stderr: %s)", time.Since(start).Round(time.Millisecond), err, stderr.String())
	case <-time.After(time.Until(start.Add(time.Second))):
	}
	statusCall(3)

	if err := stdin.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the seat did not exit cleanly on EOF: %v (stderr: %s)", err, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the seat did not exit within 5 s of EOF (stderr: %s)", stderr.String())
	}
	for _, bad := range []string{"SIGSEGV", "panic:", "fatal error"} {
		if strings.Contains(stderr.String(), bad) {
			t.Fatalf("stderr reports %q: %s", bad, stderr.String())
		}
	}
}
