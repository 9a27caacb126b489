package alert

import (
	"chainwatch/pricing"
	"math"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
	"chainwatch/tas"
)

// tapeState is what the trade rules of one underlying have seen of its
// tape today: prints up to seen are evaluated (a page that comes again,
// the screen's tape and the rules' own overlapping, fires nothing twice),
// and the last prints of the last page are carried into the next, where
// a sweep split across two pages is found whole.
type tapeState struct {
	day     api.Date
	seen    int64 // the last sequence number evaluated; -1 none
	sweptTo int64 // the last print of the last sweep fired
	carry   []tas.Trade
	buf     []tas.Trade
	osis    map[osiKey]string // the OSI symbols of prints sent without one
}

// osiKey names a contract without building its symbol.
type osiKey struct {
	root   string
	expiry api.Date
	typ    api.OptionType
	strike float64
}

// osiMax bounds the symbols kept for prints sent without one.
const osiMax = 10000

// carryMax bounds the prints carried into the next page.
const carryMax = 64

// onTape evaluates a page of option trades: blocks print by print, and
// the sweeps among them.
func (e *Engine) onTape(m feed.TapeMsg, recs *[]Record) {
	day, ok := e.today(m.Query, m.At)
	sr := e.idx.bySym[m.Query.Symbol]
	if !ok || m.Day != day || sr == nil || !sr.trades() || m.Err != nil {
		return
	}
	ts := e.tapes[m.Query.Symbol]
	if ts == nil || ts.day != day {
		ts = &tapeState{day: day, seen: -1, sweptTo: -1}
		e.tapes[m.Query.Symbol] = ts
	}
	if cut := e.cut(day); cut > 0 {
		// The prints before Since are the past: seen, and fired for nothing.
		for i := range m.Trades {
			if t := &m.Trades[i]; t.Timestamp < cut && t.SeqNo > ts.seen {
				ts.seen, ts.sweptTo = t.SeqNo, max(ts.sweptTo, t.SeqNo)
			}
		}
	}
	from, last := ts.seen, ts.seen
	for i := range m.Trades {
		t := &m.Trades[i]
		if t.SeqNo <= from {
			continue
		}
		last = max(last, t.SeqNo)
		if t.CancelFlag != api.TradeNormal {
			continue
		}
		e.block(sr, ts, t, day, m.Query.Symbol, m.At, recs)
	}
	if sr.anySweeps() {
		e.sweeps(sr, ts, m.Trades, from, day, m.Query.Symbol, m.At, recs)
	}
	ts.seen = last
}

// cut is Since on day as a time of day: the prints before it are the
// past; 0 when the whole of day is wanted.
func (e *Engine) cut(day api.Date) api.TimeOfDay {
	since := e.o.Since
	if since.IsZero() {
		return 0
	}
	switch sd := api.Today(since); {
	case sd < day:
		return 0
	case sd > day:
		return api.DayMillis // all of day is before it
	}
	return api.TimeOfDayOf(since)
}

// premium is a print's dollars, in cents; 0 without a price.
func premium(price api.Float, size int64) float64 {
	if !price.Valid || math.IsNaN(price.V) {
		return 0
	}
	return cents(price.V * float64(size) * pricing.Multiplier)
}

// cents rounds dollars to the cent: an event carries 58292, not the
// product's 58291.99999999999.
func cents(v float64) float64 { return math.Round(v*100) / 100 }

// osiOf is a print's contract: its symbol as sent, else made once a
// contract and kept (a page of prints allocates nothing for them again).
func (ts *tapeState) osiOf(t *api.OptionTrade) string {
	if t.Security.Valid && t.Security.V != "" {
		return t.Security.V
	}
	k := osiKey{t.Root, t.Expiry, t.OptionType, t.Strike}
	if s, ok := ts.osis[k]; ok {
		return s
	}
	s, _ := api.FormatOSI(t.Root, t.Expiry, t.OptionType, t.Strike)
	if ts.osis == nil || len(ts.osis) >= osiMax {
		ts.osis = map[osiKey]string{}
	}
	ts.osis[k] = s
	return s
}

