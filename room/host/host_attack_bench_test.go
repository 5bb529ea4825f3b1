package host_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// BenchmarkHostUnderAttack measures, against the built binary (without
// -race) with its default limits, what each attack costs the host and
// what a legitimate client saw meanwhile, for RELIABILITY.md:
//
//	go test -run '^$' -bench HostUnderAttack -benchtime 1x ./room/host/
//
// First, on the idle host, the client (a seated lead, the official Go
// SDK, from 127.0.0.1) makes its calls (room_status), 40 a second:
// the host's CPU per served call. Then, for each attack, the same calls
// on the idle host (the client's p95 latency) and again while four attackers (from another
// loopback address each) send as fast as they are answered: the host's
// peak RSS above its RSS before (/proc: VmHWM after clear_refs), its CPU
// per attacking request (the CPU of the window less the client's calls,
// from /proc/PID/task/*/schedstat) as a ratio to a served call, and the
// client's p95 as a ratio to the idle window just before.
func BenchmarkHostUnderAttack(b *testing.B) {
	for b.Loop() {
		hostUnderAttack(b)
	}
}

// The client's calls in each window: attackCalls, one every callEvery
// (40 a second, under the token's limit of 50).
const (
	attackCalls = 200
	callEvery   = 25 * time.Millisecond
)

// attack is one way to attack the host: one request (or connection) of an
// attacker from local, returning its answer's status ("" for none).
type attack struct {
	name string
	one  func(b *testing.B, local string) string
}

