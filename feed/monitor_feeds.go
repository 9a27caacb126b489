package feed

import (
	"context"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// What each feed asks for and what it does after a reply: the only place
// the feeds differ. The rest of the monitor treats them alike.

// maxTapeCatchUp is how many full tape pages are fetched back to back.
const maxTapeCatchUp = 4

func (f Feed) contract() bool {
	return f == FeedContractQuote || f == FeedContractTrades || f == FeedContractTAQ
}

// watchFeed reports whether f is the watchlist's: it follows its symbols,
// not a chain's query.
func (f Feed) watchFeed() bool { return f == FeedQuotes || f == FeedEvents }

// ask is e's request as of now, or nil when there is nothing to ask: a
// tape that is not shown, time and sales the account may not see, a
// watchlist with no symbol the service knows. Every tape greeks asked for
// already is not nothing: it looks again an interval later.
func (m *Monitor) ask(e *entry, now time.Time) func(context.Context) Reply {
	w, src := e.want, m.src
	q := w.Query
	switch e.key.Feed {
	case FeedChain:
		expiry := w.Expiry
		if e.fullAt.IsZero() || now.Sub(e.fullAt) > config.FullChainMaxAge {
			expiry = 0 // the expiries and strikes are learnt, or learnt again
		}
		return func(ctx context.Context) Reply { return src.Chain(ctx, q, expiry) }
	case FeedTerm:
		return func(ctx context.Context) Reply { return src.Term(ctx, q) }
	case FeedCalendar:
		return func(ctx context.Context) Reply { return src.Calendar(ctx, q) }
	case FeedTape:
		return m.askTape(e, now)
	case FeedContractQuote, FeedContractTrades, FeedContractTAQ:
		return m.askContract(e)
	case FeedTapeGreeks:
		g, day := w.Greeks, ShownDay(q, now)
		if !g.OK {
			// Every print on screen has its greeks: look again an interval
			// later, when the tape has moved.
			e.last = now
			m.plan(e, now)
			return nil
		}
		return func(ctx context.Context) Reply { return src.TapeGreeks(ctx, q, g.OSI, day, g.From, g.MinTime) }
	case FeedQuotes, FeedEvents:
		return m.askWatch(e, w.Symbols)
	case FeedJob:
		return func(ctx context.Context) Reply { return runJob(ctx, w.Job, m.clock) }
	}
	return nil
}

// askTape pages the tape from one past the last trade held. A new session
// (the open, or midnight) starts it over on the new day rather than paging
// the old one; the reply says which day and whether its session is over.
func (m *Monitor) askTape(e *entry, now time.Time) func(context.Context) Reply {
	q, src := e.want.Query, m.src
	day := ShownDay(q, now)
	over := day != api.Today(now) || !market.SessionLive(now, q.Mode)
	if day != e.day {
		e.seq, e.day = -1, day
	}
	from := e.nextFrom()
	restart := from == 0 && e.paged
	e.paged = true
	return func(ctx context.Context) Reply {
		r := src.Tape(ctx, q, day, from)
		r.Day, r.Over, r.Restart = day, over, restart
		return r
	}
}

// askContract asks for the contract's snapshot, or its trades or NBBO
// changes from one past the last held, no earlier than its time.
func (m *Monitor) askContract(e *entry) func(context.Context) Reply {
	q, src := ContractQuery{Query: e.want.Query, OSI: e.want.OSI}, m.src
	if e.key.Feed == FeedContractQuote {
		return func(ctx context.Context) Reply { return src.ContractQuote(ctx, q) }
	}
	if e.refused {
		return nil
	}
	from, minT := e.nextFrom(), e.seqTime
	if from == 0 {
		minT = 0
	}
	if e.key.Feed == FeedContractTrades {
		return func(ctx context.Context) Reply { return src.ContractTrades(ctx, q, from, minT) }
	}
	return func(ctx context.Context) Reply { return src.ContractTAQ(ctx, q, from, minT) }
}

// askWatch asks for symbols (the watchlist's, or those missing events).
func (m *Monitor) askWatch(e *entry, symbols []string) func(context.Context) Reply {
	if len(symbols) == 0 {
		return nil
	}
	q, src, syms := e.want.Query, m.src, slices.Clone(symbols)
	if e.key.Feed == FeedEvents {
		return func(ctx context.Context) Reply { return src.Events(ctx, q, syms) }
	}
	return func(ctx context.Context) Reply { return src.Quotes(ctx, q, syms) }
}

func (c *feedCursor) nextFrom() int64 {
	if c.seq < 0 {
		return 0
	}
	return c.seq + 1
}

// after is what a feed does once a reply of it is booked: learn where it
// stands, then plan the next fetch, at once while pages are full. It is
// the one place the replies are told apart by type.
func (m *Monitor) after(e *entry, msg Reply, now time.Time) []func() {
	switch r := msg.(type) {
	case ChainMsg:
		return m.afterChain(e, r, now)
	case TermMsg:
		m.learnWhole(e, r.ChainMsg, now)
		if !m.noSuch(e, r.ChainMsg) {
			m.plan(e, now)
		}
	case TapeMsg:
		return m.afterTape(e, r, now)
	case ContractTradesMsg:
		applied := m.advance(e, r.From, r.Err, len(r.Trades), func(i int) (int64, api.TimeOfDay) {
			return r.Trades[i].SequenceNumber, r.Trades[i].Time
		})
		m.afterContract(e, applied, r.Err, r.Full, now)
	case ContractTAQMsg:
		applied := m.advance(e, r.From, r.Err, len(r.Records), func(i int) (int64, api.TimeOfDay) {
			return r.Records[i].SequenceNumber(), r.Records[i].Time()
		})
		m.afterContract(e, applied, r.Err, r.Full, now)
	case ContractQuoteMsg:
		m.afterContract(e, true, r.Err, false, now)
	case QuotesMsg:
		if r.Err == nil {
			if ev := m.feeds[Key{Feed: FeedEvents, Mode: e.key.Mode, Date: e.key.Date}]; ev != nil {
				ev.needDue = true // asked for in Set, once the subscriber has applied these
			}
		}
		m.plan(e, now)
	default: // calendar, tape greeks, events
		m.plan(e, now)
	}
	return nil
}

// afterChain learns from a chain: a whole one is the expiries, and as
// good as a term structure fetch; none at all for the whole chain means no
// such symbol; the first answer releases the feeds it held back.
func (m *Monitor) afterChain(e *entry, r ChainMsg, now time.Time) []func() {
	if r.Expiry == 0 {
		m.learnWhole(e, r, now)
	}
	if m.noSuch(e, r) {
		return nil
	}
	var runs []func()
	if e.held && r.Err == nil {
		e.held = false
		for _, f := range [...]Feed{FeedCalendar, FeedTape} {
			k := e.key
			k.Feed = f
			if o := m.feeds[k]; o != nil && o.visible && o.inflight == 0 {
				runs = append(runs, m.fetch(o, now))
			}
		}
	}
	if e.refetch {
		e.refetch = false
		m.planAfter(e, time.Time{}, now)
	} else {
		m.plan(e, now)
	}
	return runs
}

// learnWhole notes a whole chain: the chain's next fetch may be one expiry,
// and the term structure's next fetch waits from it.
func (m *Monitor) learnWhole(e *entry, r ChainMsg, now time.Time) {
	if r.Err != nil && !api.IsNoData(r.Err) {
		return
	}
	k := e.key
	k.Feed = FeedChain
	if c := m.feeds[k]; c != nil {
		c.fullAt = r.At
	}
	k.Feed = FeedTerm
	t := m.feeds[k]
	if r.Err != nil || t == nil || t == e || !r.At.After(t.last) {
		return
	}
	t.last = r.At
	if t.visible && t.inflight == 0 {
		m.plan(t, now)
	}
}

// noSuch reports a whole chain answered with nothing: the service does not
// know the symbol. Every feed of it stops; asking again would only cost.
func (m *Monitor) noSuch(e *entry, r ChainMsg) bool {
	if r.Chain != nil || r.Expiry != 0 || r.Err != nil && !api.IsNoData(r.Err) {
		return false
	}
	c := m.chainOf(e)
	if c == nil {
		return false
	}
	c.noSuch, c.held = true, false
	for _, o := range m.feeds {
		if m.chainOf(o) == c {
			o.gen++
			o.due = time.Time{}
			o.stopTimer()
		}
	}
	return true
}

// afterTape follows the tape: a full page means more trades are waiting,
// fetched at once as soon as a Retry-After allows. A backlog larger than
// the subscriber's tape (hidden for an hour) would be paid for page by
// page and then overwritten, so past that it starts over from the latest
// window instead.
func (m *Monitor) afterTape(e *entry, r TapeMsg, now time.Time) []func() {
	applied := m.advance(e, r.From, r.Err, len(r.Trades), func(i int) (int64, api.TimeOfDay) {
		return r.Trades[i].SeqNo, r.Trades[i].Timestamp
	})
	if !applied || r.Err != nil || len(r.Trades) < config.TapePageLimit {
		e.catchUp, e.restarted = 0, false
		m.plan(e, now)
		return nil
	}
	e.catchUp++
	capacity := e.want.Capacity
	if capacity <= 0 {
		capacity = config.DefaultTapeSize
	}
	switch {
	case r.From > 0 && !e.restarted && e.catchUp*config.TapePageLimit > capacity:
		e.catchUp, e.restarted = 0, true
		e.seq = -1
	case e.catchUp > maxTapeCatchUp:
		// Still behind after several pages (a very busy name): from here
		// the budget paces the tape again.
		e.catchUp = 0
		m.plan(e, now)
		return nil
	}
	m.planAfter(e, time.Time{}, now)
	return nil
}

// afterContract plans a contract feed: at once after a full page, up to a
// few pages back to back, else when the budget says.
func (m *Monitor) afterContract(e *entry, applied bool, err error, full bool, now time.Time) {
	if NotEntitled(err) && e.key.Feed != FeedContractQuote {
		e.refused = true
	}
	if !applied || err != nil || !full || e.catchUp >= config.ContractMaxCatchUp {
		e.catchUp = 0
		m.plan(e, now)
		return
	}
	e.catchUp++
	m.planAfter(e, time.Time{}, now)
}

// advance moves e's cursor past a page of n records from sequence number
// from (seq gives each record's number and time); a page that does not
// start where the cursor stands (answered for an older cursor) is not
// applied.
func (m *Monitor) advance(e *entry, from int64, err error, n int, seq func(int) (int64, api.TimeOfDay)) bool {
	if from != e.nextFrom() {
		return false
	}
	if err != nil && !api.IsNoData(err) {
		return true
	}
	for i := range n {
		if s, t := seq(i); s > e.seq {
			e.seq, e.seqTime = s, t
		}
	}
	return true
}
