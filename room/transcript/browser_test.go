package transcript

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// chromiumNames are the names Debian and others give the browser.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findChromium returns the headless browser the browser tests run, or fails
// the test: CI installs it (.ci/run), and a security test that skips
// silently would prove nothing.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ROUNDTABLE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatalf("no Chromium found (looked for %s): install it with `apt-get install -y chromium`, "+
		"or set ROUNDTABLE_CHROMIUM to its path; this test proves the HTML transcript runs no script", strings.Join(chromiumNames, ", "))
	return ""
}

// beacon counts every request that reaches it.
type beacon struct {
	srv  *httptest.Server
	mu   sync.Mutex
	hits []string
}

func newBeacon(t *testing.T) *beacon {
	t.Helper()
	b := &beacon{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.hits = append(b.hits, r.Method+" "+r.URL.Path)
		b.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *beacon) requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.hits...)
}

// dumpDOM opens a file in headless Chromium, lets its virtual clock run (so
// timers, animations and autofocus would fire) and returns the DOM as the
// page left it.
func dumpDOM(t *testing.T, chromium, page string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--mute-audio",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=3000",
		"--dump-dom", "file://"+page)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium --dump-dom %s: %v\n%s", page, err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "</html>") {
		t.Fatalf("chromium dumped no page for %s:\nstdout: %s\nstderr: %s", page, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// TestBrowserRunsNoScript opens the hostile room's page in headless Chromium
// and proves that none of its payloads ran (each would set the title, mark
// the root element and request the beacon) and that the page made no
// request at all. A control page, the same payload without the sanitizer
// and the CSP, shows that the test would see a payload that runs.
func TestBrowserRunsNoScript(t *testing.T) {
	chromium := findChromium(t)
	dir := t.TempDir()

	control := newBeacon(t)
	controlPage := filepath.Join(dir, "control.html")
	writeFile(t, controlPage, []byte("<!DOCTYPE html><html><head><title>control</title></head><body><p>control</p>"+
		"<script>"+hostilePayload(control.srv.URL, "control")+"</script>"+
		`<img src="`+control.srv.URL+`/control-img" alt=""></body></html>`))
	dom := dumpDOM(t, chromium, controlPage)
	if !strings.Contains(dom, "<title>PWNED</title>") || !strings.Contains(dom, `data-pwned="control"`) {
		t.Fatalf("the control payload left no mark, so this test could not see one either:\n%s", dom)
	}
	if len(control.requests()) == 0 {
		t.Fatalf("the control page reached no beacon, so this test could not see a request either")
	}

	hostile := newBeacon(t)
	r := hostileRoom(t, hostile.srv.URL)
	page := filepath.Join(dir, "hostile.html")
	writeFile(t, page, []byte(renderPage(t, r)))
	dom = dumpDOM(t, chromium, page)
	if strings.Contains(dom, "PWNED</title>") || strings.Contains(dom, "data-pwned=") {
		t.Errorf("a payload ran in the hostile page; the DOM after loading:\n%s", dom)
	}
	if reqs := hostile.requests(); len(reqs) > 0 {
		t.Errorf("the hostile page made %d requests: %v", len(reqs), reqs)
	}
	if n := strings.Count(dom, "<article "); n != hostileMessageCount() {
		t.Errorf("the browser sees %d messages, want %d: one broke out of its place", n, hostileMessageCount())
	}
	if !strings.Contains(dom, `<footer class="end closed">`) {
		t.Errorf("the page's footer is gone: a message swallowed the rest of the page")
	}
}