func hostUnderAttack(b *testing.B) {
	cwd := b.TempDir()
	toks := issueTokens(b, cwd, "siege", 100000)
	h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--room", "siege", "--cwd", cwd)
	pid := h.Cmd.Process.Pid
	cs, err := hosttest.DialHTTP(h.URL, hosttest.HTTPClient(toks[room.GrantLead], nil), hosttest.ProtoLegacy)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func() time.Duration {
		t0 := time.Now()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "room_status"})
		if err != nil || res.IsError {
			b.Fatalf("the client's call: %v %v", err, res)
		}
		return time.Since(t0)
	}
	for range 20 { // warm up
		call()
		time.Sleep(callEvery)
	}
	window := func() ([]time.Duration, time.Duration) {
		lat := make([]time.Duration, attackCalls)
		cpu0 := cpuNanos(b, pid)
		tick := time.NewTicker(callEvery)
		defer tick.Stop()
		for i := range lat {
			<-tick.C
			lat[i] = call()
		}
		return lat, time.Duration(cpuNanos(b, pid) - cpu0)
	}
	idleLat, idleCPU := window()
	served := idleCPU / attackCalls
	b.Logf("idle: client p95 %s, host CPU %s per served call", p95(idleLat), served)

	pu, _ := url.Parse(h.URL)
	obs := toks[room.GrantObserver]
	u := h.URL
	attacks := []attack{
		{"held 1 MiB bodies, no token", func(b *testing.B, local string) string { return heldOne(b, pu.Host, local) }},
		{"wrong tokens", func(b *testing.B, local string) string {
			return status(b, local, u, hreq{header: map[string]string{"Authorization": "Bearer " + wrongToken}, body: initBody})
		}},
		{"a seated session's ID, wrong tokens", func(b *testing.B, local string) string {
			return status(b, local, u, hreq{header: inSession(wrongToken, leadSession(cs)), body: listBody})
		}},
		{"cross-site page (Origin, no token)", func(b *testing.B, local string) string {
			return status(b, local, u, hreq{header: map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}, body: initBody})
		}},
		{"DNS rebinding (Host), right token", func(b *testing.B, local string) string {
			return status(b, local, u, hreq{header: map[string]string{"Host": "evil.example:" + pu.Port(), "Authorization": "Bearer " + obs}, body: initBody})
		}},
		{"new sessions, observer token", func(b *testing.B, local string) string {
			return status(b, local, u, hreq{header: map[string]string{"Authorization": "Bearer " + obs}, body: initBody})
		}},
		{"GET streams of sessions never issued", func(b *testing.B, local string) string {
			id := fmt.Sprintf("rt-%016x%016x", rand.Uint64(), rand.Uint64())
			return status(b, local, u, hreq{method: http.MethodGet, header: inSession(obs, id)})
		}},
	}
	type row struct {
		name           string
		mem            int // kB
		cpuX, p95X     float64
		reqs, perSec   int
		codes          string
		clientP95, cpu time.Duration
	}
	var rows []row
	for ai, a := range attacks {
		// The machine's load drifts: each attack's p95 is set against an
		// idle window just before it.
		before, _ := window()
		idleP95 := p95(before)
		resetPeak(b, pid)
		rss := procStatus(b, pid, "VmRSS")
		stop := make(chan struct{})
		var mu sync.Mutex
		codes := map[string]int{}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				local := fmt.Sprintf("127.0.%d.%d", 10+ai, 2+w)
				for {
					select {
					case <-stop:
						return
					default:
					}
					c := a.one(b, local)
					mu.Lock()
					codes[c]++
					mu.Unlock()
				}
			}()
		}
		time.Sleep(300 * time.Millisecond) // the attack under way
		mu.Lock()
		n0 := 0
		for _, n := range codes {
			n0 += n
		}
		mu.Unlock()
		t0 := time.Now()
		lat, cpu := window()
		took := time.Since(t0)
		mu.Lock()
		n := -n0
		for _, c := range codes {
			n += c
		}
		mu.Unlock()
		close(stop)
		wg.Wait()
		peak := procStatus(b, pid, "VmHWM")
		r := row{name: a.name, mem: peak - rss, reqs: n, perSec: int(float64(n) / took.Seconds()), clientP95: p95(lat), cpu: cpu}
		if n > 0 && served > 0 {
			r.cpuX = float64(cpu-served*attackCalls) / float64(n) / float64(served)
		}
		r.p95X = float64(r.clientP95) / float64(idleP95)
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(codes)) {
			parts = append(parts, fmt.Sprintf("%s×%d", cmpOr(k, "none"), codes[k]))
		}
		r.codes = strings.Join(parts, " ")
		rows = append(rows, r)
		time.Sleep(200 * time.Millisecond) // let the host settle
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nidle: client p95 %s, host CPU %s per served call\n", p95(idleLat).Round(time.Microsecond), served.Round(time.Microsecond))
	fmt.Fprintln(&sb, "| attack | attacking requests/s | answers | host memory (peak RSS above before) | host CPU per attacking request ÷ per served call | client p95 ÷ idle |")
	fmt.Fprintln(&sb, "|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %d | %s | %.1f MB | %.2f | %.2f |\n", r.name, r.perSec, r.codes, float64(r.mem)/1024, r.cpuX, r.p95X)
	}
	b.Log(sb.String())
	if out := os.Getenv("ROUNDTABLE_ATTACK_TABLE"); out != "" {
		_ = os.WriteFile(filepath.Clean(out), []byte(sb.String()), 0o644)
	}
	for _, r := range rows {
		b.ReportMetric(r.p95X, "p95-x-idle/"+strings.ReplaceAll(r.name, " ", "_"))
	}
}

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// leadSession is the session ID of the client's session.
func leadSession(cs *sdk.ClientSession) string { return cs.ID() }

// status sends q from local on a new connection and returns the answer's
// status.
func status(b *testing.B, local, u string, q hreq) string {
	c := addrClient(local)
	c.Transport.(*http.Transport).DisableKeepAlives = true
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	method := cmpOr(q.method, http.MethodPost)
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range q.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := c.Do(req.WithContext(ctx))
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	return strconv.Itoa(res.StatusCode)
}

// heldOne sends, from local, a POST with no token announcing 1 MiB and
// all of it but the last byte, and returns the answer's status.
func heldOne(b *testing.B, hostport, local string) string {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", hostport)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	head := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", hostport, 1<<20)
	if _, err := io.WriteString(c, head); err == nil {
		_, _ = c.Write(heldBody)
	}
	line, _ := bufio.NewReader(c).ReadString('\n')
	if f := strings.Fields(line); len(f) > 1 {
		return f[1]
	}
	return ""
}

var heldBody = make([]byte, 1<<20-1)

// cpuNanos is the CPU time pid's threads have used, in ns.
func cpuNanos(b *testing.B, pid int) int64 {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		b.Fatal(err)
	}
	var sum int64
	for _, t := range tasks {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // a thread that just ended
		}
		if f := strings.Fields(string(raw)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += n
		}
	}
	return sum
}

// p95 is the 95th percentile of lat.
func p95(lat []time.Duration) time.Duration {
	s := slices.Clone(lat)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)*95/100]
}
