package feed

import (
	"testing"
	"time"
)

// volShown is c with the term structure shown and the tape not (a vol
// page over the ladder).
func volShown(c Conditions) Conditions {
	c.Shown = c.Shown.With(FeedTerm).Without(FeedTape).Without(FeedTapeGreeks)
	return c
}

// TestTermFeedOnlyWhileTheVolPageShows: the whole chain for the term
// structure is never polled while the page is hidden, nor for a past day
// (its whole chain is held and never changes); shown, it waits its
// interval after the last fetch.
func TestTermFeedOnlyWhileTheVolPageShows(t *testing.T) {
	s := NewScheduler(Budget{PerDay: 1300})
	last := wed.Add(-time.Minute)
	if _, ok := s.Next(FeedTerm, liveCond, last, wed); ok {
		t.Error("the term structure is polled with the vol page hidden")
	}
	if _, ok := s.Next(FeedTerm, pastDate(volShown(liveCond)), last, wed); ok {
		t.Error("the term structure is polled on a past day")
	}
	if got := s.Interval(FeedTerm, liveCond, wed); got != 0 {
		t.Errorf("hidden page: interval %v", got)
	}
	d, ok := s.Next(FeedTerm, volShown(liveCond), last, wed)
	if !ok || !nearMs(d, 5*time.Minute) { // 6 min after the last, a minute ago
		t.Errorf("Next = %v, %v; want 5m, true", d, ok)
	}
}

// TestTermFeedWithinTheBudget: the term structure takes a fifth of the
// budget, within 5 min and an hour, and the chain gets what is left, so
// the page costs no more than the budget.
func TestTermFeedWithinTheBudget(t *testing.T) {
	checkIntervals(t, []intervalCase{
		// 200 points an hour: the term's fifth is 40, 4 points each 6 min;
		// the chain gets the 160 left (the vol page hides the tape): 90 s.
		{"per day: term", NewScheduler(Budget{PerDay: 1300}), volShown(liveCond), wed, FeedTerm, 6 * time.Minute},
		{"per day: chain", NewScheduler(Budget{PerDay: 1300}), volShown(liveCond), wed, FeedChain, 90 * time.Second},
		{"per day: chain without the page", NewScheduler(Budget{PerDay: 1300}), tapeHidden(liveCond), wed, FeedChain, 72 * time.Second},
		// Delayed costs 8: 8 / 40 = 12 min; the chain 8 / (200 - 40) = 180 s.
		{"delayed: term", NewScheduler(Budget{PerDay: 1300}), volShown(delayedCond), wed, FeedTerm, 12 * time.Minute},
		{"delayed: chain", NewScheduler(Budget{PerDay: 1300}), volShown(delayedCond), wed, FeedChain, 180 * time.Second},
		// A large balance: never more often than every 5 minutes (48 an
		// hour), the chain gets 250,000 / 95 - 48.
		{"large: term", withPoints(DefaultBudget(), 250_000, 1_000_000), volShown(liveCond), wed, FeedTerm, 5 * time.Minute},
		{"large: chain", withPoints(DefaultBudget(), 250_000, 1_000_000), volShown(liveCond), wed, FeedChain,
			secs(4 * 3600 / (250_000.0/95 - 48))},
		// 10 points an hour: the term's 2 would be one fetch in 2 h; the
		// cap is an hour, and the chain's 6 left are one in 40 min.
		{"small: term", NewScheduler(Budget{PerDay: 65}), volShown(liveCond), wed, FeedTerm, time.Hour},
		{"small: chain", NewScheduler(Budget{PerDay: 65}), volShown(liveCond), wed, FeedChain, 40 * time.Minute},
		// Nobody watching: stretched as the other feeds, up to QuietMax.
		{"blurred: term", NewScheduler(Budget{PerDay: 1300}), blurred(volShown(liveCond)), wed, FeedTerm, 15 * time.Minute},
	})
}

// TestFeedsPolledAreTheShown: a feed is polled exactly when some
// subscriber shows it, whatever else is shown; the whole chain of a past
// day never is (the chain's first fetch holds it and it never changes).
func TestFeedsPolledAreTheShown(t *testing.T) {
	s := NewScheduler(Budget{PerDay: 1300})
	last := wed.Add(-time.Hour)
	for f := range NumFeeds {
		for _, shown := range []FeedSet{FeedSetOf(f), ^FeedSet(0), ^FeedSet(0) &^ FeedSetOf(f), 0} {
			c := liveCond
			c.Shown = shown
			_, ok := s.Next(f, c, last, wed)
			if want := shown.Has(f); ok != want {
				t.Errorf("%s with %b shown: polled %v, want %v", f, shown, ok, want)
			}
			if iv := s.Interval(f, c, wed); (iv > 0) != shown.Has(f) {
				t.Errorf("%s with %b shown: interval %v", f, shown, iv)
			}
		}
	}
	past := pastDate(volShown(liveCond))
	if FeedTerm.polled(past) || !FeedChain.polled(past) {
		t.Error("a past day: the whole chain is polled again, or the chain not once")
	}
	if s := FeedSetOf(FeedJob, NumFeeds, FeedTape); s != FeedSetOf(FeedTape) || s.Has(FeedJob) || s.With(NumFeeds) != s || s.Without(-1) != s {
		t.Errorf("a feed out of range is in the set: %b", s)
	}
}
