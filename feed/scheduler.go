package feed

import (
	"context"
	"errors"
	"math"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// Pacing limits beyond config's defaults: how long a 429 without a
// Retry-After holds the feeds back, and the window of the hourly rate.
const (
	perSecondWait = time.Second
	monthlyWait   = time.Minute
	rateWindow    = time.Hour
	minRateWindow = time.Minute
)

// Conditions is what the pacing of a feed depends on besides the feed
// itself: the mode, the day, whether anybody is looking, and which feeds
// are shown, among which the budget is split. Which page shows a feed is
// none of this package's business: a subscriber says whether it shows a
// feed by Want.Hidden (the TUI's root works that out from its page
// stack), so a new page changes nothing here.
type Conditions struct {
	Mode       api.Mode
	Historical bool // a date before today: each feed is fetched once and never polled
	Focused    bool // the terminal has focus (false after a BlurMsg)
	Idle       bool // no key or mouse input for a while (the subscriber decides how long, 5 min)
	// Shown are the feeds some subscriber shows (a Want not Hidden): a
	// feed not among them is not polled, and the hourly budget is split
	// among those that are.
	Shown FeedSet
}

// Scheduler decides when each feed is fetched next so that the feeds
// spend no more points than their Budget. It is pure bookkeeping: the
// Monitor owns the clock, the timers and the requests in flight, and asks
// it, which keeps every decision testable with fixed times. It is not
// safe for concurrent use; the Monitor calls it under its lock only.
type Scheduler struct {
	budget     Budget
	feeds      [NumFeeds]feedState
	retryUntil time.Time // a 429 holds back every feed: both limits are per account

	firstPoll   time.Time // the first timed fetch: the points rate is measured from there
	clock       time.Time // latest time seen by Observe or Next, for Spend
	spent       int
	day         api.Date // the trading day daySpent counts; zero: none dated yet
	daySpent    int
	fromHistory int     // answers the store of past days gave (Stats.FromHistory)
	spends      []spend // charged fetches of the last hour, oldest first
	pointsUsed  api.Int
	pointsLeft  api.Int
	balanceAt   time.Time // the service's time of the balance held (its Date header)
	lastErr     error
	lastErrAt   time.Time
}

type feedState struct {
	failures int       // consecutive failures since the last success
	failedAt time.Time // end of the last failed fetch
	done     bool      // the last fetch succeeded: a historical feed is complete
}

type spend struct {
	at   time.Time
	cost int
}

// NewScheduler paces the screen by b. An invalid b (see Budget.Validate) is
// replaced by DefaultBudget: the caller should have reported it already, and
// a screen that polls by a sane default beats one that divides by NaN.
func NewScheduler(b Budget) *Scheduler {
	if b.Validate() != nil {
		b = DefaultBudget()
	}
	return &Scheduler{budget: b}
}

// Observe records the outcome of a fetch of feed f finished at now: resp may
// be nil (network error); err is nil on success.
//
// A cancelled fetch (context.Canceled) is the monitor's own doing, for
// example the user picked another expiry, so it is neither a failure to back off from
// nor an error worth showing. A 429 carries its own wait (Retry-After), so it
// does not also grow the exponential backoff.
func (s *Scheduler) Observe(f Feed, resp *api.Response, err error, now time.Time) {
	if f < 0 || f >= NumFeeds {
		s.book(resp, now)
		return
	}
	s.observe(&s.feeds[f], resp, err, now)
}

// observe is Observe on a feed's state held elsewhere: the monitor keeps
// one per feed it fetches (two symbols' chains are two states).
func (s *Scheduler) observe(st *feedState, resp *api.Response, err error, now time.Time) {
	s.book(resp, now)
	if errors.Is(err, context.Canceled) {
		return
	}
	if err == nil {
		*st = feedState{done: true}
		return
	}
	s.lastErr, s.lastErrAt = err, now
	st.done = false
	var rl *api.RateLimitError
	if !errors.As(err, &rl) {
		st.failures++
		st.failedAt = now
		return
	}
	s.holdFor(rl, now)
}

// holdFor holds every feed back for a 429's Retry-After (or, without one,
// a second, or a minute for the monthly allowance): both limits are per
// account.
func (s *Scheduler) holdFor(rl *api.RateLimitError, now time.Time) {
	wait := rl.RetryAfter
	if wait <= 0 {
		wait = perSecondWait
		if rl.MonthlyAllowance() {
			wait = monthlyWait
		}
	}
	if until := now.Add(wait); until.After(s.retryUntil) {
		s.retryUntil = until
	}
}

// Next is how long to wait, from now, before fetching f again, given the last
// fetch of f ended at last. ok=false means do not poll f at all under c: no
// subscriber shows it, or a historical feed has its answer (historical
// answers never change). An exhausted monthly allowance is a long delay,
// not ok=false, so the feeds resume by themselves when it renews.
//
// A zero last means f has never been fetched for what it now shows: the
// monitor passes it after a change of expiry or date, so the new data
// comes at once, past the old query's error backoff; only a pending
// Retry-After holds it back. The delay is recomputed from last on every call, so a change of
// conditions (focus regained) takes effect without waiting out the old one.
func (s *Scheduler) Next(f Feed, c Conditions, last, now time.Time) (d time.Duration, ok bool) {
	if f < 0 || f >= NumFeeds || !f.polled(c) {
		return 0, false
	}
	return s.next(f, s.feeds[f], c, last, now)
}

// next is Next on a feed's state held elsewhere (see observe), for a feed
// known to be shown.
func (s *Scheduler) next(f Feed, st feedState, c Conditions, last, now time.Time) (d time.Duration, ok bool) {
	s.clock = later(s.clock, now)
	due := s.retryUntil
	if !last.IsZero() {
		if c.Historical && st.done {
			return 0, false
		}
		switch {
		case c.Historical:
		case !f.rare() && !market.SessionLive(now, c.Mode):
			// After a failure the backoff below decides: a screen
			// opened in the evening must recover by itself, not wait
			// for tomorrow's open to show anything.
			if st.failures == 0 {
				due = later(due, market.AfterHours(last, now, c.Mode))
			}
		default:
			due = later(due, last.Add(s.Interval(f, c, now)))
		}
		if st.failures > 0 {
			due = later(due, st.failedAt.Add(backoff(st.failures)))
		}
	}
	return max(due.Sub(now), 0), true
}

// Reset forgets what the feeds learnt about the query the screen showed: its
// error backoff belongs to that query (a bad expiry is no reason to hold back
// the next one), and a historical answer to the old date is not one to the
// new date. What belongs to the account stays: spending, the balance, a
// pending Retry-After (both limits are per account) and the last error.
// With feeds, only those forget: the watchlist's state is not the chain's.
func (s *Scheduler) Reset(feeds ...Feed) {
	if len(feeds) == 0 {
		s.feeds = [NumFeeds]feedState{}
	}
	for _, f := range feeds {
		if f >= 0 && f < NumFeeds {
			s.feeds[f] = feedState{}
		}
	}
}

// backoff doubles from 2 s with each consecutive failure, up to 2 min: quick
// enough to ride out a blip, slow enough not to hammer a service that is down.
func backoff(failures int) time.Duration {
	if failures > 7 { // 2 s << 6 is already past the cap
		return config.BackoffMax
	}
	return min(config.BackoffBase<<(failures-1), config.BackoffMax)
}

// Interval is the steady polling interval of f under c, before backoff and
// Retry-After; 0 when f is not polled under c (historical date, not shown).
//
// Chain and tape share the hourly budget: half each, or all to the chain when
// the tape is not shown. A feed held at its minimum interval cannot spend its
// half, so the other feed gets the rest and the whole budget stays usable.
// The calendar is outside the split: it changes a few times a year and one
// fetch every 6 hours is negligible. The watchlist's quotes, and a
// contract's feeds, have the whole budget: whoever shows them shows
// nothing else (the TUI's pages cover the watch screen).
func (s *Scheduler) Interval(f Feed, c Conditions, now time.Time) time.Duration {
	switch {
	case f < 0 || f >= NumFeeds || c.Historical || !f.polled(c):
		return 0
	case f.rare():
		return config.CalendarInterval
	case !market.SessionLive(now, c.Mode):
		return config.QuietMax // for the stale mark only: Next waits for the open
	}
	perHour := s.BudgetPerHour(now)
	if f == FeedQuotes {
		cost := float64(api.Cost(feedEndpoints[FeedQuotes], c.Mode, false))
		return quiet(clampInterval(cost, perHour, config.WatchlistMinInterval, config.WatchlistMaxInterval), c)
	}
	if f.contract() {
		return quiet(s.contractInterval(f, c, perHour), c)
	}
	if c.Shown.Has(FeedTapeGreeks) {
		// The greeks columns take a quarter; the ladder and the tape
		// share the rest as they would without them.
		greeks := perHour / 4
		if f == FeedTapeGreeks {
			cost := float64(api.Cost(feedEndpoints[f], c.Mode, false))
			return quiet(clampInterval(cost, greeks, config.TapeMinInterval, config.TapeMaxInterval), c)
		}
		perHour -= greeks
	}
	chainCost := float64(api.Cost(feedEndpoints[FeedChain], c.Mode, false))
	if c.Shown.Has(FeedTerm) {
		// The term structure takes its share first, so that the three
		// feeds together stay within the budget.
		term := clampInterval(chainCost, perHour*config.TermShare, config.TermMinInterval, config.TermMaxInterval)
		if f == FeedTerm {
			return quiet(term, c)
		}
		perHour = max(perHour-ratePerHour(chainCost, term), 0)
	}
	if !c.Shown.Has(FeedTape) {
		return quiet(clampInterval(chainCost, perHour, config.ChainMinInterval, config.ChainMaxInterval), c)
	}
	tapeCost := float64(api.Cost(feedEndpoints[FeedTape], c.Mode, false))
	chainShare, tapeShare := perHour/2, perHour/2
	chainCap, tapeCap := ratePerHour(chainCost, config.ChainMinInterval), ratePerHour(tapeCost, config.TapeMinInterval)
	chainShare, tapeShare = min(chainShare, chainCap)+max(tapeShare-tapeCap, 0),
		min(tapeShare, tapeCap)+max(chainShare-chainCap, 0)
	if f == FeedChain {
		return quiet(clampInterval(chainCost, chainShare, config.ChainMinInterval, config.ChainMaxInterval), c)
	}
	return quiet(clampInterval(tapeCost, tapeShare, config.TapeMinInterval, config.TapeMaxInterval), c)
}

// contractInterval paces a contract's feeds on the whole budget: two fifths each to the trades
// and the quotes, a fifth to the snapshot, which costs a quarter as much
// and so refreshes the header about twice as often.
func (s *Scheduler) contractInterval(f Feed, c Conditions, perHour float64) time.Duration {
	cost := float64(api.Cost(feedEndpoints[f], c.Mode, false))
	if f == FeedContractQuote {
		return clampInterval(cost, perHour/5, config.ChainMinInterval, config.ChainMaxInterval)
	}
	return clampInterval(cost, perHour*2/5, config.ContractMinInterval, config.ContractMaxInterval)
}

// ratePerHour is the points per hour that fetching at cost every d spends.
func ratePerHour(cost float64, d time.Duration) float64 {
	return cost * float64(time.Hour) / float64(d)
}

// clampInterval is the interval at which cost points per fetch spend
// perHour, within [lo, hi]. Rounded to the millisecond: finer is noise, and
// the status bar shows it.
func clampInterval(cost, perHour float64, lo, hi time.Duration) time.Duration {
	if !(perHour > 0) {
		return hi
	}
	d := cost / perHour * float64(time.Hour)
	if d >= float64(hi) || math.IsNaN(d) {
		return hi
	}
	return max(time.Duration(d).Round(time.Millisecond), lo)
}

// quiet stretches the interval when nobody is watching: points spent on a
// screen in a background tab or in front of an empty chair are wasted. The
// cap is config.QuietMax rather than the feed's own maximum, or the stretch would
// do nothing on a small budget.
func quiet(d time.Duration, c Conditions) time.Duration {
	factor := time.Duration(1)
	if !c.Focused {
		factor *= config.QuietFactor
	}
	if c.Idle {
		factor *= config.QuietFactor
	}
	if factor == 1 {
		return d
	}
	return min(d*factor, max(config.QuietMax, d))
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// ResetFeeds is Reset for some feeds only: the contract page's, when
// another contract is opened while the screen's query stays.
func (s *Scheduler) ResetFeeds(fs ...Feed) {
	for _, f := range fs {
		if f >= 0 && f < NumFeeds {
			s.feeds[f] = feedState{}
		}
	}
}
