package history_test

import (
	"context"
	"sync"
	"testing"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/market"
)

func TestBackfillBuysOnceAndResumes(t *testing.T) {
	r := newRig(t)
	syms := []string{"SPY", "QQQ", "AAPL"}
	today := r.client.Today()
	plan, err := r.store.PlanBackfill(ctx, syms, today, 30, api.Live)
	if err != nil || plan.Requests() != 30 || plan.Points() != 90 {
		t.Fatalf("plan: %d requests, %d points, %v", plan.Requests(), plan.Points(), err)
	}
	// Stopped after 10 days, as a Ctrl-C would.
	cctx, cancel := context.WithCancel(ctx)
	var steps []history.Step
	spent, err := history.Backfill(cctx, r.client, r.store, plan, func(s history.Step) {
		steps = append(steps, s)
		if s.Done == 10 {
			cancel()
		}
	})
	if err == nil || spent != 30 || len(steps) != 10 {
		t.Fatalf("interrupted: spent %d in %d steps, %v", spent, len(steps), err)
	}
	if steps[0].Day != market.PrevTradingDay(today) || steps[9].Spent != 30 {
		t.Errorf("steps: first %v, tenth spent %d", steps[0].Day, steps[9].Spent)
	}
	plan, err = r.store.PlanBackfill(ctx, syms, today, 30, api.Live)
	if err != nil || plan.Requests() != 20 {
		t.Fatalf("after the interruption the plan has %d requests, want 20 (%v)", plan.Requests(), err)
	}
	spent, err = history.Backfill(ctx, r.client, r.store, plan, nil)
	if err != nil || spent != 60 {
		t.Fatalf("resumed: spent %d, %v", spent, err)
	}
	plan, _ = r.store.PlanBackfill(ctx, syms, today, 30, api.Live)
	if plan.Requests() != 0 || plan.Points() != 0 {
		t.Errorf("a third run would spend %d points", plan.Points())
	}
	if n := r.reqs.Count("/underlying-quotes"); n != 30 {
		t.Errorf("the service saw %d requests for 30 days", n)
	}
}

// Two backfills of the same days at once, each with its own connection to
// the file (as two processes have): one buys each day, the other waits
// for the lock and then finds nothing left to buy.
func TestTwoBackfillsAtOnceBuyEachDayOnce(t *testing.T) {
	r := newRig(t)
	second, err := history.Open(ctx, r.path, "sandbox")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	c2 := r.newClient(t, second)
	syms := []string{"SPY", "IWM"}
	today := r.client.Today()
	var wg sync.WaitGroup
	spent := make([]int, 2)
	errs := make([]error, 2)
	for i, run := range []struct {
		c  *api.Client
		st *history.Store
	}{{r.client, r.store}, {c2, second}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lock, _, err := history.LockBackfill(run.st.Path(), true)
			if err != nil {
				errs[i] = err
				return
			}
			defer lock.Unlock()
			plan, err := run.st.PlanBackfill(ctx, syms, today, 20, api.Live)
			if err != nil {
				errs[i] = err
				return
			}
			spent[i], errs[i] = history.Backfill(ctx, run.c, run.st, plan, nil)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if spent[0]+spent[1] != 60 || spent[0] != 0 && spent[1] != 0 {
		t.Errorf("spent %v, want 60 by one of them and 0 by the other", spent)
	}
	if n := r.reqs.Count("/underlying-quotes"); n != 20 {
		t.Errorf("the service saw %d requests for 20 days", n)
	}
}
