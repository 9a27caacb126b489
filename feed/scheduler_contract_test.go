package feed

import (
	"testing"

	"chainwatch/api"
	"time"
)

// onContract is c with a contract's feeds shown instead of the ladder's.
func onContract(c Conditions) Conditions {
	c.Shown = FeedSetOf(FeedContractQuote, FeedContractTrades, FeedContractTAQ)
	return c
}

func withGreeks(c Conditions) Conditions { c.Shown = c.Shown.With(FeedTapeGreeks); return c }

// TestSchedulerContractPage: the page takes the whole budget while it is
// shown, two fifths each for its trades and quotes and a fifth for its
// snapshot, and the screen underneath is not polled.
func TestSchedulerContractPage(t *testing.T) {
	// 200 points an hour: trades and TAQ 80 each, 15 / 80 h = 675 s; the
	// snapshot 40, 4 / 40 h = 360 s.
	perDay := NewScheduler(Budget{PerDay: 1300})
	// Fallback 2000 an hour: 15 / 800 h = 67.5 s; 4 / 400 h = 36 s.
	fresh := NewScheduler(DefaultBudget())
	checkIntervals(t, []intervalCase{
		{"perday trades", perDay, onContract(liveCond), wed, FeedContractTrades, 675 * time.Second},
		{"perday taq", perDay, onContract(liveCond), wed, FeedContractTAQ, 675 * time.Second},
		{"perday quote", perDay, onContract(liveCond), wed, FeedContractQuote, 360 * time.Second},
		{"fresh trades", fresh, onContract(liveCond), wed, FeedContractTrades, 67500 * time.Millisecond},
		{"fresh quote", fresh, onContract(liveCond), wed, FeedContractQuote, 36 * time.Second},
		{"fresh delayed trades", fresh, onContract(delayedCond), wed, FeedContractTrades, 135 * time.Second},
		{"fresh blurred trades", fresh, blurred(onContract(liveCond)), wed, FeedContractTrades, 270 * time.Second},
		{"chain under the page", fresh, onContract(liveCond), wed, FeedChain, 0},
		{"tape under the page", fresh, onContract(liveCond), wed, FeedTape, 0},
		{"page not shown", fresh, liveCond, wed, FeedContractTrades, 0},
		{"page on a past day", fresh, pastDate(onContract(liveCond)), wed, FeedContractTrades, 0},
	})
	last := wed.Add(-time.Second)
	for _, f := range []Feed{FeedChain, FeedTape} {
		if _, ok := fresh.Next(f, onContract(liveCond), last, wed); ok {
			t.Errorf("%s is polled under the contract page", f)
		}
	}
	for _, f := range []Feed{FeedContractQuote, FeedContractTrades, FeedContractTAQ} {
		if _, ok := fresh.Next(f, liveCond, last, wed); ok {
			t.Errorf("%s is polled without the contract page", f)
		}
		if d, ok := fresh.Next(f, onContract(liveCond), time.Time{}, wed); !ok || d != 0 {
			t.Errorf("%s first fetch Next = %v, %v; want 0, true", f, d, ok)
		}
	}
	// A past day is fetched once: after a success, never again.
	s := NewScheduler(DefaultBudget())
	s.Observe(FeedContractTrades, charged(15, api.Int{}, api.Int{}), nil, wed)
	if _, ok := s.Next(FeedContractTrades, pastDate(onContract(liveCond)), wed, wed.Add(time.Minute)); ok {
		t.Error("a past day's trades are polled again")
	}
}

// TestSchedulerTapeGreeks: the tape's greeks columns take a quarter of
// the budget while shown; the ladder and tape split the rest.
func TestSchedulerTapeGreeks(t *testing.T) {
	// 200 an hour: greeks 50, 15 / 50 h = 1080 s; chain and tape 75 each:
	// 4 / 75 h = 192 s and 15 / 75 h = 720 s.
	perDay := NewScheduler(Budget{PerDay: 1300})
	checkIntervals(t, []intervalCase{
		{"greeks", perDay, withGreeks(liveCond), wed, FeedTapeGreeks, 1080 * time.Second},
		{"chain", perDay, withGreeks(liveCond), wed, FeedChain, 192 * time.Second},
		{"tape", perDay, withGreeks(liveCond), wed, FeedTape, 720 * time.Second},
		{"greeks off", perDay, liveCond, wed, FeedTapeGreeks, 0},
	})
}
