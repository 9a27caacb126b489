package alert_test

import (
	"context"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/feed/feedtest"
	"chainwatch/scan"
)

const call700 = "SPY261124C00700000"

// print is a trade of call700 (or osi) at the ask.
func print(seq int64, size int64, exch uint8, ms int, osi string) api.OptionTrade {
	o, _ := api.ParseOSI(osi)
	return api.OptionTrade{Security: api.Some(osi), Root: o.Root, Expiry: o.Expiry, Strike: o.Strike(), OptionType: o.Type,
		Price: api.Some(2.0), Bid: api.Some(1.9), Ask: api.Some(2.0), TradeAt: api.OnAsk, Size: size, ExchangeID: exch,
		Timestamp: api.NewTimeOfDay(10, 0, 0, ms), SeqNo: seq}
}

func tape(trades ...api.OptionTrade) func(*feedtest.Request) any {
	return func(req *feedtest.Request) any {
		return feed.TapeMsg{Trades: trades, Resp: &api.Response{StatusCode: 200, Cost: 15}}
	}
}

// TestBlocksFireOncePerPrint: a print of at least the size fires once,
// with its size, price, premium, time and sequence number; the page that
// comes again from the next sequence number holds it no more, and a
// canceled print never fires.
func TestBlocksFireOncePerPrint(t *testing.T) {
	r := newRig(t, nil,
		alert.Rule{Kind: alert.KindBlock, Symbol: "SPY", MinSize: 500},
		alert.Rule{Kind: alert.KindBlock, Symbol: "SPY", MinPremium: 150_000},
		alert.Rule{Kind: alert.KindBlock, Symbol: "SPY", Contract: call700, MinSize: 1000})
	canceled := print(3, 5000, 1, 30, call700)
	canceled.CancelFlag = api.TradeCanceled
	evs := r.run(func(req *feedtest.Request) any {
		if req.Feed != feed.FeedTape || req.From != 0 || req.Day != 20261124 {
			t.Fatalf("first fetch %v from %d day %v, want the tape's latest window today", req.Feed, req.From, req.Day)
		}
		return tape(print(1, 10, 1, 0, call700), print(2, 600, 1, 10, call700), canceled, print(4, 1200, 1, 40, call700))(req)
	})
	// 600 (size; premium $120,000 is under $150,000), 1,200 (size, premium $240,000, and the contract's rule).
	want := map[string][]int64{"SPY blocks ≥ 500 contracts": {2, 4}, "SPY blocks ≥ $150,000": {4}, call700 + " blocks ≥ 1,000 contracts": {4}}
	got := map[string][]int64{}
	for _, e := range evs {
		got[e.Rule] = append(got[e.Rule], e.Seq)
		if e.Seq == 4 && (e.Size != 1200 || e.Price != 2 || e.Premium != 240_000 || e.Contract != call700) {
			t.Errorf("block event %+v", e)
		}
	}
	for rule, seqs := range want {
		if len(got[rule]) != len(seqs) || got[rule][0] != seqs[0] {
			t.Errorf("%s fired %v, want %v", rule, got[rule], seqs)
		}
	}
	r.tick()
	evs = r.run(func(req *feedtest.Request) any {
		if req.From != 5 {
			t.Errorf("the next page from %d, want 5", req.From)
		}
		return tape(print(4, 1200, 1, 40, call700), print(5, 20, 1, 50, call700))(req) // 4 again: a page that overlaps
	})
	if len(evs) != 0 {
		t.Errorf("the next page fired %v", evs)
	}
}

// TestSweepsFireOnce: prints of one contract at the ask, adjacent in
// sequence, within 5 ms, on two exchanges are a sweep (tas's rule),
// fired once with its whole size, even when its last print comes in the
// next page.
func TestSweepsFireOnce(t *testing.T) {
	r := newRig(t, nil, alert.Rule{Kind: alert.KindSweep, Symbol: "SPY", MinSize: 100})
	evs := r.run(tape(print(10, 60, 1, 0, call700), print(11, 60, 2, 2, call700), print(12, 5, 1, 900, call700)))
	if len(evs) != 1 || evs[0].Seq != 10 || evs[0].Size != 120 || evs[0].Contract != call700 {
		t.Fatalf("sweep events %+v, want one of 120 contracts from seq 10", evs)
	}
	r.tick()
	// A sweep split across two pages: 13 ends the first, 14 starts the next.
	if evs := r.run(tape(print(13, 70, 1, 1000, call700))); len(evs) != 0 {
		t.Fatalf("a lone print fired %+v", evs)
	}
	r.tick()
	evs = r.run(tape(print(14, 70, 3, 1002, call700), print(15, 1, 1, 2000, call700)))
	if len(evs) != 1 || evs[0].Seq != 13 || evs[0].Size != 140 {
		t.Fatalf("the split sweep fired %+v, want one of 140 contracts from seq 13", evs)
	}
}

