package sim

import (
	"math"
	"math/rand/v2"
	"sort"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
)

// How a generated trade is priced against the NBBO of its moment.
const (
	atBid uint8 = iota
	atAsk
	atMid
	belowBid  // a late print under the bid
	aboveAsk  // a late print over the ask
	sweepBuy  // a sweep lifting offers: at the ask, walking up by level ticks
	sweepSell // a sweep hitting bids: at the bid, walking down
	crossed   // printed during a momentary crossed market
)

// skelTrade is a trade before pricing: when, what, how many, where, and how
// it meets the NBBO. The day's trades are drawn as skeletons first because
// the scanner needs only their volumes, and open interest only yesterday's.
type skelTrade struct {
	t     api.TimeOfDay // print time
	pt    api.TimeOfDay // the time whose NBBO sets the price: t, or the canceled trade's
	ci    int32         // contract number in the day's book
	ord   int32         // generation order, which breaks ties of time
	size  int32
	rnd   uint32
	exch  uint8
	cond  uint8
	flag  uint8 // api.CancelFlag
	kind  uint8
	level uint8 // ticks through the NBBO for sweeps and late prints
	part  uint8 // the piece's number in its sweep, from 1; 0 for a print of no sweep
}

// skelTrades is a day's skeleton trades while it is drawn.
type skelTrades []skelTrade

// skeleton is one symbol's option trades of one day, sorted by time (seq_no
// is the index + 1): the whole day, or its trades through a time of day
// (see drawn.go).
type skeleton struct {
	trades []skelTrade
	until  api.TimeOfDay // trades holds every trade at or before until
	whole  bool          // until is the close: trades is the whole day
}

// skeleton returns the whole day's trades of b's symbol, generated once.
func (m *Market) skeleton(b *book) (*skeleton, bool) {
	return m.skeletonThrough(b, nyse.SessionClose(b.date))
}

// volumes is the day's volume of normal trades per contract.
func (sk *skeleton) volumes(n int) []int64 {
	v := make([]int64, n)
	for _, t := range sk.trades {
		if t.flag == uint8(api.TradeNormal) {
			v[t.ci] += int64(t.size)
		}
	}
	return v
}

// gen draws one day's trades.
type gen struct {
	b         *book
	rng       *rand.Rand
	open      api.TimeOfDay
	close     api.TimeOfDay
	weights   []float64 // cumulative series weights
	exWeights []float64 // cumulative exchange weights
	out       []skelTrade
	lastSweep api.TimeOfDay // when the last sweep started (sweeps never overlap)
}

// tradeCount is the number of prints of the day: the name's typical
// activity (optionActivity), give or take a quarter, and on a report day
// nearly twice as much (a reaction before the open, a positioning into one
// after the close).
func tradeCount(b *book, rng *rand.Rand) int {
	n := optionActivity(b.sec) * (0.75 + 0.5*rng.Float64())
	if e := b.events[0]; e.ok && e.days == 0 {
		n *= 1.8
	}
	return int(n)
}

// generate draws the day's trades of b's symbol.
func generate(b *book) *skeleton { return generateThrough(b, nyse.SessionClose(b.date)) }

// generateThrough draws the day's trades of b's symbol at or before until:
// the orders placed through until, drawn as the whole day draws them (the
// same generator, in the same order), so the trades are the whole day's
// through until, to the last field (see drawn.go).
func generateThrough(b *book, until api.TimeOfDay) *skeleton {
	g := &gen{b: b, rng: newRand(b.sec.Symbol, b.date, "trades"),
		open: nyse.SessionOpen, close: nyse.SessionClose(b.date)}
	n := tradeCount(b, g.rng)
	g.seriesWeights()
	g.exWeights = make([]float64, len(market.OptionExchanges))
	acc := 0.0
	for i := range g.exWeights {
		acc += 1 / math.Pow(float64(i+1), 0.7)
		g.exWeights[i] = acc
	}
	g.out = make([]skelTrade, 0, n+n/100)
	if len(g.weights) == 0 || acc == 0 || g.weights[len(g.weights)-1] == 0 {
		return &skeleton{until: until, whole: until >= g.close}
	}
	// Orders (worked in a burst, a sweep, a block: see order) at times
	// drawn with the session's intensity, in time order so that the trades
	// come out nearly sorted; 1.84 prints per order on average.
	span := float64(g.close - g.open)
	events := make([]float64, int(float64(n)/1.84))
	for i := range events {
		events[i] = g.rng.Float64()
	}
	events, hi := sharesThrough(events, float64(until-g.open)/span)
	sortUniform(events, hi)
	sessionQuantiles(events)
	for _, u := range events {
		t := g.open + api.TimeOfDay(u*span)
		if t > until {
			break
		}
		g.order(t, g.pick(t))
	}
	out := g.sorted()
	out.spread()
	out = out.separate(b)
	kept := sort.Search(len(out), func(i int) bool { return out[i].t > until })
	return &skeleton{trades: out[:kept:kept], until: until, whole: until >= g.close}
}

// sorted is the day's trades in time order, ties in the order drawn
// (sortByTime), each numbered with its place in that order drawn.
func (g *gen) sorted() skelTrades {
	for i := range g.out {
		g.out[i].ord = int32(i)
	}
	return sortByTime(g.out)
}

