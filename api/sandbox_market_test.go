package api_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox"
	"chainwatch/sandbox/quota"
)

// TestSandboxHistoricalDayIsDeterministic asks two separate sandboxes (each
// with its own caches and started at a different real moment) for the same
// historical chain and trades, twice, and requires the same bytes each time.
func TestSandboxHistoricalDayIsDeterministic(t *testing.T) {
	a := startDataSandbox(t, sandbox.Config{})
	b := startDataSandbox(t, sandbox.Config{Now: func() time.Time { return sessionNow.Add(3 * time.Hour) }})
	for _, path := range []string{
		"live/allaccess/market/option-and-underlying-quotes?symbol=MSFT&date=2026-11-18",
		"delayed/allaccess/time-and-sales/option-trades?symbol=MSFT&date=2026-11-18&limit=2000",
		"live/allaccess/market/underlying-quotes?symbols=SPX,MSFT&date=2024-03-28",
	} {
		for _, accept := range []string{"application/json", "text/xml"} {
			var first []byte
			for i, d := range []*dataSandbox{a, b, a} {
				status, body := d.raw(t, path, accept)
				if status != http.StatusOK {
					t.Fatalf("%s (%s): status %d: %s", path, accept, status, body)
				}
				if i == 0 {
					first = body
				} else if !bytes.Equal(first, body) {
					t.Fatalf("%s (%s): answer %d differs from the first", path, accept, i)
				}
			}
		}
	}
}

// TestSandboxVolumeIsTheSumOfTrades pages through a whole historical day of
// one underlying's option trades and requires every contract's volume and
// trade count in the end-of-day chain to be the sum of its normal trades,
// and every trade's trade_at to agree with the NBBO it carries.
func TestSandboxVolumeIsTheSumOfTrades(t *testing.T) {
	d := startDataSandbox(t, sandbox.Config{})
	c := d.client(t, api.JSON, api.Live)
	ctx := context.Background()
	chain, _, err := c.OptionAndUnderlyingQuotes(ctx, api.OptionQuotesParams{Symbol: "MSFT", Date: yesterday})
	if err != nil {
		t.Fatal(err)
	}
	volume := map[string]int64{}
	count := map[string]int64{}
	var last int64
	n := 0
	for tr, err := range c.OptionTradesAll(ctx, api.OptionTradesParams{Symbol: "MSFT", Date: yesterday}, 500_000, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if tr.SeqNo <= last {
			t.Fatalf("seq_no %d after %d", tr.SeqNo, last)
		}
		last = tr.SeqNo
		if want := classify(tr); tr.TradeAt != want {
			t.Fatalf("trade %d at %v with bid %v ask %v is %q, want %q", tr.SeqNo, tr.Price, tr.Bid, tr.Ask, tr.TradeAt, want)
		}
		if tr.CancelFlag == api.TradeNormal {
			volume[tr.Security.V] += tr.Size
			count[tr.Security.V]++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d trades in a MSFT day", n)
	}
	traded := 0
	for _, o := range chain.Options {
		if o.Volume.Or(0) != volume[o.Option] || o.TradeCount.Or(0) != count[o.Option] {
			t.Fatalf("%s: volume %v count %v, trades sum to %d in %d", o.Option, o.Volume, o.TradeCount, volume[o.Option], count[o.Option])
		}
		if volume[o.Option] > 0 {
			traded++
		}
		delete(volume, o.Option)
	}
	if len(volume) > 0 || traded == 0 {
		t.Fatalf("%d traded contracts not in the chain; %d traded in it", len(volume), traded)
	}
}

// classify is the conventions' trade_at rule, applied to the NBBO a trade
// record carries.
func classify(tr api.OptionTrade) api.TradeAt {
	bid, okB := tr.Bid.Get()
	ask, okA := tr.Ask.Get()
	p := tr.Price.V
	switch {
	case !okB || !okA || bid <= 0 || ask <= 0:
		return api.NoMarket
	case bid > ask:
		return api.CrossedMarket
	case p < bid:
		return api.BelowBid
	case p == bid:
		return api.OnBid
	case p < ask:
		return api.MidMarket
	case p == ask:
		return api.OnAsk
	}
	return api.AboveAsk
}

// TestSandboxPointsAndRateLimit checks charging through the client's
// counters, and both kinds of 429 with their Retry-After.
func TestSandboxPointsAndRateLimit(t *testing.T) {
	trial, _ := quota.PlanByName("trial")
	d := startDataSandbox(t, sandbox.Config{Plan: trial, PerSecond: -1})
	c := d.client(t, api.JSON, api.Live)
	ctx := context.Background()
	_, r1, err := c.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: today})
	if err != nil {
		t.Fatal(err)
	}
	_, r2, err := c.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: yesterday})
	if err != nil {
		t.Fatal(err)
	}
	if r1.PointsUsed.V != 4 || r2.PointsUsed.V != 7 || r2.PointsLeft.V != 500-7 {
		t.Fatalf("points after live and historical quotes: %v/%v, %v/%v", r1.PointsUsed, r1.PointsLeft, r2.PointsUsed, r2.PointsLeft)
	}
	var rl *api.RateLimitError
	for range 40 { // 500 points at 15 a request runs out within 34
		_, _, err = c.OptionTrades(ctx, api.OptionTradesParams{Symbol: "SPY", Date: today, Limit: api.Ptr(1)})
		if errors.As(err, &rl) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if rl == nil || !rl.MonthlyAllowance() && rl.RetryAfter < time.Hour {
		t.Fatalf("allowance used up: %v", err)
	}

	// The per-second limit needs a running clock.
	fast := startDataSandbox(t, sandbox.Config{PerSecond: 1, Burst: 1, Now: time.Now})
	fc := fast.client(t, api.JSON, api.Live)
	rl = nil
	for range 5 {
		_, _, err = fc.Exchanges(ctx, api.ReferenceParams{})
		if errors.As(err, &rl) {
			break
		}
	}
	if rl == nil || rl.RetryAfter < time.Second || rl.RetryAfter > 2*time.Second {
		t.Fatalf("per-second limit: %v", err)
	}
	if rl.MonthlyAllowance() {
		t.Error("a per-second refusal reads as the monthly allowance")
	}
}
