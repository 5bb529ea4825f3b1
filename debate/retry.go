package debate

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryPolicy says how a request that failed with 429 or 5xx before its
// first token is retried: the provider's one retry loop, tested.
type retryPolicy struct {
	maxRetries int           // retries after the first attempt
	base       time.Duration // backoff before the first retry, doubled each time
	maxWait    time.Duration // the longest wait, Retry-After included
	// sleep waits d or until ctx ends; tests replace it to record waits.
	sleep func(ctx context.Context, d time.Duration) error
}

func defaultRetry() retryPolicy {
	return retryPolicy{maxRetries: 3, base: 500 * time.Millisecond, maxWait: 30 * time.Second, sleep: sleepCtx}
}

// wait is how long to wait before retry number attempt (0 for the first
// retry). A server's Retry-After wins over the backoff; ok is false when it
// asks for more than maxWait, and then retrying is pointless.
func (p retryPolicy) wait(attempt int, se *StatusError) (d time.Duration, ok bool) {
	if se.HasRetryAfter {
		if se.RetryAfter > p.maxWait {
			return se.RetryAfter, false
		}
		return se.RetryAfter, true
	}
	d = p.base << attempt
	if d > p.maxWait || d <= 0 {
		d = p.maxWait
	}
	// Up to a quarter of jitter, so clients that failed together spread out.
	if q := int64(d / 4); q > 0 {
		d -= time.Duration(rand.Int64N(q))
	}
	return d, true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// parseRetryAfter reads Retry-After-Ms or Retry-After (seconds or an HTTP
// date). ok is false when neither is present or usable.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s > 1e9 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
