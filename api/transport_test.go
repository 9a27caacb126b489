package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// retryTestPolicy has small, distinct numbers so each wait is recognisable:
// backoffs with jitter 0.5 are 75ms, 150ms, then 225ms (capped at 300ms).
var retryTestPolicy = RetryPolicy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, MaxDelay: 300 * time.Millisecond, MaxRetryAfter: 10 * time.Second}

// retryTestWaits are the waits of retryTestPolicy between its 4 attempts.
var retryTestWaits = []time.Duration{75 * time.Millisecond, 150 * time.Millisecond, 225 * time.Millisecond}

func TestRetryPolicyBackoff(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	for _, tc := range []struct {
		n      int
		jitter float64
		want   time.Duration
	}{
		{0, 0, 50 * time.Millisecond},
		{0, 0.5, 75 * time.Millisecond},
		{0, 0.75, 87500 * time.Microsecond},
		{1, 0, 100 * time.Millisecond},
		{1, 0.5, 150 * time.Millisecond},
		{2, 0.5, 300 * time.Millisecond},
		{3, 0.5, 600 * time.Millisecond},
		{4, 0, 500 * time.Millisecond}, // 1.6s capped at 1s
		{4, 0.5, 750 * time.Millisecond},
		{10, 0.5, 750 * time.Millisecond},
		{30, 0.5, 750 * time.Millisecond},
		{31, 0.5, 750 * time.Millisecond},
		{1000, 0.5, 750 * time.Millisecond},
	} {
		if got := p.backoff(tc.n, tc.jitter); got != tc.want {
			t.Errorf("backoff(%d, %v) = %v, want %v", tc.n, tc.jitter, got, tc.want)
		}
	}
	// Defaults: 250ms doubling, capped at 8s; equal jitter keeps every wait
	// in [d/2, d] and never decreasing with n.
	d := RetryPolicy{}.withDefaults()
	prev := time.Duration(0)
	for n := range 64 {
		want := min(d.BaseDelay<<min(n, 20), d.MaxDelay)
		lo, hi := d.backoff(n, 0), d.backoff(n, 0.999999)
		if lo != want/2 || hi < want*99/100 || hi > want {
			t.Errorf("default backoff(%d) in [%v, %v], want [%v, %v]", n, lo, hi, want/2, want)
		}
		if lo < prev {
			t.Errorf("default backoff(%d) = %v < backoff(%d) = %v", n, lo, n-1, prev)
		}
		prev = lo
	}
	t.Run("huge base delay", func(t *testing.T) {
		// BaseDelay 2^34+1 ns (about 17s): shifted by 30 it wraps to 2^30 ns.
		p := RetryPolicy{BaseDelay: 1<<34 + 1, MaxDelay: 8 * time.Second}
		if got := p.backoff(30, 0); got != 4*time.Second {
			t.Errorf("backoff(30, 0) with BaseDelay %v, MaxDelay 8s = %v, want 4s (MaxDelay/2)", p.BaseDelay, got)
		}
	})
}

func TestTransportRetriesGETStatuses(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				http.Error(w, "try again", status)
			})
			c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
			_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
				t.Fatalf("error %v, want APIError %d", err, status)
			}
			var rl *RateLimitError
			if isRL := errors.As(err, &rl); isRL != (status == http.StatusTooManyRequests) {
				t.Errorf("errors.As(RateLimitError) = %v for %d", isRL, status)
			}
			if srv.count() != retryTestPolicy.MaxAttempts || resp.Attempts != retryTestPolicy.MaxAttempts {
				t.Errorf("requests %d, Attempts %d, want %d", srv.count(), resp.Attempts, retryTestPolicy.MaxAttempts)
			}
			if got := log.recorded(); !slices.Equal(got, retryTestWaits) {
				t.Errorf("waits %v, want %v", got, retryTestWaits)
			}
			if resp.StatusCode != status || resp.Cost != 0 {
				t.Errorf("response status %d cost %d", resp.StatusCode, resp.Cost)
			}
		})
	}
}

func TestTransportNoRetryOnOtherStatuses(t *testing.T) {
	for _, status := range []int{400, 403, 404, 406, 415, 418, 500, 501} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			http.Error(w, "no", status)
		})
		c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
		_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
			t.Errorf("%d: error %v", status, err)
		}
		if srv.count() != 1 || resp.Attempts != 1 || len(log.recorded()) != 0 {
			t.Errorf("%d: %d requests, Attempts %d, waits %v; want 1 request", status, srv.count(), resp.Attempts, log.recorded())
		}
	}
}

