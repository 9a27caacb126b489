package feed

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// Budget is how many points the watch screen may spend.
//
// Points are the service's metered currency: every chain refresh and every
// tape poll is charged, and a month's allowance that runs out stops all data
// until it renews. The watch screen therefore paces itself by a budget instead
// of polling as fast as the per-second limit allows.
type Budget struct {
	// PerDay is points per trading day (a 6.5 h regular session). When > 0
	// it overrides Share: a user who knows what they want to spend should
	// not have the pace move with the account's balance.
	PerDay int
	// Share is the share (0,1] of X-Monthly-Points-Left that the screen may
	// spend, spread over the trading time left in the month, so that other
	// tools on the same account keep the rest.
	Share float64
	// Free is a session whose answers cost nothing (a serve host on a bus:
	// the source fetches within its own budget, and the host's requests
	// are answered from the bus): its feeds are paced at their shortest
	// intervals, so that it shows the source's answers as they arrive.
	Free bool
}

// Freed is b, free when free is true.
func (b Budget) Freed(free bool) Budget {
	if free {
		b.Free = true
	}
	return b
}

// DefaultBudget leaves three quarters of the remaining allowance to other uses
// of the account: a watch screen left open all month must not drain it.
func DefaultBudget() Budget { return Budget{Share: config.DefaultBudgetShare} }

// Validate reports a budget that would make the pacing meaningless (negative
// spending, a share of nothing or of more than everything), in words a user
// who typed the flag can act on.
func (b Budget) Validate() error {
	switch {
	case b.PerDay < 0:
		return fmt.Errorf("budget: points per day must not be negative, got %d", b.PerDay)
	case math.IsNaN(b.Share):
		return errors.New("budget: share of monthly points left is not a number (NaN)")
	case b.PerDay == 0 && (b.Share <= 0 || b.Share > 1):
		return fmt.Errorf("budget: share of monthly points left must be in (0, 1] when no points per day are set, got %g", b.Share)
	}
	return nil
}

// Session and budget constants. The fallback rate applies before the first
// response tells the balance: it lets the screen fill quickly without
// assuming a large plan (a few hundred chain fetches an hour at most).
const RegularSessionHours = 6.5

// BudgetPerHour is the points per hour the budget allows at now.
//
// With a Share, the pace follows the balance: spending a fixed share of what
// is left over the trading hours left means an account that is spent faster
// elsewhere slows the screen down, and the month never ends early. The trial
// plan (used + left == 500) renews daily, so its balance is spread over what
// is left of today's session instead: spreading it over the month would
// waste almost all of it.
func (s *Scheduler) BudgetPerHour(now time.Time) float64 {
	b := s.budget
	if b.Free {
		return math.Inf(1)
	}
	if b.PerDay > 0 {
		return float64(b.PerDay) / RegularSessionHours
	}
	left, ok := s.pointsLeft.Get()
	if !ok {
		return config.FallbackPointsPerHour
	}
	points := b.Share * float64(max(left, 0))
	if s.trial() {
		return points / max(market.SessionHoursLeftToday(now), market.MinHoursLeft)
	}
	return points / market.TradingHoursLeftInMonth(now)
}

// shownPerHour is the budget a status bar shows: none for a free
// session, which spends nothing.
func (s *Scheduler) shownPerHour(now time.Time) float64 {
	if s.budget.Free {
		return 0
	}
	return s.BudgetPerHour(now)
}

// trial reports whether the balance is the trial plan's 500 points a day,
// told by the headers: used and left always add up to the allowance.
func (s *Scheduler) trial() bool {
	used, ok1 := s.pointsUsed.Get()
	left, ok2 := s.pointsLeft.Get()
	return ok1 && ok2 && used+left == config.TrialAllowance
}

// Spend books the points of a reply that no feed waits for any more (its
// query was replaced while it was in flight): the service charged them all
// the same. It has no time of its own, so it is booked at the latest time the
// scheduler has seen, which is off by at most a fetch's latency.
func (s *Scheduler) Spend(resp *api.Response) { s.book(resp, s.clock) }

// Outside books points the user spent on purpose, a scan: they count in
// the session's total and the balance, but not in the polling rate, so a
// 150-point scan does not slow the chain down for the next hour.
func (s *Scheduler) Outside(resp *api.Response) { s.OutsideAt(resp, s.clock) }

// OutsideAt is Outside at now, which names the day its points count in
// (Stats.DaySpent).
func (s *Scheduler) OutsideAt(resp *api.Response, now time.Time) {
	if resp == nil {
		return
	}
	s.spent += max(resp.Cost, 0)
	s.today(max(resp.Cost, 0), now)
	s.balance(resp)
}

// today adds cost to the points of now's trading day (Eastern), which a
// served desk's one-shot commands are checked against: a server runs for
// days, and its session total is not a day's. The day only moves on: a
// booking with no time, or dated before the day held (a stale reply,
// booked at the latest time the scheduler saw), counts in the day held.
func (s *Scheduler) today(cost int, now time.Time) {
	if now.IsZero() {
		now = s.clock
	}
	if !now.IsZero() {
		if d := api.Today(now); d > s.day {
			if !s.day.IsZero() {
				s.daySpent = 0
			}
			s.day = d
		}
	}
	s.daySpent += cost
}

