package host_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestHostRacingClients: four HTTP clients in the lead seat race to post
// each round; the store lets exactly one through, and no seq repeats.
func TestHostRacingClients(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "race", 12)
	h := hosttest.Start(t, "--room", "race", "--cwd", cwd)
	leads := make([]*hosttest.SDKSeat, 4)
	for i := range leads {
		leads[i] = hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	}
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoModern)
	const rounds = 10
	for round := range rounds {
		var wg sync.WaitGroup
		results := make([]hosttest.ToolResult, len(leads))
		for i, l := range leads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = l.Call("post", map[string]any{"text": fmt.Sprintf("round %d from client %d", round, i)})
			}()
		}
		wg.Wait()
		accepted := 0
		for _, r := range results {
			if !r.IsError {
				accepted++
			} else if !strings.Contains(r.Text, "turn") {
				t.Fatalf("a racing post was refused for something else: %s", r.Text)
			}
		}
		if accepted != 1 {
			t.Fatalf("round %d: %d racing posts accepted, want 1", round, accepted)
		}
		if r := peer.Call("post", map[string]any{"text": fmt.Sprintf("reply %d", round)}); r.IsError {
			t.Fatal(r.Text)
		}
	}
	assertContiguous(t, cwd, "race", 2*rounds)
}

// assertContiguous checks the room's messages on disk are seq 1..n, each
// once.
func assertContiguous(t *testing.T, cwd, name string, n int) {
	t.Helper()
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for i, m := range st.Messages {
		if seen[m.Seq] {
			t.Fatalf("seq %d twice", m.Seq)
		}
		seen[m.Seq] = true
		if m.Seq != i+1 {
			t.Fatalf("message %d has seq %d", i, m.Seq)
		}
	}
	if n >= 0 && len(st.Messages) != n {
		t.Fatalf("%d messages on disk, want %d", len(st.Messages), n)
	}
}

// TestHostKill9MidPost: the host is killed with SIGKILL while two clients
// post as fast as they can; every post it acknowledged is on disk.
func TestHostKill9MidPost(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "killed", 100000)
	h := hosttest.Start(t, "--room", "killed", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoModern)
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoModern)
	var mu sync.Mutex
	var acked []int
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			s := lead
			if i%2 == 1 {
				s = peer
			}
			res, err := s.Session.CallTool(t.Context(), callParams("post", map[string]any{"text": fmt.Sprintf("post %d", i)}))
			if err != nil {
				return // the host is gone
			}
			seq, ok := postedSeq(res)
			if !ok {
				return
			}
			mu.Lock()
			acked = append(acked, seq)
			mu.Unlock()
		}
	}()
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 40 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = h.Cmd.Process.Signal(syscall.SIGKILL)
	<-h.Exited()
	<-stopped
	r, err := room.Open(cwd, "killed")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	onDisk := map[int]bool{}
	for _, m := range st.Messages {
		onDisk[m.Seq] = true
	}
	for _, seq := range acked {
		if !onDisk[seq] {
			t.Fatalf("acknowledged post %d is not on disk (%d acknowledged, %d on disk)", seq, len(acked), len(st.Messages))
		}
	}
	assertContiguous(t, cwd, "killed", -1)
}

// TestHostSlowloris: clients that send their headers a byte at a time do
// not stop others being served, and are cut off.
func TestHostSlowloris(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "slow", 3)
	h := hosttest.Start(t, "--room", "slow", "--cwd", cwd)
	u, _ := url.Parse(h.URL)
	var conns []net.Conn
	for range 50 {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		_, _ = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+u.Host+"\r\nX-Slow: ")
	}
	stopDrip := make(chan struct{})
	go func() {
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopDrip:
				return
			case <-tick.C:
				for _, c := range conns {
					_, _ = c.Write([]byte("a"))
				}
			}
		}
	}()
	defer close(stopDrip)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	for i := range 5 {
		if r := lead.Call("room_status", nil); r.IsError || r.JSON["room"] != "slow" {
			t.Fatalf("call %d while slow clients hang on: %s", i, r.Text)
		}
	}
	// Each slow client is cut off once the header timeout passes.
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
		_, err := io.ReadAll(c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("slow client %d was still connected 20 s on", i)
		}
		c.Close()
	}
}