func TestTransportRetriesNetworkErrors(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { hangUp(t, w) })
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err == nil {
		t.Fatal("no error")
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		t.Errorf("network error is an APIError: %v", err)
	}
	if srv.count() != retryTestPolicy.MaxAttempts || resp.Attempts != retryTestPolicy.MaxAttempts {
		t.Errorf("requests %d, Attempts %d, want %d", srv.count(), resp.Attempts, retryTestPolicy.MaxAttempts)
	}
	if got := log.recorded(); !slices.Equal(got, retryTestWaits) {
		t.Errorf("waits %v, want %v", got, retryTestWaits)
	}
}

func TestTransportRetriesServerGone(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { io.WriteString(w, "[]") })
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: time.Minute}))
	srv.Close()
	_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err == nil {
		t.Fatal("server closed: no error")
	}
	if resp.Attempts != 3 {
		t.Errorf("Attempts %d, want 3", resp.Attempts)
	}
	if got, want := log.recorded(), []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond}; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
}

func TestTransportSuccessAfterFailures(t *testing.T) {
	failures := []func(w http.ResponseWriter){
		func(w http.ResponseWriter) { http.Error(w, "busy", http.StatusServiceUnavailable) },
		func(w http.ResponseWriter) { hangUp(t, w) },
		func(w http.ResponseWriter) { http.Error(w, "bad gateway", http.StatusBadGateway) },
		func(w http.ResponseWriter) { http.Error(w, "too many requests per second", http.StatusTooManyRequests) },
		func(w http.ResponseWriter) { http.Error(w, "timeout", http.StatusGatewayTimeout) },
	}
	for n := range 4 { // n failures, then success; MaxAttempts is 4
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, i int) {
			if i <= n {
				failures[i-1](w)
				return
			}
			w.Header().Set("X-Monthly-Points-Used", "100")
			io.WriteString(w, exchangesJSON)
		})
		c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
		ex, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
		if err != nil {
			t.Errorf("%d failures: %v", n, err)
			continue
		}
		if len(ex) != 2 || ex[1].Code != "B" {
			t.Errorf("%d failures: body %+v", n, ex)
		}
		if resp.Attempts != n+1 || srv.count() != n+1 || resp.StatusCode != 200 {
			t.Errorf("%d failures: Attempts %d, requests %d, status %d", n, resp.Attempts, srv.count(), resp.StatusCode)
		}
		if got := log.recorded(); !slices.Equal(got, retryTestWaits[:n]) {
			t.Errorf("%d failures: waits %v, want %v", n, got, retryTestWaits[:n])
		}
	}
}

func TestTransportMaxAttemptsOne(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	if _, _, err := c.Exchanges(context.Background(), ReferenceParams{}); err == nil {
		t.Fatal("no error")
	}
	if srv.count() != 1 || len(log.recorded()) != 0 {
		t.Errorf("requests %d waits %v, want 1 and none", srv.count(), log.recorded())
	}
}

func TestTransportRetryAfterSeconds(t *testing.T) {
	for _, tc := range []struct {
		status int
		header string
		want   time.Duration
	}{
		{429, "2", 2 * time.Second},
		{429, "0", 75 * time.Millisecond},       // no wait given: backoff
		{429, "soon", 75 * time.Millisecond},    // garbage: backoff
		{429, "10", 10 * time.Second},           // exactly MaxRetryAfter: waited
		{503, "3", 3 * time.Second},             // honoured on 503 too
		{503, "3600", 75 * time.Millisecond},    // too long for a 503: backoff
		{502, "1.5", 1500 * time.Millisecond},   // fractional
		{504, "-4", 75 * time.Millisecond},      // negative: backoff
		{429, " 4 ", 4 * time.Second},           // spaces
		{503, "", 75 * time.Millisecond},        // absent
		{429, "", 75 * time.Millisecond},        // absent
		{429, "0.25", 250 * time.Millisecond},   // fraction of a second
		{503, "10", 10 * time.Second},           // exactly MaxRetryAfter
		{503, "10.5", 75 * time.Millisecond},    // above MaxRetryAfter: backoff
		{429, "1", 1 * time.Second},             //
		{502, "2", 2 * time.Second},             //
		{504, "7", 7 * time.Second},             //
		{429, "9.999", 9999 * time.Millisecond}, //
	} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				if tc.header != "" {
					w.Header().Set("Retry-After", tc.header)
				}
				http.Error(w, "wait", tc.status)
				return
			}
			io.WriteString(w, exchangesJSON)
		})
		c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
		_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
		if err != nil {
			t.Errorf("%d Retry-After %q: %v", tc.status, tc.header, err)
			continue
		}
		if got := log.recorded(); !slices.Equal(got, []time.Duration{tc.want}) || resp.Attempts != 2 {
			t.Errorf("%d Retry-After %q: waits %v attempts %d, want [%v] and 2", tc.status, tc.header, got, resp.Attempts, tc.want)
		}
	}
}

func TestTransportRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2025, 3, 10, 15, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		at   time.Time
		want time.Duration
	}{
		{now.Add(5 * time.Second), 5 * time.Second},
		{now.Add(10 * time.Second), 10 * time.Second},
		{now.Add(-time.Hour), 75 * time.Millisecond}, // in the past: backoff
		{now, 75 * time.Millisecond},
	} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				w.Header().Set("Retry-After", tc.at.Format(http.TimeFormat))
				http.Error(w, "too many requests per second", http.StatusTooManyRequests)
				return
			}
			io.WriteString(w, exchangesJSON)
		})
		c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy), WithClock(func() time.Time { return now }))
		if _, _, err := c.Exchanges(context.Background(), ReferenceParams{}); err != nil {
			t.Errorf("Retry-After %v: %v", tc.at, err)
			continue
		}
		if got := log.recorded(); !slices.Equal(got, []time.Duration{tc.want}) {
			t.Errorf("Retry-After %s (now %s): waits %v, want [%v]", tc.at.Format(http.TimeFormat), now.Format(http.TimeFormat), got, tc.want)
		}
	}

	// An HTTP date beyond MaxRetryAfter is returned at once.
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", now.Add(20*24*time.Hour).Format(http.TimeFormat))
		http.Error(w, "Monthly points allowance used up", http.StatusTooManyRequests)
	})
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy), WithClock(func() time.Time { return now }))
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	var rl *RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 20*24*time.Hour || !rl.MonthlyAllowance() {
		t.Errorf("far HTTP date: %v", err)
	}
	if srv.count() != 1 || len(log.recorded()) != 0 {
		t.Errorf("far HTTP date: %d requests, waits %v", srv.count(), log.recorded())
	}
}

func TestTransportRetryAfterTooLong(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "3600")
		w.Header().Set("X-Monthly-Points-Used", "1250000")
		w.Header().Set("X-Monthly-Points-Left", "0")
		http.Error(w, "monthly points allowance used up", http.StatusTooManyRequests)
	})
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	var rl *RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("error %v, want *RateLimitError", err)
	}
	if rl.RetryAfter != time.Hour || rl.StatusCode != 429 || !rl.MonthlyAllowance() {
		t.Errorf("RateLimitError %+v, MonthlyAllowance %v", rl, rl.MonthlyAllowance())
	}
	if rl.Message != "monthly points allowance used up" {
		t.Errorf("Message %q", rl.Message)
	}
	if !strings.Contains(err.Error(), "1h0m0s") {
		t.Errorf("error %q does not show the Retry-After", err)
	}
	if srv.count() != 1 || resp.Attempts != 1 || len(log.recorded()) != 0 {
		t.Errorf("%d requests, Attempts %d, waits %v; want 1 request and no wait", srv.count(), resp.Attempts, log.recorded())
	}
	if v, ok := resp.PointsLeft.Get(); !ok || v != 0 {
		t.Errorf("PointsLeft %v", resp.PointsLeft)
	}

	// A per-second limit that persists: waited in place, then returned.
	srv2 := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many requests per second", http.StatusTooManyRequests)
	})
	c2, log2 := newRetryTestClient(t, srv2.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 2}))
	_, _, err = c2.Exchanges(context.Background(), ReferenceParams{})
	if !errors.As(err, &rl) {
		t.Fatalf("error %v, want *RateLimitError", err)
	}
	if rl.MonthlyAllowance() || rl.RetryAfter != time.Second {
		t.Errorf("per-second 429: MonthlyAllowance %v RetryAfter %v", rl.MonthlyAllowance(), rl.RetryAfter)
	}
	if srv2.count() != 2 || !slices.Equal(log2.recorded(), []time.Duration{time.Second}) {
		t.Errorf("per-second 429: %d requests, waits %v", srv2.count(), log2.recorded())
	}
}

