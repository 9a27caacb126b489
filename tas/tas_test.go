package tas

import (
	"math"
	"slices"
	"testing"
	"time"

	"chainwatch/api"
)

func tm(h, m, s, ms int) api.TimeOfDay { return api.NewTimeOfDay(h, m, s, ms) }

// trade builds a print with an NBBO of 1.00 x 1.10 unless the price says
// otherwise; where it printed is classified as the service would.
func trade(seq int64, at api.TimeOfDay, size int64, price float64, exch uint8) Trade {
	t := Trade{Seq: seq, Time: at, Size: size, Price: price, Bid: 1.00, Ask: 1.10, Exchange: exch,
		IV: math.NaN(), Delta: math.NaN(), Gamma: math.NaN(), Theta: math.NaN(), Vega: math.NaN(),
		UndBid: math.NaN(), UndAsk: math.NaN()}
	t.At = Classify(t.Price, t.Bid, t.Ask)
	return t
}

func TestClassify(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		price, bid, ask float64
		want            api.TradeAt
	}{
		{0.99, 1.00, 1.10, api.BelowBid},
		{1.00, 1.00, 1.10, api.OnBid},
		{1.0000000001, 1.00, 1.10, api.OnBid}, // binary noise is not a tick
		{1.05, 1.00, 1.10, api.MidMarket},
		{1.10, 1.00, 1.10, api.OnAsk},
		{1.20, 1.00, 1.10, api.AboveAsk},
		{1.05, 1.10, 1.00, api.CrossedMarket},
		{1.05, nan, 1.10, api.NoMarket},
		{1.05, 0, 1.10, api.NoMarket},
		{nan, 1.00, 1.10, ""},
	} {
		if got := Classify(c.price, c.bid, c.ask); got != c.want {
			t.Errorf("Classify(%v, %v, %v) = %q, want %q", c.price, c.bid, c.ask, got, c.want)
		}
	}
}

// TestSummarize adds up a hand-built day: every figure is worked out
// here by hand from the list.
func TestSummarize(t *testing.T) {
	list := []Trade{
		trade(1, tm(9, 31, 0, 398), 10, 1.00, 1),     // on bid: 10 lots, $1,000; the other side of #2, not its sweep
		trade(2, tm(9, 31, 0, 400), 20, 1.10, 2),     // on ask, next in sequence: a sweep with #3
		trade(3, tm(9, 31, 0, 402), 5, 1.10, 3),      // on ask, 2 ms later on another exchange: one sweep of 25 lots
		trade(4, tm(9, 45, 10, 0), 150, 1.05, 3),     // mid, a block: $15,750
		trade(5, tm(10, 2, 3, 0), 150, 1.20, 3),      // above ask, a block, same size as #4 but more premium: the largest
		trade(6, tm(10, 2, 3, 500), 40, 1.10, 3),     // same second, same exchange: not a sweep
		trade(7, tm(11, 0, 0, 0), 500, 1.10, 4),      // canceled later: counts nowhere
		trade(8, tm(11, 0, 1, 0), 500, 1.10, 4),      // the cancel message
		trade(9, tm(11, 5, 0, 0), 7, 0.95, 5),        // below bid
		trade(10, tm(11, 6, 0, 0), 3, math.NaN(), 6), // no price (no OPRA): volume, no side, no premium
	}
	list[6].Cancel = api.TradeCanceled
	list[7].Cancel = api.TradeCancel
	list[3].IV, list[4].IV = 0.20, 0.30

	s := Summarize(list, 100)
	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("Trades", s.Trades, 8)
	check("Volume", s.Volume, int64(10+20+5+150+150+40+7+3))
	check("VolBid", s.VolBid, int64(10+7))
	check("VolMid", s.VolMid, int64(150))
	check("VolAsk", s.VolAsk, int64(20+5+150+40))
	check("VolOther", s.VolOther, int64(3))
	premium := 100 * (10*1.00 + 20*1.10 + 5*1.10 + 150*1.05 + 150*1.20 + 40*1.10 + 7*0.95)
	if math.Abs(s.Premium-premium) > 1e-6 {
		t.Errorf("Premium = %v, want %v", s.Premium, premium)
	}
	if want := 100 * (10*1.00 + 7*0.95); math.Abs(s.PremiumBid-want) > 1e-6 {
		t.Errorf("PremiumBid = %v, want %v", s.PremiumBid, want)
	}
	if want := 100 * (20*1.10 + 5*1.10 + 150*1.20 + 40*1.10); math.Abs(s.PremiumAsk-want) > 1e-6 {
		t.Errorf("PremiumAsk = %v, want %v", s.PremiumAsk, want)
	}
	check("Largest.Seq", s.Largest.Seq, int64(5))
	check("Blocks", s.Blocks, 2)
	check("BlockVolume", s.BlockVolume, int64(300))
	check("Sweeps", s.Sweeps, 1)
	check("SweepVolume", s.SweepVolume, int64(25))
	check("Canceled", s.Canceled, 1)
	in, _, _ := InSweep(list)
	for i, want := range []bool{false, true, true, false, false, false, false, false, false, false} {
		if in[i] != want {
			t.Errorf("InSweep[%d] = %v, want %v", i, in[i], want)
		}
	}
	if want := premium / 100 / float64(10+20+5+150+150+40+7); math.Abs(s.VWAP-want) > 1e-9 {
		t.Errorf("VWAP = %v, want %v", s.VWAP, want)
	}
	if want := 0.25; math.Abs(s.VWIV-want) > 1e-12 {
		t.Errorf("VWIV = %v, want %v", s.VWIV, want)
	}
	if want := 215.0 / (17 + 150 + 215); math.Abs(s.AskShare()-want) > 1e-12 {
		t.Errorf("AskShare = %v, want %v", s.AskShare(), want)
	}
}

