package feed

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"chainwatch/api"
)

func TestSchedulerHistorical(t *testing.T) {
	c := pastDate(liveCond)
	for _, f := range []Feed{FeedChain, FeedTape, FeedCalendar} {
		t.Run(f.String(), func(t *testing.T) {
			s := NewScheduler(DefaultBudget())
			if d, ok := s.Next(f, c, time.Time{}, wed); !ok || d != 0 {
				t.Fatalf("first Next = %v, %v; want 0, true", d, ok)
			}
			// A failure retries with backoff (2 s, then 4 s), no interval.
			s.Observe(f, nil, errors.New("connection reset"), wed)
			if d, ok := s.Next(f, c, wed, wed); !ok || d != 2*time.Second {
				t.Fatalf("Next after failure = %v, %v; want 2s, true", d, ok)
			}
			t1 := wed.Add(2 * time.Second)
			s.Observe(f, nil, errors.New("connection reset"), t1)
			if d, ok := s.Next(f, c, t1, t1); !ok || d != 4*time.Second {
				t.Fatalf("Next after 2nd failure = %v, %v; want 4s, true", d, ok)
			}
			t2 := t1.Add(4 * time.Second)
			s.Observe(f, charged(3, api.Int{}, api.Int{}), nil, t2)
			if d, ok := s.Next(f, c, t2, t2.Add(time.Hour)); ok {
				t.Fatalf("Next after success = %v, true; want not polled", d)
			}
			// A new date (zero last) is fetched at once.
			if d, ok := s.Next(f, c, time.Time{}, t2.Add(time.Hour)); !ok || d != 0 {
				t.Fatalf("Next for a new date = %v, %v; want 0, true", d, ok)
			}
		})
	}
	s := NewScheduler(DefaultBudget())
	if _, ok := s.Next(FeedTape, tapeHidden(c), time.Time{}, wed); ok {
		t.Error("hidden historical tape is polled")
	}
}

func TestSchedulerBackoff(t *testing.T) {
	s := NewScheduler(Budget{PerDay: 650_000}) // chain 2 s, tape 3 s
	now := wed
	for i, want := range []time.Duration{2, 4, 8, 16, 32, 64, 120, 120, 120} {
		s.Observe(FeedChain, nil, errors.New("timeout"), now)
		if d, ok := s.Next(FeedChain, liveCond, now, now); !ok || d != want*time.Second {
			t.Fatalf("failure %d: Next = %v, %v; want %v", i+1, d, ok, want*time.Second)
		}
		now = now.Add(want * time.Second)
	}
	// Hours of outage do not overflow the doubling.
	for range 60 {
		s.Observe(FeedChain, nil, errors.New("timeout"), now)
	}
	if d, _ := s.Next(FeedChain, liveCond, now, now); d != 2*time.Minute {
		t.Fatalf("Next after 69 failures = %v, want 2m0s", d)
	}
	now = now.Add(2 * time.Minute)
	// Backoff counts from the failure, and is per feed.
	if d, _ := s.Next(FeedChain, liveCond, wed, now.Add(-20*time.Second)); d != 20*time.Second {
		t.Errorf("Next 100 s into a 120 s backoff = %v, want 20s", d)
	}
	if d, _ := s.Next(FeedTape, liveCond, now, now); d != 3*time.Second {
		t.Errorf("tape Next = %v, want its 3s interval", d)
	}
	// A success resets: the next failure waits 2 s again, not 2 min.
	s.Observe(FeedChain, charged(4, api.Int{}, api.Int{}), nil, now)
	if d, _ := s.Next(FeedChain, liveCond, now, now); d != 2*time.Second {
		t.Errorf("Next after success = %v, want 2s interval", d)
	}
	now = now.Add(2 * time.Second)
	s.Observe(FeedChain, nil, errors.New("timeout"), now)
	if d, _ := s.Next(FeedChain, liveCond, now, now.Add(time.Second)); d != time.Second {
		t.Errorf("Next 1 s after a failure following a success = %v, want 1s", d)
	}
}

func rateLimit(msg string, retry time.Duration) error {
	return &api.RateLimitError{APIError: api.APIError{StatusCode: 429, Message: msg}, RetryAfter: retry}
}

