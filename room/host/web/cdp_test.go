package web_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/websocket"
)

// A browser is headless Chromium driven over the DevTools protocol: one
// page, whose script errors, console errors and requests it records.
type browser struct {
	t       testing.TB
	cmd     *exec.Cmd
	ws      *websocket.Conn
	session string

	mu       sync.Mutex
	next     int
	waiting  map[int]chan cdpReply
	errors   []string // script exceptions, console and CSP errors
	requests []string // every URL the page asked for
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type cdpMessage struct {
	ID        int             `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId"`
	cdpReply
}

// chromiumNames are the names Debian and others give the browser.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findChromium returns the browser, or fails the test: CI installs it
// (.ci/run), and a page test that skips proves nothing.
func findChromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("ROUNDTABLE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatalf("no Chromium found (looked for %s): install it with `apt-get install -y chromium`, or set ROUNDTABLE_CHROMIUM", strings.Join(chromiumNames, ", "))
	return ""
}

// startBrowser starts headless Chromium with one blank page of width×height.
func startBrowser(t testing.TB, width, height int) *browser {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(findChromium(t),
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--remote-allow-origins=http://127.0.0.1", "about:blank")
	inGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t, cmd: cmd, waiting: map[int]chan cdpReply{}}
	t.Cleanup(b.close)
	var port, path string
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); err == nil && len(lines) == 2 {
			port, path = lines[0], lines[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Chromium did not open its DevTools port in 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	ws, err := websocket.Dial("ws://127.0.0.1:"+port+path, "", "http://127.0.0.1")
	if err != nil {
		t.Fatalf("connect to Chromium's DevTools: %v", err)
	}
	ws.MaxPayloadBytes = 64 << 20
	b.ws = ws
	go b.read()
	var target struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	b.session = att.SessionID
	for _, m := range []string{"Runtime.enable", "Network.enable", "Page.enable", "Log.enable"} {
		b.do(m, nil, nil)
	}
	b.do("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
	}, nil)
	return b
}

func (b *browser) close() {
	if b.ws != nil {
		_ = b.ws.Close()
	}
	if b.cmd.Process != nil {
		killGroup(b.cmd)
		_ = b.cmd.Wait()
	}
}

// read takes every message of the DevTools connection: replies to calls,
// and the events the browser records.
func (b *browser) read() {
	for {
		var m cdpMessage
		if err := websocket.JSON.Receive(b.ws, &m); err != nil {
			b.mu.Lock()
			for id, ch := range b.waiting {
				ch <- cdpReply{Error: &struct {
					Message string `json:"message"`
				}{"the DevTools connection closed: " + err.Error()}}
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.waiting[m.ID]
			delete(b.waiting, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m.cdpReply
			}
			continue
		}
		b.event(m.Method, m.Params)
	}
}

func (b *browser) event(method string, params json.RawMessage) {
	var p struct {
		ExceptionDetails struct {
			Text      string
			Exception struct{ Description string }
		}
		Type    string
		Args    []struct{ Value any }
		Entry   struct{ Level, Text, Source, URL string }
		Request struct{ URL string }
	}
	_ = json.Unmarshal(params, &p)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch method {
	case "Runtime.exceptionThrown":
		b.errors = append(b.errors, "exception: "+p.ExceptionDetails.Text+" "+p.ExceptionDetails.Exception.Description)
	case "Runtime.consoleAPICalled":
		if p.Type == "error" {
			b.errors = append(b.errors, fmt.Sprintf("console.error: %v", p.Args))
		}
	case "Log.entryAdded":
		// A page answered with an error status is logged as a network
		// error (the sign-in form comes with 401): what matters of the
		// network is where the page went (requests).
		if p.Entry.Level == "error" && p.Entry.Source != "network" {
			b.errors = append(b.errors, "log ("+p.Entry.Source+"): "+p.Entry.Text+" "+p.Entry.URL)
		}
	case "Network.requestWillBeSent":
		b.requests = append(b.requests, p.Request.URL)
	}
}

// call sends a DevTools command (to the page when session is the page's)
// and decodes its result into out.
func (b *browser) call(session, method string, params, out any) {
	b.t.Helper()
	if err := b.try(session, method, params, out); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) try(session, method string, params, out any) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpReply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	if err := websocket.JSON.Send(b.ws, msg); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-time.After(60 * time.Second):
		return fmt.Errorf("%s: no answer from Chromium in 60 s", method)
	}
}

// do is call on the page.
func (b *browser) do(method string, params, out any) {
	b.t.Helper()
	b.call(b.session, method, params, out)
}

// eval runs expr in the page (DevTools is not bound by the page's CSP)
// and decodes its value into out.
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	var r struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct{ Text string }
	}
	b.do("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if r.ExceptionDetails != nil {
		b.t.Fatalf("evaluate %s: %s", expr, r.ExceptionDetails.Text)
	}
	if out != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			b.t.Fatalf("evaluate %s: %v (%s)", expr, err, r.Result.Value)
		}
	}
}

// navigate opens url in the page.
func (b *browser) navigate(url string) {
	b.t.Helper()
	b.do("Page.navigate", map[string]any{"url": url}, nil)
}

// waitFor polls expr (a boolean) until it holds, failing after limit.
func (b *browser) waitFor(ctx context.Context, what, expr string) {
	b.t.Helper()
	for {
		var r struct {
			Result struct{ Value bool }
		}
		ok := b.try(b.session, "Runtime.evaluate", map[string]any{"expression": "!!(" + expr + ")", "returnByValue": true}, &r) == nil && r.Result.Value
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			var html string
			b.eval("document.body ? document.body.innerText.slice(0, 3000) : document.documentElement.outerHTML.slice(0, 3000)", &html)
			b.t.Fatalf("waiting for %s: %v; the page:\n%s", what, ctx.Err(), html)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// screenshot saves the page as a PNG at path.
func (b *browser) screenshot(path string) {
	b.t.Helper()
	var r struct{ Data string }
	b.do("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": false}, &r)
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// signIn posts token through the page's sign-in form (the page shown
// for a room without a token) and waits for the room's page.
func (b *browser) signIn(ctx context.Context, token string) {
	b.t.Helper()
	b.waitFor(ctx, "the sign-in form", "document.getElementById('token')")
	b.eval("document.getElementById('token').value = "+strconv.Quote(token)+"; document.forms[0].submit(); true", nil)
	b.waitFor(ctx, "the room's page after signing in", "document.getElementById('room')")
}

// problems are the errors and the requests to anywhere but base the page
// made so far.
func (b *browser) problems(base string) (errs, outside []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.requests {
		if !strings.HasPrefix(u, base+"/") && u != base {
			outside = append(outside, u)
		}
	}
	return append([]string(nil), b.errors...), outside
}