// TestSummarizeSweepsPerContract: prints of two contracts at the ask in
// one millisecond on two exchanges are not a sweep of either.
func TestSummarizeSweepsPerContract(t *testing.T) {
	a := trade(1, tm(10, 0, 0, 0), 5, 1.10, 1)
	b := trade(2, tm(10, 0, 0, 1), 5, 1.10, 2)
	a.Key, b.Key = "SPY261120C00600000", "SPY261120P00600000"
	if s := Summarize([]Trade{a, b}, 0); s.Sweeps != 0 || s.Blocks != 0 {
		t.Errorf("sweeps %d blocks %d, want 0 and 0", s.Sweeps, s.Blocks)
	}
	b.Key = a.Key
	if s := Summarize([]Trade{a, b}, 0); s.Sweeps != 1 {
		t.Errorf("sweeps %d, want 1", s.Sweeps)
	}
}

// TestInSweepRule holds each part of the sweep rule with prints that are
// and are not sweeps. Prints are at the bid (1.00), the ask (1.10), above
// the ask (1.15), below the bid (0.95) or between (1.05).
func TestInSweepRule(t *testing.T) {
	const phlx, emld, cboe, ise = 4, 16, 2, 1
	at := func(ms int) api.TimeOfDay { return tm(10, 0, 0, ms) }
	cases := []struct {
		name   string
		trades []Trade
		in     []bool
		sweeps int
		volume int64
	}{
		{"one side on three exchanges in one millisecond", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(11, at(0), 7, 1.15, emld), trade(12, at(0), 3, 1.10, cboe),
		}, []bool{true, true, true}, 1, 15},
		{"sold at the bid and below it", []Trade{
			trade(10, at(0), 5, 1.00, phlx), trade(11, at(1), 7, 0.95, emld),
		}, []bool{true, true}, 1, 12},
		// The pair: a 1-lot buy at the ask on PHLX and a 2-lot sale
		// at the bid on EMLD are two orders, not one sweep.
		{"mixed sides", []Trade{
			trade(10, at(0), 1, 1.10, phlx), trade(11, at(0), 2, 1.00, emld),
		}, []bool{false, false}, 0, 0},
		{"a print between the quotes", []Trade{
			trade(10, at(0), 5, 1.05, phlx), trade(11, at(0), 5, 1.05, emld),
		}, []bool{false, false}, 0, 0},
		{"one exchange", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(11, at(0), 5, 1.10, phlx), trade(12, at(1), 5, 1.10, phlx),
		}, []bool{false, false, false}, 0, 0},
		{"gap in sequence: another print came between", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(12, at(0), 5, 1.10, emld),
		}, []bool{false, false}, 0, 0},
		{"at the window's edge", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(11, at(5), 5, 1.10, emld),
		}, []bool{true, true}, 1, 10},
		{"beyond the window", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(11, at(6), 5, 1.10, emld),
		}, []bool{false, false}, 0, 0},
		// The window runs from the sweep's first print, not from print to
		// print: a slow walk across exchanges is several orders.
		{"the window is from the first print", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(11, at(4), 5, 1.10, emld), trade(12, at(8), 5, 1.10, cboe),
		}, []bool{true, true, false}, 1, 10},
		{"a buy sweep then a sell sweep, back to back", []Trade{
			trade(10, at(0), 5, 1.10, phlx), trade(11, at(0), 5, 1.10, emld),
			trade(12, at(1), 4, 1.00, cboe), trade(13, at(1), 4, 1.00, ise),
		}, []bool{true, true, true, true}, 2, 18},
		{"newest first, as a descending page comes", []Trade{
			trade(12, at(0), 3, 1.10, cboe), trade(11, at(0), 7, 1.10, emld), trade(10, at(0), 5, 1.10, phlx),
		}, []bool{true, true, true}, 1, 15},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, n, vol := InSweepWithin(c.trades, 5*time.Millisecond)
			if !slices.Equal(in, c.in) || n != c.sweeps || vol != c.volume {
				t.Errorf("in %v, %d sweeps of %d lots; want %v, %d of %d", in, n, vol, c.in, c.sweeps, c.volume)
			}
		})
	}
}