func TestSchedulerRateLimit(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want time.Duration
	}{
		{"per second, Retry-After 5 s", rateLimit("too many requests", 5*time.Second), 5 * time.Second},
		{"per second, no Retry-After", rateLimit("too many requests", 0), time.Second},
		{"monthly, no Retry-After", rateLimit("monthly points allowance exhausted", 0), time.Minute},
		{"monthly, Retry-After 36 h", rateLimit("monthly points allowance exhausted", 36*time.Hour), 36 * time.Hour},
		{"wrapped", fmt.Errorf("chain: %w", rateLimit("too many requests", 7*time.Second)), 7 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScheduler(Budget{PerDay: 650_000}) // chain 2 s, tape 3 s
			s.Observe(FeedChain, &api.Response{StatusCode: 429}, tc.err, wed)
			// Last fetches long ago: only the Retry-After holds them back,
			// and it holds back every feed, since the limits are per account.
			long := wed.Add(-7 * time.Hour) // past even the calendar's 6 h
			for _, f := range []Feed{FeedChain, FeedTape, FeedCalendar} {
				if d, ok := s.Next(f, liveCond, long, wed); !ok || d != tc.want {
					t.Errorf("Next(%s) = %v, %v; want %v, true", f, d, ok, tc.want)
				}
			}
			if d, _ := s.Next(FeedTape, liveCond, time.Time{}, wed); d != tc.want {
				t.Errorf("Next(tape, never fetched) = %v, want %v", d, tc.want)
			}
			if d, _ := s.Next(FeedChain, liveCond, long, wed.Add(tc.want+time.Second)); d != 0 {
				t.Errorf("Next after the Retry-After = %v, want 0", d)
			}
		})
	}
	// A short per-second wait does not cut a monthly one short.
	s := NewScheduler(DefaultBudget())
	s.Observe(FeedChain, nil, rateLimit("monthly points allowance exhausted", 36*time.Hour), wed)
	s.Observe(FeedTape, nil, rateLimit("too many requests", time.Second), wed)
	if d, _ := s.Next(FeedTape, liveCond, time.Time{}, wed); d != 36*time.Hour {
		t.Errorf("Next after monthly then per-second 429 = %v, want 36h", d)
	}
	// A 429 has its own wait and does not grow the backoff: after two of
	// them a network error waits 2 s, not 8 s.
	s = NewScheduler(Budget{PerDay: 650_000})
	s.Observe(FeedChain, nil, rateLimit("too many requests", 0), wed)
	s.Observe(FeedChain, nil, rateLimit("too many requests", 0), wed.Add(time.Second))
	t2 := wed.Add(2 * time.Second)
	s.Observe(FeedChain, nil, errors.New("timeout"), t2)
	if d, _ := s.Next(FeedChain, liveCond, t2, t2); d != 2*time.Second {
		t.Errorf("Next = %v, want 2s", d)
	}
}

func TestSchedulerCancelledFetch(t *testing.T) {
	s := NewScheduler(DefaultBudget())
	s.Observe(FeedChain, charged(3, api.Int{}, api.Int{}), nil, wed)
	later := wed.Add(time.Minute)
	s.Observe(FeedChain, nil, fmt.Errorf("fetch chain: %w", context.Canceled), later)
	if st := s.Stats(later); st.LastErr != nil {
		t.Errorf("a cancelled fetch is shown as an error: %v", st.LastErr)
	}
	if d, ok := s.Next(FeedChain, pastDate(liveCond), wed, later); ok {
		t.Errorf("a cancelled fetch undid the historical answer: Next = %v, true", d)
	}
}

func TestSchedulerReset(t *testing.T) {
	s := NewScheduler(Budget{PerDay: 650_000}) // chain 2 s
	for i := range 5 {
		s.Observe(FeedChain, nil, errors.New("no such expiry"), wed.Add(time.Duration(i)*time.Second))
	}
	s.Observe(FeedTape, charged(15, api.Int{}, api.Int{}), nil, wed)
	s.Observe(FeedCalendar, nil, rateLimit("too many requests", 30*time.Second), wed)
	t4 := wed.Add(4 * time.Second)
	if d, _ := s.Next(FeedChain, liveCond, t4, t4); d != 32*time.Second {
		t.Fatalf("before Reset: Next = %v, want the 32s backoff", d)
	}
	s.Reset()
	t10 := wed.Add(10 * time.Second)
	// The query's backoff is gone, the account's Retry-After is not.
	if d, _ := s.Next(FeedChain, liveCond, t4, t10); d != 20*time.Second {
		t.Errorf("after Reset: Next(chain) = %v, want 20s left of the Retry-After", d)
	}
	// The historical answer belonged to the old date.
	if d, ok := s.Next(FeedTape, pastDate(liveCond), wed, wed.Add(time.Minute)); !ok || d != 0 {
		t.Errorf("after Reset: historical tape Next = %v, %v; want 0, true", d, ok)
	}
	if st := s.Stats(t10); st.SessionSpent != 15 || st.LastErr == nil {
		t.Errorf("Reset lost the account's stats: %+v", st)
	}
}
