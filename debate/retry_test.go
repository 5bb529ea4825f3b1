package debate

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestInvariantsWithRetries has providers retry random requests, persona
// turns and the moderator's alike, and checks that the retry events keep
// the contract (invariant 6) with the others intact, and that none is
// lost.
func TestInvariantsWithRetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for i := range 30 {
		n := 1 + rng.IntN(5)
		rounds := 1 + rng.IntN(4)
		stop := i%3 == 0
		type key struct {
			round   int
			who     string
			purpose Purpose
		}
		plan := map[key]int{} // failed attempts before the reply
		for range 1 + rng.IntN(6) {
			k := key{1 + rng.IntN(rounds), personasN(n)[rng.IntN(n)].Name, PurposeTurn}
			switch rng.IntN(4) {
			case 0:
				k = key{rounds, "Moderator", PurposeVerdict}
			case 1:
				if stop && rounds > 1 {
					k = key{1 + rng.IntN(rounds-1), "Moderator", PurposeConsensus}
				}
			}
			plan[k] = 1 + rng.IntN(3)
		}
		want := 0
		for _, v := range plan {
			want += v
		}
		p := &script{retries: func(req Request) int {
			return plan[key{req.Info.Round, req.Info.Speaker.Name, req.Info.Purpose}]
		}}
		cfg := Config{Topic: "t", Personas: personasN(n), Rounds: rounds, BlindOpening: i%2 == 0, StopOnConsensus: stop}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			eng, err := New(cfg, p)
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(t, eng.Run(context.Background()))
			checkInvariants(t, evs, eng.Config())
			if last := evs[len(evs)-1]; last.Type != EventDone {
				t.Fatalf("ended with %s %q", last.Type, last.Text)
			}
			got := 0
			for _, ev := range evs {
				if ev.Type == EventRetry {
					got++
				}
			}
			if got != want {
				t.Fatalf("%d retry events, want %d (plan %v)", got, want, plan)
			}
		})
	}
}

// rateLimited is an OpenAI-compatible server that answers the first
// limited chat requests with HTTP 429 (asking to wait 5 ms), then streams
// "Fine." to every one.
func rateLimited(t *testing.T, limited int) *fakeServer {
	return newFakeServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n <= limited {
			w.Header().Set("Retry-After-Ms", "5")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`)
			return
		}
		s := startSSE(w)
		s.chunk("Fine", "")
		s.chunk(".", "stop")
		s.usage(12, 2, nil)
		s.done()
	})
}

// TestRetryEventsFromHTTP: a server speaking OpenAI's streaming wire
// format answers 429 twice, then streams; the debate shows both retries in
// the first turn, before its first token, counted 2/4 and 3/4.
func TestRetryEventsFromHTTP(t *testing.T) {
	fs := rateLimited(t, 2)
	s := Settings{
		Config:   Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas()[:2], Rounds: 1},
		Provider: ProviderConfig{Name: ProviderOpenAI, BaseURL: fs.URL + "/v1", Model: "m"},
		Cwd:      t.TempDir(), Getenv: envOf(nil),
	}
	sess, err := Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, sess.Events())
	checkInvariants(t, evs, sess.Config())
	var retries []Event
	firstToken := -1
	for i, ev := range evs {
		switch {
		case ev.Type == EventRetry:
			retries = append(retries, ev)
		case ev.Type == EventToken && ev.Text != "" && firstToken < 0:
			firstToken = i
		}
	}
	if len(retries) != 2 || evs[len(evs)-1].Type != EventDone {
		t.Fatalf("retries %+v, last %+v", retries, evs[len(evs)-1])
	}
	for i, rt := range retries {
		if rt.Agent != "Product Manager" || rt.Round != 1 || rt.Status != 429 || rt.Attempt != i+2 || rt.Attempts != 4 || rt.Wait != 5*time.Millisecond {
			t.Errorf("retry %d: %+v", i, rt)
		}
	}
	last := retries[len(retries)-1]
	if got, want := last.RetryLabel(), fmt.Sprintf("retrying after HTTP 429 · attempt %d/4", last.Attempt); got != want {
		t.Errorf("label %q, want %q", got, want)
	}
	// The JSON line carries the same.
	b, err := last.MarshalJSON()
	if want := fmt.Sprintf(`{"event":"retry","data":{"round":1,"agent":"Product Manager","reason":"HTTP 429","status":429,"attempt":%d,"max_attempts":4,"wait_ms":5}}`, last.Attempt); err != nil || string(b) != want {
		t.Errorf("json %s %v", b, err)
	}
}

// TestRetryNotedHeadless: the text format keeps retries out of the
// debate's text and says them on stderr, one line each.
func TestRetryNotedHeadless(t *testing.T) {
	fs := rateLimited(t, 1)
	o := headlessOpts(t.TempDir(), FormatText)
	o.Settings.Provider = ProviderConfig{Name: ProviderOpenAI, BaseURL: fs.URL + "/v1", Model: "m"}
	var out, errOut bytes.Buffer
	if err := RunHeadless(context.Background(), o, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if want := "roundtable: Product Manager: retrying after HTTP 429 · attempt 2/4 (in 5ms)\n"; !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
	}
	if strings.Contains(out.String(), "retrying") {
		t.Errorf("stdout carries the retry:\n%s", out.String())
	}
}