// TestIV30Move: IV30 fires once it has moved its points from the first
// value of the session, and re-arms once back under them by the margin;
// the event says IV as a fraction.
func TestIV30Move(t *testing.T) {
	r := newRig(t, nil, alert.Rule{Kind: alert.KindIV30, Symbol: "SPY", Move: 2, From: "open"})
	ivs := []float64{20, 21, 22.1, 22.5, 21.4, 22.0}
	fires := []bool{false, false, true, false, false, true}
	for i, iv := range ivs {
		if i > 0 {
			r.tick()
		}
		evs := r.run(func(*feedtest.Request) any { return quotes("SPY", 700, iv, int64(i), tod(10, 0, i)) })
		if (len(evs) == 1) != fires[i] {
			t.Fatalf("IV30 %v: %d events, want fires=%v", iv, len(evs), fires[i])
		}
		if fires[i] && (evs[0].Level != 0.22 || evs[0].Value != iv/100) {
			t.Errorf("IV30 event %+v", evs[0])
		}
	}
}

// TestOptionLevelAndUnusual: a contract's mid crossing is evaluated on
// its own snapshot (the engine asks for that contract alone), and its
// unusual volume fires once a day.
func TestOptionLevelAndUnusual(t *testing.T) {
	r := newRig(t, nil,
		alert.Rule{Kind: alert.KindMid, Symbol: "SPY", Contract: call700, Above: true, Level: 2.5},
		alert.Rule{Kind: alert.KindUnusual, Symbol: "SPY", Contract: call700, Ratio: 3, MinVolume: 1000})
	snap := func(mid float64, vol int64) func(*feedtest.Request) any {
		return func(req *feedtest.Request) any {
			if req.Feed != feed.FeedContractQuote || req.OSI.String() != call700 {
				t.Fatalf("the engine asked %v %v, want the contract's quote", req.Feed, req.OSI)
			}
			o := api.OptionData{Option: call700, Mid: api.Some(mid), Volume: api.Some(vol), OpenInterest: api.Some(int64(300)),
				Timestamp: tod(10, 0, 5)}
			ch := &api.SymbolWithOptions{Underlying: api.Underlying{Symbol: "SPY", Timestamp: tod(10, 0, 5)}, Options: []api.OptionData{o}}
			return feed.ContractQuoteMsg{Chain: ch, Resp: &api.Response{StatusCode: 200, Cost: 4}}
		}
	}
	if evs := r.run(snap(2.4, 900)); len(evs) != 0 {
		t.Fatalf("below both: %+v", evs)
	}
	r.tick()
	evs := r.run(snap(2.6, 1200))
	if len(evs) != 2 {
		t.Fatalf("mid 2.6, volume 1,200 of OI 300: %d events, want the mid and the unusual volume", len(evs))
	}
	r.tick()
	if evs := r.run(snap(2.7, 5000)); len(evs) != 0 {
		t.Fatalf("again the same day: %+v", evs)
	}
}

// TestScanGainsASymbol: the first run is what the scan holds; a symbol
// that joins the results later fires, once.
func TestScanGainsASymbol(t *testing.T) {
	clock := feedtest.NewClock(open)
	src := feedtest.NewScript(clock)
	mon := src.Monitor(t, feed.Budget{PerDay: 10_000_000})
	runs := [][]string{{"AAPL"}, {"AAPL", "TSLA"}, {"TSLA", "AAPL"}}
	n := 0
	runScan := func(_ context.Context, s scan.Scan) (scan.Outcome, error) {
		var rows []api.ScanRow
		for _, sym := range runs[min(n, len(runs)-1)] {
			rows = append(rows, api.ScanRow{Symbol: sym})
		}
		n++
		return scan.Outcome{Scan: s, Result: &api.ScanResult{Output: rows}, Resp: &api.Response{StatusCode: 200, Cost: 30}}, nil
	}
	eng, err := alert.New(alert.Options{Monitor: mon, Fetcher: src, RunScan: runScan, Every: 5 * time.Minute, Now: clock.Now},
		withDefaults([]alert.Rule{{Kind: alert.KindScan, Scan: "High IV"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	r := &rig{t: t, clock: clock, src: src, mon: mon, eng: eng, sub: mon.Subscribe()}
	eng.Start()
	var fired []string
	for i := range 3 {
		for _, e := range r.drain() {
			fired = append(fired, e.Symbol)
		}
		if i < 2 {
			clock.Advance(5 * time.Minute)
		}
	}
	if len(fired) != 1 || fired[0] != "TSLA" {
		t.Errorf("fired %v, want TSLA once", fired)
	}
}