// block fires the block rules print t meets: those of the symbol, by
// their thresholds (sorted, so a print below them all costs two
// comparisons), and those of its contract.
func (e *Engine) block(sr *symRules, ts *tapeState, t *api.OptionTrade, day api.Date, sym string, at time.Time, recs *[]Record) {
	prem := premium(t.Price, t.Size)
	var osi string
	fire := func(rs *ruleState) {
		if osi == "" {
			osi = ts.osiOf(t)
		}
		ev := Event{Symbol: sym, Contract: osi, Time: dataTime(day, t.Timestamp), Seq: t.SeqNo,
			Value: float64(t.Size), Level: float64(rs.MinSize), Direction: "at_least",
			Size: t.Size, Price: api.OrNaN(t.Price), Premium: prem}
		if rs.MinSize == 0 {
			ev.Value, ev.Level = prem, rs.MinPremium
		}
		e.fire(rs, ev, at, recs)
	}
	for _, rs := range sr.blocksBySize {
		if rs.MinSize > t.Size {
			break
		}
		if prem >= rs.MinPremium {
			fire(rs)
		}
	}
	for _, rs := range sr.blocksByPremium {
		if rs.MinPremium > prem {
			break
		}
		fire(rs)
	}
	if !sr.contractTrades {
		return
	}
	osi = ts.osiOf(t)
	for _, rs := range sr.contracts[osi] {
		if rs.Kind == KindBlock && t.Size >= rs.MinSize && prem >= rs.MinPremium {
			fire(rs)
		}
	}
}

// sweeps finds the sweeps among the new prints of a page (after from),
// with the prints carried from the last page, and fires each new one for
// the rules of its symbol and of its contract.
func (e *Engine) sweeps(sr *symRules, ts *tapeState, trades []api.OptionTrade, from int64, day api.Date, sym string, at time.Time, recs *[]Record) {
	buf := append(ts.buf[:0], ts.carry...)
	for i := range trades {
		if t := &trades[i]; t.SeqNo > from {
			tr := tas.FromOptionTrade(t)
			tr.Key = ts.osiOf(t)
			buf = append(buf, tr)
		}
	}
	tas.EachSweep(buf, config.SweepWindow, func(run []int) {
		first := &buf[run[0]]
		if first.Seq <= ts.sweptTo {
			return // fired from the last page
		}
		var size int64
		var prem float64
		for _, i := range run {
			size += buf[i].Size
			if p := buf[i].Premium(); !math.IsNaN(p) {
				prem += p
			}
			ts.sweptTo = max(ts.sweptTo, buf[i].Seq)
		}
		prem = cents(prem)
		ev := Event{Symbol: sym, Contract: first.Key, Time: dataTime(day, first.Time), Seq: first.Seq,
			Value: float64(size), Direction: "at_least", Size: size, Price: first.Price, Premium: prem}
		for _, rs := range sr.sweeps {
			if size >= rs.MinSize && prem >= rs.MinPremium {
				ev.Level = float64(rs.MinSize)
				e.fire(rs, ev, at, recs)
			}
		}
		for _, rs := range sr.contracts[first.Key] {
			if rs.Kind == KindSweep && size >= rs.MinSize && prem >= rs.MinPremium {
				ev.Level = float64(rs.MinSize)
				e.fire(rs, ev, at, recs)
			}
		}
	})
	// The prints within a sweep's window of the last are carried.
	keep := len(buf)
	for keep > 0 && len(buf)-keep < carryMax && buf[len(buf)-1].Time-buf[keep-1].Time <= api.TimeOfDay(config.SweepWindow.Milliseconds()) {
		keep--
	}
	ts.carry = append(ts.carry[:0], buf[keep:]...)
	ts.buf = buf[:0]
}

// scanResult is a scan rule's run.
type scanResult struct {
	name string
	out  scan.Outcome
	err  error
	at   time.Time
}

// onScan fires the rules of a scan for each symbol its results gained
// since its last run; the first run after the start is what it holds.
func (e *Engine) onScan(m scanResult, recs *[]Record) {
	if m.err != nil || m.out.Result == nil && m.out.Resp == nil {
		return
	}
	var rows []api.ScanRow
	if m.out.Result != nil {
		rows = m.out.Result.Output
	}
	now := map[string]bool{}
	for _, row := range rows {
		now[strings.ToUpper(row.Symbol)] = true
	}
	for _, rs := range e.idx.scans {
		if !strings.EqualFold(rs.Scan, m.name) {
			continue
		}
		prev := rs.scanSyms
		rs.scanSyms, rs.seen, rs.last, rs.lastAt = now, true, float64(len(now)), m.at
		if prev == nil {
			continue
		}
		for _, row := range rows {
			sym := strings.ToUpper(row.Symbol)
			if prev[sym] {
				continue
			}
			prev[sym] = true // a symbol listed twice fires once
			ev := Event{Symbol: sym, Time: m.at, Value: float64(len(now)), Direction: "gained"}
			e.fire(rs, ev, m.at, recs)
		}
	}
}