func TestTransportRetryAfterOutOfRange(t *testing.T) {
	// A Retry-After too large for a time.Duration is far above MaxRetryAfter:
	// it must come back as a RateLimitError after one request.
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "99999999999")
		http.Error(w, "monthly points allowance used up", http.StatusTooManyRequests)
	})
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	var rl *RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("error %v, want *RateLimitError", err)
	}
	if srv.count() != 1 || rl.RetryAfter < retryTestPolicy.MaxRetryAfter {
		t.Errorf("Retry-After 99999999999 gave RetryAfter %v and %d requests with waits %v; want one request and a RetryAfter above MaxRetryAfter", rl.RetryAfter, srv.count(), log.recorded())
	}
}

func TestTransportPOSTRetriesOnly429(t *testing.T) {
	scan := ScanParams{Fields: []ScanFieldParam{{Formula: "iv30 > 20"}, {Formula: "iv30", DisplayName: "IV"}}}
	const result = `{"last_updated":"2025-03-10T10:00:00","inputs":[],"output":[]}`
	for _, tc := range []struct {
		name string
		fail func(w http.ResponseWriter)
	}{
		{"503", func(w http.ResponseWriter) { http.Error(w, "busy", http.StatusServiceUnavailable) }},
		{"502", func(w http.ResponseWriter) { http.Error(w, "bad gateway", http.StatusBadGateway) }},
		{"504", func(w http.ResponseWriter) { http.Error(w, "timeout", http.StatusGatewayTimeout) }},
		{"network", func(w http.ResponseWriter) { hangUp(t, w) }},
	} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				tc.fail(w)
				return
			}
			io.WriteString(w, result)
		})
		c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
		_, resp, err := c.CustomScan(context.Background(), scan)
		if err == nil {
			t.Errorf("%s on the scanner: no error (retried?)", tc.name)
		}
		if srv.count() != 1 || resp.Attempts != 1 || len(log.recorded()) != 0 {
			t.Errorf("%s on the scanner: %d requests, Attempts %d, waits %v; want exactly 1", tc.name, srv.count(), resp.Attempts, log.recorded())
		}
		if resp.Cost != 0 {
			t.Errorf("%s on the scanner: Cost %d", tc.name, resp.Cost)
		}
	}

	// 429 is retried, with the same body.
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n <= 2 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many requests per second", http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, result)
	})
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	_, resp, err := c.CustomScan(context.Background(), scan)
	if err != nil {
		t.Fatal(err)
	}
	if srv.count() != 3 || resp.Attempts != 3 || !slices.Equal(log.recorded(), []time.Duration{time.Second, time.Second}) {
		t.Errorf("429 on the scanner: %d requests, Attempts %d, waits %v", srv.count(), resp.Attempts, log.recorded())
	}
	reqs := srv.requests()
	for i, r := range reqs {
		if r.Method != http.MethodPost || r.Body == "" || r.Body != reqs[0].Body {
			t.Errorf("request %d: %s body %q, want POST with the body of the first %q", i, r.Method, r.Body, reqs[0].Body)
		}
	}
	if resp.Cost != 30 {
		t.Errorf("scan Cost %d, want 30 (charged once)", resp.Cost)
	}

	// 429 on POST also respects MaxAttempts.
	srv = startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "too many requests per second", http.StatusTooManyRequests)
	})
	c, log = newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	_, _, err = c.CustomScan(context.Background(), scan)
	var rl *RateLimitError
	if !errors.As(err, &rl) || srv.count() != retryTestPolicy.MaxAttempts || !slices.Equal(log.recorded(), retryTestWaits) {
		t.Errorf("persistent 429 on the scanner: %v, %d requests, waits %v", err, srv.count(), log.recorded())
	}
}

