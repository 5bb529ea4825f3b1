package room

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostURL: host --rotate reads back the URL a host recorded, and
// nothing from a host.json that holds no http(s) URL.
func TestHostURL(t *testing.T) {
	r, _, err := Create(t.TempDir(), "alpha", CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := r.HostURL(); ok {
		t.Fatalf("HostURL with no host.json = %q", u)
	}
	if err := r.RecordHost("http://127.0.0.1:40123/mcp"); err != nil {
		t.Fatal(err)
	}
	if u, ok := r.HostURL(); !ok || u != "http://127.0.0.1:40123/mcp" {
		t.Fatalf("HostURL = %q, %v", u, ok)
	}
	p := filepath.Join(r.Dir(), HostFile)
	for _, body := range []string{`{"url":"file:///etc/passwd"}`, `{"url":"http://"}`, `not json`, `{"url":"http://h/` + strings.Repeat("a", maxHostFile) + `"}`} {
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if u, ok := r.HostURL(); ok {
			t.Fatalf("HostURL of %.40q = %q; want none", body, u)
		}
	}
}
