package feed

import (
	"testing"
	"time"

	"chainwatch/config"
)

// TestFreeBudgetPacesAtTheShortestIntervals: a bus host's answers cost
// nothing, so its feeds run at their shortest intervals (it shows the
// source's answers as they arrive, not at a fallback budget's pace), and
// its status shows no budget.
func TestFreeBudgetPacesAtTheShortestIntervals(t *testing.T) {
	free := NewScheduler(Budget{Share: config.DefaultBudgetShare, Free: true})
	paid := NewScheduler(DefaultBudget())
	for _, c := range []struct {
		f    Feed
		want time.Duration
	}{{FeedChain, config.ChainMinInterval}, {FeedTape, config.TapeMinInterval}} {
		if got := free.Interval(c.f, liveCond, wed); got != c.want {
			t.Errorf("free %v: every %v, want its shortest %v", c.f, got, c.want)
		}
		if got := paid.Interval(c.f, liveCond, wed); got <= c.want {
			t.Errorf("paid %v before any balance: every %v, want slower than %v (the fallback budget)", c.f, got, c.want)
		}
	}
	st := free.Stats(wed)
	if !st.Free || st.BudgetPerHour != 0 {
		t.Fatalf("free stats: Free %v, BudgetPerHour %v; want true, 0", st.Free, st.BudgetPerHour)
	}
	if got := Paced(100, time.Minute, free.BudgetPerHour(wed)); got != time.Minute {
		t.Fatalf("a free job is paced every %v, want as asked (1m)", got)
	}
}