func TestTransportContextCancelledDuringBackoff(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log.hook = func(ctx context.Context) error { cancel(); return ctx.Err() }
	_, _, err := c.Exchanges(ctx, ReferenceParams{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if srv.count() != 1 || len(log.recorded()) != 1 {
		t.Errorf("%d requests, waits %v; want 1 and 1", srv.count(), log.recorded())
	}
}

func TestTransportContextCancelledDuringRealBackoff(t *testing.T) {
	// The real sleep with an hour-long backoff: cancelling must end it at once.
	arrived := make(chan struct{}, 1)
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		select {
		case arrived <- struct{}{}:
		default:
		}
	})
	c, _ := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}))
	c.sleep = sleepCtx
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, _, err := c.Exchanges(ctx, ReferenceParams{})
		done <- err
	}()
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("no request arrived")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("returned after %v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not end the backoff")
	}
	if srv.count() != 1 {
		t.Errorf("%d requests, want 1", srv.count())
	}
}

func TestTransportContextDeadlineDuringRequest(t *testing.T) {
	release := make(chan struct{})
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	defer close(release)
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err := c.Exchanges(ctx, ReferenceParams{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want context.DeadlineExceeded", err)
	}
	if srv.count() != 1 || len(log.recorded()) != 0 {
		t.Errorf("%d requests, waits %v; want 1, none", srv.count(), log.recorded())
	}
}

func TestTransportContextAlreadyCancelled(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { io.WriteString(w, exchangesJSON) })
	ts := &seqTokenSource{toks: []string{"unused-token-xyz"}}
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy), WithTokenSource(ts))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, resp, err := c.Exchanges(ctx, ReferenceParams{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	_, _, err = c.CustomScan(ctx, ScanParams{Fields: []ScanFieldParam{{Formula: "iv30"}}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("scan error %v, want context.Canceled", err)
	}
	if srv.count() != 0 || len(log.recorded()) != 0 || resp.Attempts != 0 {
		t.Errorf("%d requests, waits %v, Attempts %d; want nothing sent", srv.count(), log.recorded(), resp.Attempts)
	}
	if calls, _ := ts.counts(); calls != 0 {
		t.Errorf("token source asked %d times", calls)
	}
}

const (
	rotatedTok1 = "tok1-aaaa-first-access-token"
	rotatedTok2 = "tok2-bbbb-second-access-token"
)

func TestTransport401RefreshesTokenOnce(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Header.Get("Authorization") != "Bearer "+rotatedTok2 {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, exchangesJSON)
	})
	// MaxAttempts 1: the fresh-token retry must not count.
	ts := &seqTokenSource{toks: []string{rotatedTok1, rotatedTok2}}
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 1}), WithTokenSource(ts))
	ex, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err != nil || len(ex) != 2 {
		t.Fatalf("exchanges %v, error %v", ex, err)
	}
	if calls, inv := ts.counts(); calls != 2 || inv != 1 {
		t.Errorf("token calls %d, invalidations %d; want 2, 1", calls, inv)
	}
	reqs := srv.requests()
	if len(reqs) != 2 || reqs[0].Header.Get("Authorization") != "Bearer "+rotatedTok1 || reqs[1].Header.Get("Authorization") != "Bearer "+rotatedTok2 {
		t.Errorf("requests %+v, want tok1 then tok2", reqs)
	}
	if resp.Attempts != 2 || len(log.recorded()) != 0 {
		t.Errorf("Attempts %d, waits %v; want 2, none", resp.Attempts, log.recorded())
	}
}

func TestTransport401Twice(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	ts := &seqTokenSource{toks: []string{rotatedTok1, rotatedTok2}}
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy), WithTokenSource(ts))
	_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnauthorized {
		t.Fatalf("error %v, want APIError 401", err)
	}
	if !errors.Is(err, ErrUnauthorized) {
		t.Errorf("errors.Is(%v, ErrUnauthorized) = false", err)
	}
	if apiErr.Message != "Unauthorized" {
		t.Errorf("Message %q, want the status text", apiErr.Message)
	}
	if _, inv := ts.counts(); inv != 1 {
		t.Errorf("invalidations %d, want 1", inv)
	}
	if srv.count() != 2 || resp.Attempts != 2 || len(log.recorded()) != 0 || resp.Cost != 0 {
		t.Errorf("%d requests, Attempts %d, waits %v, cost %d; want 2, 2, none, 0", srv.count(), resp.Attempts, log.recorded(), resp.Cost)
	}

	// Without a token source a 401 is final at once.
	srv2 := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(http.StatusUnauthorized) })
	c2, _ := newRetryTestClient(t, srv2.URL, WithRetryPolicy(retryTestPolicy))
	_, _, err = c2.Exchanges(context.Background(), ReferenceParams{})
	if !errors.Is(err, ErrUnauthorized) || srv2.count() != 1 {
		t.Errorf("no token source: %v after %d requests", err, srv2.count())
	}
	// Other statuses do not unwrap to ErrUnauthorized.
	if errors.Is(&APIError{StatusCode: 403}, ErrUnauthorized) {
		t.Error("403 is ErrUnauthorized")
	}
}

