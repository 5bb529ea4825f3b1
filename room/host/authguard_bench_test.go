package host_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fromLoopback is an HTTP client whose connections come from loopback
// address i of 127.1.0.0/16 (Linux answers on all of 127.0.0.0/8), so a
// benchmark can spread its wrong tokens over addresses and stay under the
// host's limit of failures per address (authguard.go).
func fromLoopback(i int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 1, byte(i>>8), byte(i))}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// postInit posts an initialize with the Authorization header auth and
// returns the HTTP status.
func postInit(b *testing.B, client *http.Client, url, auth string) int {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initBody))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// benchRefused is the "refused" case of BenchmarkHostTokenCheck: wrong
// tokens from an address whose failures are used up, refused 429 before
// the token is read. The bucket earns back one failure a second, so about
// one request a second is checked and refused 401; those are counted.
// The address is fromLoopback(*next), which it advances.
func benchRefused(b *testing.B, url, wrong string, next *int) {
	client := fromLoopback(*next)
	*next++
	defer client.CloseIdleConnections()
	for range 20 {
		if code := postInit(b, client, url, wrong); code != http.StatusUnauthorized {
			b.Fatalf("a wrong token within the burst got HTTP %d, want 401", code)
		}
	}
	checked := 0
	for b.Loop() {
		switch code := postInit(b, client, url, wrong); code {
		case http.StatusTooManyRequests:
		case http.StatusUnauthorized:
			checked++
		default:
			b.Fatalf("a blocked address got HTTP %d, want 429", code)
		}
	}
	if limit := int(b.Elapsed().Seconds()) + 1; checked > limit {
		b.Fatalf("%d wrong tokens were checked in %v from a blocked address, want at most %d", checked, b.Elapsed(), limit)
	}
	b.ReportMetric(float64(checked), "checked-401s")
}
