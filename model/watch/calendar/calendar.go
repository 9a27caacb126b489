package calendar

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
	"chainwatch/vol"
)

// Model is the symbol's earnings and dividends. It changes a few times
// a quarter, so it is fetched rarely; what matters on screen is the next
// report (it moves the options' vol, and the expiry tabs mark it) and the
// last few for context.
type Model struct {
	sh *common.Common
	q  feed.Query

	earnings     []ui.Earning  // ascending by date
	dividends    []ui.Dividend // ascending by ex-date
	scroll       int
	common.Frame // size and focus, from the root

	lastOK, errAt time.Time
	err           error
	loading       bool
	stopped       string // why nothing will be fetched (Stop)

	moves []vol.EarningsMove // the last reports' realized moves, from the store of past days

	ver   uint64   // rises with every change of what View draws
	drawn viewKey  // what lines were drawn from
	lines []string // what View returns, drawn after every change (draw)
}

// New returns an empty calendar; SetQuery starts it.
func New(sh *common.Common) *Model { return &Model{sh: sh} }

// SetQuery empties the calendar for another symbol.
func (c *Model) SetQuery(q feed.Query) {
	c.q, c.ver = q, c.ver+1
	c.earnings, c.dividends, c.scroll = c.earnings[:0], c.dividends[:0], 0
	c.lastOK, c.errAt, c.err, c.loading = time.Time{}, time.Time{}, nil, true
	c.stopped = ""
	c.draw()
}

// Stop says why the events will not be fetched for this query (the
// service does not know the symbol), instead of "loading" for ever.
func (c *Model) Stop(why string) {
	c.stopped, c.loading, c.ver = why, false, c.ver+1
	c.draw()
}

// LastOK is when the events were last applied; Err the last failure since.
func (c *Model) LastOK() time.Time { return c.lastOK }
func (c *Model) Err() error        { return feed.Failed(c.err, c.errAt) }

// Apply takes the events of the current query; a failure keeps the last.
func (c *Model) Apply(m feed.CalendarMsg) bool {
	if m.Query.Gen != c.q.Gen {
		return false
	}
	c.loading, c.ver = false, c.ver+1
	defer c.draw()
	if m.Err != nil && !api.IsNoData(m.Err) {
		c.err, c.errAt = m.Err, m.At
		return true
	}
	c.earnings, c.dividends, c.moves = c.earnings[:0], c.dividends[:0], m.Moves
	for i := range m.Events {
		e := &m.Events[i]
		if s := e.Symbol(); s != "" && !strings.EqualFold(s, c.q.Symbol) {
			continue // asked for one symbol; be strict about what is shown
		}
		switch e.Kind {
		case api.KindEarnings:
			x := &e.Earnings
			c.earnings = append(c.earnings, ui.Earning{Date: x.ReportDate, Time: x.TimeOfDay, Year: x.Year, Quarter: x.Quarter,
				Estimate: api.OrNaN(x.EPSEstimate), Actual: api.OrNaN(x.EPSActual)})
		case api.KindDividend:
			x := &e.Dividend
			c.dividends = append(c.dividends, ui.Dividend{ExDate: x.ExDividendDate, PayDate: x.PaymentDate, Amount: api.OrNaN(x.Dividend)})
		}
	}
	slices.SortStableFunc(c.earnings, func(a, b ui.Earning) int { return cmp.Compare(a.Date, b.Date) })
	slices.SortStableFunc(c.dividends, func(a, b ui.Dividend) int { return cmp.Compare(a.ExDate, b.ExDate) })
	c.earnings = slices.Compact(c.earnings)
	c.dividends = slices.Compact(c.dividends)
	c.lastOK, c.err, c.errAt = m.At, nil, time.Time{}
	return true
}

// NextEarnings is the first report on or after today; 0 when none is known.
func (c *Model) NextEarnings(today api.Date) api.Date {
	i, _ := slices.BinarySearchFunc(c.earnings, today, func(e ui.Earning, d api.Date) int { return cmp.Compare(e.Date, d) })
	if i < len(c.earnings) {
		return c.earnings[i].Date
	}
	return 0
}

// Scroll moves down the events by delta lines.
func (c *Model) Scroll(delta int) {
	n := len(c.earnings) + len(c.dividends)
	c.scroll, c.ver = min(max(c.scroll+delta, 0), max(n-1, 0)), c.ver+1
	c.draw()
}

// shownAfter reports whether an event on a is listed after one on b:
// upcoming ones soonest first, then past ones latest first.
func shownAfter(a, b, today api.Date) bool {
	if (a >= today) != (b >= today) {
		return a < today
	}
	if a >= today {
		return a > b
	}
	return a < b
}

// upcomingFirst appends to dst the events of asc (ascending by date) on or
// after today in ascending order, then those before it in descending order.
func upcomingFirst[T any](dst, asc []T, today api.Date, date func(T) api.Date) []T {
	i, _ := slices.BinarySearchFunc(asc, today, func(e T, d api.Date) int { return cmp.Compare(date(e), d) })
	dst = append(dst, asc[i:]...)
	for j := i - 1; j >= 0; j-- {
		dst = append(dst, asc[j])
	}
	return dst
}

func (c *Model) message() string {
	switch {
	case len(c.earnings)+len(c.dividends) > 0:
		return ""
	case c.stopped != "":
		return c.stopped
	case c.err != nil:
		return "events: " + api.Describe(c.err, "")
	case c.loading:
		return "loading events…"
	}
	return "no earnings or dividends for " + c.q.Symbol
}

// Moves are the realized moves of the symbol's last reports (newest
// first), from the store of past days; nil without one.
func (c *Model) Moves() []vol.EarningsMove { return c.moves }

// Missing are the symbol's last n reports before today whose realized
// move the store of past days lacks (vol.Missing); nil without a store.
func (c *Model) Missing(today api.Date, n int) []api.EarningsEvent {
	if c.moves == nil {
		return nil
	}
	events := make([]api.CalendarEvent, len(c.earnings))
	for i, e := range c.earnings {
		events[i] = api.CalendarEvent{Kind: api.KindEarnings, Earnings: api.EarningsEvent{ReportDate: e.Date, TimeOfDay: e.Time}}
	}
	return vol.Missing(vol.PastReports(events, today, n), c.moves)
}

// NextReport is the first report on or after today and when in the day
// it comes; a zero date when none is known.
func (c *Model) NextReport(today api.Date) (api.Date, api.ReportTime) {
	i, _ := slices.BinarySearchFunc(c.earnings, today, func(e ui.Earning, d api.Date) int { return cmp.Compare(e.Date, d) })
	if i < len(c.earnings) {
		return c.earnings[i].Date, c.earnings[i].Time
	}
	return 0, ""
}
