package alert

import (
	"fmt"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// What a rule needs fetched, whether the screen fetches it already, and
// what fetching it for the rule costs. The rules' own fetches are one
// job of the monitor (the engine's feed), which asks at each run only
// for what no subscriber's feed brings by then.

// needKind is a kind of data a rule watches.
type needKind uint8

const (
	needQuote    needKind = iota // the underlying's quote: underlying-quotes, every symbol in one request
	needContract                 // one option's quote: option-and-underlying-quotes narrowed to it
	needChain                    // the whole chain (unusual activity of any contract)
	needTape                     // the underlying's option trades, from the last one seen
	needScan                     // a scan's results
)

// need is one thing to fetch.
type need struct {
	kind     needKind
	symbol   string
	contract string
	scan     string
}

// needOf is what r needs.
func needOf(r Rule) need {
	switch {
	case r.Kind == KindPrice || r.Kind == KindIV30:
		return need{kind: needQuote, symbol: r.Symbol}
	case r.Kind == KindBlock || r.Kind == KindSweep:
		return need{kind: needTape, symbol: r.Symbol}
	case r.Kind == KindScan:
		return need{kind: needScan, scan: r.Scan}
	case r.Contract != "":
		return need{kind: needContract, symbol: r.Symbol, contract: r.Contract}
	}
	return need{kind: needChain, symbol: r.Symbol}
}

// covered reports whether a feed being polled (polled, of mode m today)
// brings what n needs.
func covered(n need, polled []feed.Want, m api.Mode, now time.Time) bool {
	for _, w := range polled {
		if w.Query.Mode != m || w.Query.Historical(now) {
			continue
		}
		if coveredBy(n, w) {
			return true
		}
	}
	return false
}

func coveredBy(n need, w feed.Want) bool {
	sym := w.Query.Symbol == n.symbol
	switch n.kind {
	case needQuote:
		return sym && (w.Feed == feed.FeedChain || w.Feed == feed.FeedTerm || w.Feed == feed.FeedContractQuote) ||
			w.Feed == feed.FeedQuotes && slices.Contains(w.Symbols, n.symbol)
	case needContract:
		o, err := api.ParseOSI(n.contract)
		return err == nil && sym && (w.Feed == feed.FeedChain && w.Expiry == o.Expiry ||
			w.Feed == feed.FeedContractQuote && w.OSI == o)
	case needChain:
		return sym && (w.Feed == feed.FeedChain || w.Feed == feed.FeedTerm)
	case needTape:
		return sym && w.Feed == feed.FeedTape
	}
	return false
}

// perRun is the points one fetch of n costs in mode m (a scan's a run of
// it), and how many runs an hour of the engine's feed make one fetch.
func (e *Engine) perRun(n need) (points int, every time.Duration, what string) {
	m := e.o.Mode
	switch n.kind {
	case needQuote:
		return api.Cost(api.EndpointUnderlyingQuotes, m, false), e.o.Every, "underlying-quotes"
	case needContract, needChain:
		return api.Cost(api.EndpointOptionQuotes, m, false), e.o.Every, "option-and-underlying-quotes"
	case needTape:
		return api.Cost(api.EndpointOptionTrades, m, false), e.o.Every, "option-trades"
	case needScan:
		s, _ := scan.Find(e.o.Scans, n.scan)
		return s.Cost(m), max(e.o.Every, config.AlertScanEvery), "custom-scanner"
	}
	return 0, e.o.Every, ""
}

// Cost is what a rule adds to the bill: nothing while the screen fetches
// its data or another rule's fetch brings it, else its own fetch every
// interval, in points an hour. OffScreen is what it costs with nothing on
// screen (`--cost`, and the screen once it shows something else).
type Cost struct {
	PerHour   float64
	OffScreen float64
	Covered   bool   // a feed on screen brings its data
	Shared    bool   // another rule's fetch brings it
	What      string // "underlying-quotes 4 pts every 30s"
}

// Text is the cost in words, for the page and the dialog.
func (c Cost) Text() string {
	switch {
	case c.Covered:
		return fmt.Sprintf("on screen: 0 pts now (%s pts/h when not: %s)", scan.GroupDigits(int64(c.OffScreen+0.5)), c.What)
	case c.Shared:
		return "0 pts/h: another alert's fetch brings it"
	}
	return fmt.Sprintf("%s pts/h (%s)", scan.GroupDigits(int64(c.PerHour+0.5)), c.What)
}

// CostOf is what r would add now, besides the enabled rules (but r's own
// name, when it replaces one).
func (e *Engine) CostOf(r Rule, now time.Time) Cost {
	polled := e.o.Monitor.Polled(now)
	others := e.pool.others(e)
	e.mu.Lock()
	defer e.mu.Unlock()
	cc := e.costContext(polled, others, now)
	if i := e.find(r.Name); i >= 0 && e.rules[i].Enabled {
		cc.drop(needOf(e.rules[i].Rule), polled, e.o.Mode, now)
	}
	return e.costWith(r, cc, now)
}

// costCtx is what the enabled rules fetch, for a rule's share of it.
type costCtx struct {
	polled []feed.Want
	needs  map[need]int // enabled rules by need
	quotes int          // enabled rules whose quote no feed brings: they share one request
}

// costContext counts the enabled rules' needs (under e.mu), with others,
// those of the other engines of the pool.
func (e *Engine) costContext(polled []feed.Want, others []need, now time.Time) costCtx {
	cc := costCtx{polled: polled, needs: map[need]int{}}
	count := func(n need) {
		cc.needs[n]++
		if n.kind == needQuote && !covered(n, polled, e.o.Mode, now) {
			cc.quotes++
		}
	}
	for _, n := range others {
		count(n)
	}
	for _, rs := range e.rules {
		if rs.Enabled {
			count(needOf(rs.Rule))
		}
	}
	return cc
}

// drop takes one rule of need n out of cc (a rule's own share).
func (cc *costCtx) drop(n need, polled []feed.Want, m api.Mode, now time.Time) {
	cc.needs[n]--
	if n.kind == needQuote && !covered(n, polled, m, now) {
		cc.quotes--
	}
}

// costWith is r's cost beside the rules cc counts.
func (e *Engine) costWith(r Rule, cc costCtx, now time.Time) Cost {
	n := needOf(r)
	pts, every, what := e.perRun(n)
	c := Cost{OffScreen: float64(pts) * float64(time.Hour) / float64(every),
		What: fmt.Sprintf("%s %d pts every %s", what, pts, every)}
	if n.kind == needQuote {
		c.What = fmt.Sprintf("%s %d pts every %s, for every symbol at once", what, pts, every)
	}
	c.Covered = n.kind != needScan && covered(n, cc.polled, e.o.Mode, now)
	c.Shared = !c.Covered && (cc.needs[n] > 0 || n.kind == needQuote && cc.quotes > 0)
	if !c.Covered && !c.Shared {
		c.PerHour = c.OffScreen
	}
	return c
}

// costs are each rule's cost with polled on screen, beside the others'
// needs (under e.mu).
func (e *Engine) costs(polled []feed.Want, others []need, now time.Time) []Cost {
	cc := e.costContext(polled, others, now)
	out := make([]Cost, len(e.rules))
	for i, rs := range e.rules {
		if rs.Enabled {
			cc.drop(needOf(rs.Rule), polled, e.o.Mode, now)
		}
		out[i] = e.costWith(rs.Rule, cc, now)
		if rs.Enabled {
			cc.needs[needOf(rs.Rule)]++
			if n := needOf(rs.Rule); n.kind == needQuote && !covered(n, polled, e.o.Mode, now) {
				cc.quotes++
			}
		}
	}
	return out
}

// Plan is the rules' own fetches with nothing on screen: points an hour
// in all, and each rule's cost (`chainwatch alerts --cost`).
func (e *Engine) Plan() (total float64, each []Cost) {
	now := e.o.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	each = e.costs(nil, nil, now)
	seen := map[need]bool{}
	quotes := false
	for i, rs := range e.rules {
		n := needOf(rs.Rule)
		if !rs.Enabled || seen[n] || n.kind == needQuote && quotes {
			continue
		}
		seen[n], quotes = true, quotes || n.kind == needQuote
		total += each[i].OffScreen
	}
	return total, each
}

// uncovered are the needs of the enabled rules that no feed being polled
// brings now, each once, in the rules' order.
func (e *Engine) uncovered(polled []feed.Want, now time.Time) []need {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []need
	for _, rs := range e.rules {
		n := needOf(rs.Rule)
		if !rs.Enabled || slices.Contains(out, n) || n.kind != needScan && covered(n, polled, e.o.Mode, now) {
			continue
		}
		out = append(out, n)
	}
	return out
}