// balance keeps the month's balance a response reports; headers the
// service did not send leave the last known values, since unknown is not
// zero.
//
// Requests run side by side, so replies can be booked out of the order the
// service charged them: a balance that says fewer points were used than
// the one held, stated no later on the service's clock (its Date header,
// to the second), is the older one and is skipped. A later second may
// carry a reset (a new day or month of the allowance) and is taken.
func (s *Scheduler) balance(resp *api.Response) {
	at, _ := http.ParseTime(resp.Header.Get("Date"))
	if s.olderBalance(resp, at) {
		return
	}
	if at.After(s.balanceAt) {
		s.balanceAt = at
	}
	if resp.PointsUsed.Valid {
		s.pointsUsed = resp.PointsUsed
	}
	if resp.PointsLeft.Valid {
		s.pointsLeft = resp.PointsLeft
	}
}

// olderBalance reports whether resp states a balance from before the one
// held (see balance).
func (s *Scheduler) olderBalance(resp *api.Response, at time.Time) bool {
	if at.IsZero() || at.After(s.balanceAt) {
		return false // undated: nothing to order it by
	}
	if used, ok := s.pointsUsed.Get(); ok && resp.PointsUsed.Valid {
		return resp.PointsUsed.V < used
	}
	if left, ok := s.pointsLeft.Get(); ok && resp.PointsLeft.Valid {
		return resp.PointsLeft.V > left
	}
	return false
}

// book records what a response says about spending: its cost and the
// balance after it.
func (s *Scheduler) book(resp *api.Response, now time.Time) {
	if !now.IsZero() {
		s.clock = later(s.clock, now)
	}
	if resp == nil {
		return
	}
	if resp.FromHistory {
		s.fromHistory++
	}
	s.charge(resp.Cost, now)
	s.balance(resp)
}

// charge books a fetch's cost, keeping only the last hour of fetches: the
// rate needs no more, and a screen open for days must not grow without bound.
func (s *Scheduler) charge(cost int, now time.Time) {
	if cost <= 0 {
		return
	}
	s.spent += cost
	s.today(cost, now)
	if now.IsZero() {
		return // a Spend before any clock counts, but not in the hourly rate
	}
	s.spends = append(s.spends, spend{now, cost})
	i := 0
	for i < len(s.spends) && !s.spends[i].at.After(now.Add(-rateWindow)) {
		i++
	}
	s.spends = s.spends[i:]
}

// Stats is the scheduler's account of spending, for the status bar.
type Stats struct {
	SessionSpent  int       // points charged this session (sum of resp.Cost)
	DaySpent      int       // of them, those charged on the trading day (Eastern) of the Stats' time
	FromHistory   int       // answers the store of past days gave this session, at 0 points
	HourlyRate    float64   // points per hour polling spends (see Stats); valid when RateKnown
	RateKnown     bool      // false until the first poll: the loads before it are not a rate
	BudgetPerHour float64   // what the budget allows now; 0 when Free
	Free          bool      // the session's answers cost nothing (Budget.Free): no budget paces it
	PointsUsed    api.Int   // last X-Monthly-Points-Used seen
	PointsLeft    api.Int   // last X-Monthly-Points-Left seen
	Daily         bool      // the trial plan: its allowance renews every day, not every month
	LastErr       error     // last failure; kept after a success so the status bar can show how long ago it was
	LastErrAt     time.Time // when LastErr happened
}

// dayPoints is what was charged on now's trading day.
func (s *Scheduler) dayPoints(now time.Time) int {
	if s.day.IsZero() || s.day == api.Today(now) {
		return s.daySpent
	}
	return 0
}

// Polled marks a timed fetch (not the first loads of a screen). The
// points rate is measured from the first one: the burst of loads that
// opens a screen is not what polling costs, and extrapolated from a few
// seconds it read as thousands an hour, then jumped.
func (s *Scheduler) Polled(now time.Time) {
	if s.firstPoll.IsZero() {
		s.firstPoll = now
	}
}

// Stats reports the spending at now. The rate is over a window that
// slides from the first poll up to an hour long; a window shorter than a
// minute counts as a minute, so the rate climbs towards its level over
// the first minute instead of starting from a single fetch's extrapolation.
func (s *Scheduler) Stats(now time.Time) Stats {
	st := Stats{
		SessionSpent:  s.spent,
		DaySpent:      s.dayPoints(now),
		FromHistory:   s.fromHistory,
		BudgetPerHour: s.shownPerHour(now),
		PointsUsed:    s.pointsUsed,
		PointsLeft:    s.pointsLeft,
		LastErr:       s.lastErr,
		LastErrAt:     s.lastErrAt,
		Daily:         s.trial(),
		Free:          s.budget.Free,
	}
	if s.firstPoll.IsZero() || now.Before(s.firstPoll) {
		return st
	}
	from := later(s.firstPoll, now.Add(-rateWindow))
	sum := 0
	for _, sp := range s.spends {
		if !sp.at.Before(from) && !sp.at.After(now) {
			sum += sp.cost
		}
	}
	st.HourlyRate = float64(sum) / max(now.Sub(from), minRateWindow).Hours()
	st.RateKnown = true
	return st
}
