package feed_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/tas"
)

// movingClock is a sandbox clock the test moves forward.
type movingClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *movingClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *movingClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// busiestContract is the SPY contract of the nearest expiry with the most
// trades at the clock's time.
func busiestContract(t *testing.T, src feed.Source) feed.ContractQuery {
	t.Helper()
	q := feed.Query{Symbol: "SPY", Mode: api.Live, Gen: 1}
	m := src.Chain(context.Background(), q, 0)
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	var best api.OptionData
	for _, o := range m.Chain.Options {
		if o.Expiry == m.Chain.Options[0].Expiry && o.TradeCount.Or(0) > best.TradeCount.Or(0) {
			best = o
		}
	}
	osi, err := api.ParseOSI(best.Option)
	if err != nil {
		t.Fatal(err)
	}
	return feed.ContractQuery{Query: q, OSI: osi}
}

// TestContractPagingFetchesNothingTwice pages a contract's trades and its
// NBBO changes in small pages while the market moves on, as the page does:
// every record of every page is new (none is paid for twice), and what is
// held in the end is exactly the day's records as one request returns them.
func TestContractPagingFetchesNothingTwice(t *testing.T) {
	clock := &movingClock{t: time.Date(2026, 11, 20, 10, 15, 0, 0, api.Eastern)}
	client := modeltest.StartSandbox(t, sandbox.Config{Now: clock.Now})
	src := feed.Source{Client: client, Now: clock.Now, PageLimit: 7}
	cq := busiestContract(t, src)
	ctx := context.Background()

	trades, quotes := tas.NewSeries(), tas.NewQuotes()
	tradePages, quotePages := 0, 0
	for step, at := range []time.Time{
		time.Date(2026, 11, 20, 10, 15, 0, 0, api.Eastern),
		time.Date(2026, 11, 20, 10, 16, 0, 0, api.Eastern),
		time.Date(2026, 11, 20, 10, 30, 0, 0, api.Eastern),
		time.Date(2026, 11, 20, 11, 0, 0, 0, api.Eastern),
	} {
		clock.Set(at)
		for range 1000 { // bounded: a page of 7 is a few hundred pages a day at most
			from, minT, _ := trades.Next()
			m := src.ContractTrades(ctx, cq, from, minT)
			if m.Err != nil && !api.IsNoData(m.Err) {
				t.Fatalf("step %d: %v", step, m.Err)
			}
			page := make([]tas.Trade, len(m.Trades))
			for i := range m.Trades {
				page[i] = tas.FromGreeks(&m.Trades[i])
			}
			if added := trades.Add(page); added != len(page) {
				t.Fatalf("step %d: a page from %d repeated %d of its %d trades", step, from, len(page)-added, len(page))
			}
			tradePages++
			if !m.Full {
				break
			}
		}
		for range 5000 {
			from, minT, _ := quotes.Next()
			m := src.ContractTAQ(ctx, cq, from, minT)
			if m.Err != nil && !api.IsNoData(m.Err) {
				t.Fatalf("step %d: %v", step, m.Err)
			}
			if added := quotes.AddTAQ(m.Records); added != len(m.Records) {
				t.Fatalf("step %d: a quote page from %d repeated %d of its %d records", step, from, len(m.Records)-added, len(m.Records))
			}
			quotePages++
			if !m.Full {
				break
			}
		}
	}
	if trades.Len() == 0 || len(quotes.All()) == 0 {
		t.Fatalf("held %d trades and %d quotes of %s: the test needs some", trades.Len(), len(quotes.All()), cq.OSI)
	}
	t.Logf("%s: %d trades in %d pages, %d quote changes in %d pages", cq.OSI, trades.Len(), tradePages, len(quotes.All()), quotePages)
	if tradePages < 3 {
		t.Errorf("only %d trade pages: the small page did not page", tradePages)
	}

	// The whole day at 11:00 in one request: the same trades, in order.
	whole, _, err := client.OptionTradesWithGreeks(ctx, feed.GreeksParams(cq.OSI, api.NewDate(2026, 11, 20), api.Live, 0, 0, 100000))
	if err != nil {
		t.Fatal(err)
	}
	held := trades.Trades()
	if len(whole) != len(held) {
		t.Fatalf("held %d trades, the day has %d", len(held), len(whole))
	}
	for i := range whole {
		if whole[i].SequenceNumber != held[i].Seq {
			t.Fatalf("trade %d: held seq %d, the day's is %d", i, held[i].Seq, whole[i].SequenceNumber)
		}
	}
	// Every held trade has its IV, and its side matches the NBBO.
	for _, tr := range held {
		if tr.Cancel == api.TradeNormal && tr.At == "" {
			t.Errorf("trade %d has no side", tr.Seq)
		}
	}
}

// TestContractNotEntitled: without OPRA the live trades are refused with
// a 400 naming the subscription, which NotEntitled recognises; a past
// day still answers.
func TestContractNotEntitled(t *testing.T) {
	client := modeltest.StartSandbox(t, sandbox.Config{Entitlements: []sandbox.Entitlement{}})
	src := feed.Source{Client: client, Now: modeltest.Clock}
	cq := busiestContract(t, src)
	m := src.ContractTrades(context.Background(), cq, 0, 0)
	if !feed.NotEntitled(m.Err) {
		t.Fatalf("live trades without OPRA: err %v, want a refusal NotEntitled knows", m.Err)
	}
	if m.Resp != nil && m.Resp.Cost != 0 {
		t.Errorf("the refusal cost %d points", m.Resp.Cost)
	}
	past := cq
	past.Date = api.NewDate(2026, 11, 19)
	if m := src.ContractTrades(context.Background(), past, 0, 0); m.Err != nil && !api.IsNoData(m.Err) {
		t.Errorf("a past day without OPRA: %v", m.Err)
	}
	if feed.NotEntitled(errors.New("subscription")) || feed.NotEntitled(nil) {
		t.Error("NotEntitled took a plain error for the service's refusal")
	}
}