// exchangeSeqs numbers the trades per exchange, rising through the day
// from an arbitrary start, with gaps where other symbols' prints would
// interleave on the same exchange.
func (sk *skeleton) exchangeSeqs(sym string, date api.Date) []int64 {
	out := make([]int64, len(sk.trades))
	var next [256]int64
	for i, t := range sk.trades {
		s := next[t.exch]
		if s == 0 {
			s = 1000 + int64(mix(seed(sym, date, "exseq")^uint64(t.exch))%900_000)
		}
		s += 1 + int64(t.rnd%3)
		next[t.exch] = s
		out[i] = s
	}
	return out
}

// seriesWeights weights expiries by nearness (most volume is in the next
// few weeks), the monthlies more, and the same-day expiry heavily for the
// names that list one every day (SPXW and SPY trade most of their volume on
// 0DTE), a little for the others' expiration days.
func (g *gen) seriesWeights() {
	g.weights = make([]float64, len(g.b.series))
	acc := 0.0
	for i := range g.b.series {
		s := &g.b.series[i]
		if s.alive(g.open) {
			d := float64(s.days) + float64(s.settle-12*3600_000)/dayMs
			w := math.Exp(-d/10) + 0.03/(1+d/90)
			switch {
			case s.days == 0 && g.b.dailies:
				w *= 5 // 0DTE is most of SPXW's and SPY's volume
			case s.days == 0:
				w *= 1.5
			case s.monthly:
				w *= 2.5
			}
			acc += w
		}
		g.weights[i] = acc
	}
}

// intensity is the relative trading rate at fraction u of the session:
// busy at the open and into the close, quiet at lunch.
func intensity(u float64) float64 {
	x := 2*u - 1
	return 1 + 3*x*x + 6*math.Exp(-u/0.015)
}

// sessionShare is the share of a day's trading done by fraction u of the
// session: the integral of intensity, normalized.
func sessionShare(u float64) float64 {
	x := 2*u - 1
	return (u + (x*x*x+1)/2 + 0.09*(1-math.Exp(-u/0.015))) / 2.09
}

// shareTable tabulates sessionShare for its inverse.
var shareTable = func() (t [1025]float64) {
	for i := range t {
		t[i] = sessionShare(float64(i) / 1024)
	}
	return t
}()

// sessionQuantiles replaces each of the ascending shares rs by the
// session fraction by which that share of the day's trading is done (trade
// times drawn with the intensity's shape), finding their places in the
// table in one pass. The fractions never fall as the share rises, so they
// come out ascending.
func sessionQuantiles(rs []float64) {
	i := 0 // the first entry of the table not below r, as sort.SearchFloat64s finds it
	for j, r := range rs {
		for i < len(shareTable) && shareTable[i] < r {
			i++
		}
		rs[j] = quantileAt(r, i)
	}
}

// sharesThrough keeps of the shares rs (in place) those whose session
// fraction may be at or before f, and more: a share above the table's
// entry two past f's place has a fraction past f by more than a
// millisecond of any session, so a day drawn through a time sorts the
// orders of that stretch, not the whole day's. hi bounds those kept.
func sharesThrough(rs []float64, f float64) (kept []float64, hi float64) {
	j := int(math.Ceil(f*1024)) + 1
	if j >= len(shareTable)-1 {
		return rs, 1
	}
	hi = shareTable[max(j, 0)]
	kept = rs[:0]
	for _, r := range rs {
		if r <= hi {
			kept = append(kept, r)
		}
	}
	return kept, hi
}

// quantileAt is the session fraction of share r, given the first entry i
// of the table not below r.
func quantileAt(r float64, i int) float64 {
	i = max(i, 1)
	lo, hi := shareTable[i-1], shareTable[min(i, 1024)]
	f := 0.0
	if hi > lo {
		f = (r - lo) / (hi - lo)
	}
	return min((float64(i-1)+f)/1024, 1-1e-9)
}

// pick chooses a contract alive at t: an expiry by weight, then a strike
// around the money with a Laplace spread in standard deviations (and a few
// lottery tickets far out), out-of-the-money sides preferred.
func (g *gen) pick(t api.TimeOfDay) int32 {
	for try := 0; ; try++ {
		i := sort.SearchFloat64s(g.weights, g.rng.Float64()*g.weights[len(g.weights)-1])
		s := &g.b.series[min(i, len(g.weights)-1)]
		if !s.alive(t) && try < 100 {
			continue // weighted series are alive all session; this is a guard
		}
		S := g.b.day.Price(t - t%1000)
		sd := g.b.sec.Vol * math.Sqrt(s.years(t))
		z := g.rng.ExpFloat64() * math.Max(0.45*sd, 0.005)
		lottery := g.rng.Float64() < 0.004
		if lottery {
			z = (2.5 + 3*g.rng.Float64()) * sd
		}
		if g.rng.IntN(2) == 0 {
			z = -z
		}
		k := nearestStrike(s.Strikes, S*math.Exp(z))
		otmCall := s.Strikes[k] >= S
		put := g.rng.Float64() < 0.3
		if !otmCall {
			put = g.rng.Float64() < 0.72
		}
		if lottery {
			put = !otmCall
		}
		ci := s.base + 2*k
		if put {
			ci++
		}
		return int32(ci)
	}
}

// nearestStrike is the index of the strike nearest K.
func nearestStrike(strikes []float64, K float64) int {
	i := sort.SearchFloat64s(strikes, K)
	if i == len(strikes) || i > 0 && K-strikes[i-1] <= strikes[i]-K {
		return i - 1
	}
	return i
}