// TestHostSIGTERM: on SIGTERM a parked wait returns idle at once, a post
// waiting on the room lock finishes, and the host exits 0.
func TestHostSIGTERM(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "term", 3)
	h := hosttest.Start(t, "--room", "term", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	parked := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 55})

	// Hold the room's lock, so the lead's post is in flight when the
	// signal comes.
	lock := flock.New(filepath.Join(cwd, ".roundtable", "term", ".lock"))
	if err := lock.Lock(); err != nil {
		t.Fatal(err)
	}
	posting := lead.CallAsync("post", map[string]any{"text": "in flight"})
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	_ = h.Cmd.Process.Signal(syscall.SIGTERM)
	w := <-parked
	if w.JSON["idle"] != true {
		t.Fatalf("parked wait on SIGTERM: %s", w.Text)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("the parked wait returned %s after SIGTERM, not at once", waited)
	}
	time.Sleep(300 * time.Millisecond)
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	if p := <-posting; p.IsError || p.JSON["posted"] != float64(1) {
		t.Fatalf("the post in flight did not finish: %s", p.Text)
	}
	select {
	case <-h.Exited():
	case <-time.After(30 * time.Second):
		t.Fatal("host did not exit")
	}
	if h.Err() != nil {
		t.Fatalf("host exit: %v", h.Err())
	}
	assertContiguous(t, cwd, "term", 1)
	log := serverLog(t, cwd, "term")
	for _, want := range []string{"wait_return seat=peer reason=idle", "disconnect seat=peer", "why=shutdown"} {
		if !strings.Contains(log, want) {
			t.Fatalf("server.log lacks %q:\n%s", want, log)
		}
	}
}

// TestHostListenRules: a non-local address needs TLS or --insecure; TLS
// serves https.
func TestHostListenRules(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "net", 3)
	_, stderr, code := hosttest.Run(t, "host", "--room", "net", "--cwd", cwd, "--listen", "0.0.0.0:0")
	if code != 2 || !strings.Contains(stderr, "--tls-cert") || !strings.Contains(stderr, "--insecure") {
		t.Fatalf("non-local without TLS: exit %d, %s", code, stderr)
	}
	if _, stderr, code := hosttest.Run(t, "host", "--cwd", cwd); code != 2 || !strings.Contains(stderr, "--room") {
		t.Fatalf("no room: exit %d, %s", code, stderr)
	}
	if _, stderr, code := hosttest.Run(t, "host", "--room", "net", "--cwd", cwd, "--tls-cert", "x.pem"); code != 2 || !strings.Contains(stderr, "--tls-key") {
		t.Fatalf("cert without key: exit %d, %s", code, stderr)
	}

	certFile, keyFile, pool := selfSigned(t)
	h := hosttest.Start(t, "--room", "net", "--cwd", cwd, "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(h.URL, "https://") {
		t.Fatalf("TLS host URL %s", h.URL)
	}
	s := hosttest.ConnectHTTPWith(t, h.URL, hosttest.HTTPClient(toks[room.GrantLead], &tls.Config{RootCAs: pool}), hosttest.ProtoLegacy)
	if r := s.Call("room_status", nil); r.JSON["room"] != "net" {
		t.Fatalf("over TLS: %s", r.Text)
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
}

// TestHostManyRoomsAndRotate: --all hosts every room; each token opens its
// own room only; --rotate replaces a token, in a running host too.
func TestHostManyRoomsAndRotate(t *testing.T) {
	cwd := t.TempDir()
	a := issueTokens(t, cwd, "alpha", 3)
	b := issueTokens(t, cwd, "beta", 3)
	h := hosttest.Start(t, "--all", "--cwd", cwd)
	sa := hosttest.ConnectHTTP(t, h.URL, a[room.GrantPeer], hosttest.ProtoLegacy)
	sb := hosttest.ConnectHTTP(t, h.URL, b[room.GrantPeer], hosttest.ProtoModern)
	if ra, rb := sa.Call("room_status", nil), sb.Call("room_status", nil); ra.JSON["room"] != "alpha" || rb.JSON["room"] != "beta" {
		t.Fatalf("rooms: %s / %s", ra.Text, rb.Text)
	}
	if _, stderr, code := hosttest.Run(t, "host", "--room", "nosuch", "--cwd", cwd, "--rotate", "peer"); code == 0 || !strings.Contains(stderr, "nosuch") {
		t.Fatalf("rotate in a missing room: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable", "nosuch")); err == nil {
		t.Fatal("--rotate created a room")
	}
	out, stderr, code := hosttest.Run(t, "host", "--room", "alpha", "--cwd", cwd, "--rotate", "peer")
	if code != 0 || strings.Contains(out, a[room.GrantPeer]) {
		t.Fatalf("rotate: exit %d %s %s", code, out, stderr)
	}
	// The old token no longer opens a session.
	if code, _, _ := rawPost(t, h.URL, "Bearer "+a[room.GrantPeer], "", strings.NewReader(initBody)); code != 401 {
		t.Fatalf("rotated token: HTTP %d", code)
	}
	if _, err := hosttest.DialHTTP(h.URL, hosttest.HTTPClient(a[room.GrantPeer], nil), hosttest.ProtoLegacy); err == nil {
		t.Fatal("the rotated token still connects")
	}
	if _, err := hosttest.DialHTTP(h.URL, hosttest.HTTPClient(b[room.GrantPeer], nil), hosttest.ProtoLegacy); err != nil {
		t.Fatalf("another room's token stopped working: %v", err)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T) (string, string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "roundtable test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}