func TestTransport401DoesNotConsumeAttempts(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch n {
		case 1:
			w.WriteHeader(http.StatusUnauthorized)
		case 2:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default:
			io.WriteString(w, exchangesJSON)
		}
	})
	ts := &seqTokenSource{toks: []string{rotatedTok1, rotatedTok2}}
	c, log := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 2, BaseDelay: 100 * time.Millisecond}), WithTokenSource(ts))
	_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
	if err != nil {
		t.Fatalf("401, 503, 200 with MaxAttempts 2: %v", err)
	}
	if srv.count() != 3 || resp.Attempts != 3 || !slices.Equal(log.recorded(), []time.Duration{75 * time.Millisecond}) {
		t.Errorf("%d requests, Attempts %d, waits %v", srv.count(), resp.Attempts, log.recorded())
	}

	// A 401 after retries also gets its one fresh-token try.
	srv = startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case n <= 3:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case r.Header.Get("Authorization") == "Bearer "+rotatedTok2:
			io.WriteString(w, exchangesJSON)
		default:
			w.WriteHeader(http.StatusUnauthorized)
		}
	})
	ts = &seqTokenSource{toks: []string{rotatedTok1, rotatedTok2}}
	c, _ = newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy), WithTokenSource(ts))
	if _, resp, err = c.Exchanges(context.Background(), ReferenceParams{}); err != nil || resp.Attempts != 5 {
		t.Errorf("3x503, 401, 200 with MaxAttempts 4: %v, Attempts %d", err, resp.Attempts)
	}
}

func TestTransport401OnScanner(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Header.Get("Authorization") != "Bearer "+rotatedTok2 {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"last_updated":"","inputs":[],"output":[]}`)
	})
	ts := &seqTokenSource{toks: []string{rotatedTok1, rotatedTok2}}
	c, _ := newRetryTestClient(t, srv.URL, WithTokenSource(ts))
	_, resp, err := c.CustomScan(context.Background(), ScanParams{Fields: []ScanFieldParam{{Formula: "iv30"}}})
	if err != nil || srv.count() != 2 || resp.Attempts != 2 {
		t.Errorf("scanner 401 then 200: %v, %d requests", err, srv.count())
	}
	if reqs := srv.requests(); len(reqs) == 2 && reqs[1].Body != reqs[0].Body {
		t.Errorf("retried scan body %q, first %q", reqs[1].Body, reqs[0].Body)
	}
}

func TestTransportTokenSourceError(t *testing.T) {
	errTokens := errors.New("auth: refresh: invalid_grant")
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, "rejected "+r.Header.Get("Authorization"))
	})
	ts := &seqTokenSource{toks: []string{rotatedTok1}, errAfter: errTokens}
	c, _ := newRetryTestClient(t, srv.URL, WithTokenSource(ts))
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	if !errors.Is(err, errTokens) {
		t.Fatalf("error %v, want the token source's", err)
	}
	if strings.Contains(err.Error(), rotatedTok1) {
		t.Errorf("error %q contains the token", err)
	}
	if srv.count() != 1 {
		t.Errorf("%d requests, want 1", srv.count())
	}

	// Failing from the start: nothing is sent.
	ts = &seqTokenSource{toks: []string{rotatedTok1}, errAfter: errTokens, invalidations: 1}
	c, _ = newRetryTestClient(t, srv.URL, WithTokenSource(ts))
	if _, _, err = c.Exchanges(context.Background(), ReferenceParams{}); !errors.Is(err, errTokens) || srv.count() != 1 {
		t.Errorf("token error before the first request: %v, %d requests", err, srv.count())
	}
}