// TestInSweepAcrossContracts: in a list of an underlying's trades (each
// with its Key), a contract's prints are adjacent only when no print of
// any other contract came between, and a canceled print of the same
// contract leaves its neighbours adjacent (it is not counted itself).
func TestInSweepAcrossContracts(t *testing.T) {
	const c, p = "SPY261124C00699000", "SPY261124P00699000"
	keyed := func(k string, seq int64, ms int, price float64, exch uint8) Trade {
		tr := trade(seq, tm(10, 0, 0, ms), 5, price, exch)
		tr.Key = k
		return tr
	}
	list := []Trade{
		keyed(c, 1, 0, 1.10, 1), keyed(p, 2, 0, 1.10, 2), keyed(c, 3, 0, 1.10, 3), // the put came between
		keyed(c, 4, 1, 1.10, 1), keyed(c, 5, 1, 1.10, 2), keyed(c, 6, 1, 1.10, 3), // #5 canceled
		keyed(p, 7, 2, 1.00, 4), keyed(p, 8, 2, 1.00, 5),
	}
	list[4].Cancel = api.TradeCanceled
	in, n, vol := InSweep(list)
	want := []bool{false, false, true, true, false, true, true, true}
	if !slices.Equal(in, want) || n != 2 || vol != 25 {
		t.Errorf("in %v, %d sweeps of %d lots; want %v, 2 of 25", in, n, vol, want)
	}
}

func TestSummarizeEmpty(t *testing.T) {
	s := Summarize(nil, 100)
	if s.Trades != 0 || s.HasLargest || !math.IsNaN(s.VWAP) || !math.IsNaN(s.VWIV) || !math.IsNaN(s.AskShare()) {
		t.Errorf("empty summary = %+v", s)
	}
}

func TestSeriesAddsOnlyNew(t *testing.T) {
	s := NewSeries()
	if _, _, ok := s.Next(); ok {
		t.Fatal("an empty series has a next start")
	}
	if n := s.Add([]Trade{trade(3, tm(9, 31, 0, 0), 1, 1, 1), trade(5, tm(9, 32, 0, 0), 1, 1, 1)}); n != 2 {
		t.Fatalf("first page added %d, want 2", n)
	}
	start, minT, ok := s.Next()
	if !ok || start != 6 || minT != tm(9, 32, 0, 0) {
		t.Fatalf("Next = %d %v %v, want 6 09:32 true", start, minT, ok)
	}
	// An overlapping page, out of order: only 7 and 9 are new.
	if n := s.Add([]Trade{trade(9, tm(9, 34, 0, 0), 1, 1, 1), trade(5, tm(9, 32, 0, 0), 1, 1, 1), trade(7, tm(9, 33, 0, 0), 1, 1, 1)}); n != 2 {
		t.Fatalf("overlapping page added %d, want 2", n)
	}
	var seqs []int64
	for _, tr := range s.Trades() {
		seqs = append(seqs, tr.Seq)
	}
	if len(seqs) != 4 || seqs[0] != 3 || seqs[1] != 5 || seqs[2] != 7 || seqs[3] != 9 {
		t.Errorf("held %v, want [3 5 7 9]", seqs)
	}
}

func TestTheo(t *testing.T) {
	last := trade(1, tm(10, 0, 0, 0), 10, 2.00, 1)
	last.Delta, last.Gamma, last.Theta = 0.5, 0.1, -0.2
	last.UndBid, last.UndAsk = 99.9, 100.1
	// Up 2.00: 2.00 + 0.5*2 + 0.5*0.1*4 - 0.2*0.5 = 3.10
	if got := Theo(&last, 102, 0.5); math.Abs(got-3.10) > 1e-9 {
		t.Errorf("Theo = %v, want 3.10", got)
	}
	last.UndBid = math.NaN()
	if got := Theo(&last, 102, 0); !math.IsNaN(got) {
		t.Errorf("Theo without the underlying at the print = %v, want NaN", got)
	}
}

func TestQuotesKeepChangesOnly(t *testing.T) {
	q := NewQuotes()
	rec := func(seq int64, bid, ask float64) api.TAQRecord {
		r := api.TAQRecord{Kind: api.KindQuote}
		r.Quote.SequenceNumber, r.Quote.Time = seq, tm(10, 0, int(seq), 0)
		r.Quote.NBBOBid, r.Quote.NBBOAsk = api.Some(bid), api.Some(ask)
		return r
	}
	if n := q.AddTAQ([]api.TAQRecord{rec(1, 1, 1.1), rec(2, 1, 1.1), rec(3, 1.05, 1.1)}); n != 3 {
		t.Fatalf("added %d, want 3", n)
	}
	if got := len(q.All()); got != 2 {
		t.Errorf("held %d quotes, want 2 (the repeat is not a change)", got)
	}
	if start, _, _ := q.Next(); start != 4 {
		t.Errorf("next start %d, want 4", start)
	}
	if n := q.AddTAQ([]api.TAQRecord{rec(3, 1.05, 1.1), rec(4, 1.0, 1.1)}); n != 1 {
		t.Errorf("overlapping page added %d, want 1", n)
	}
}
