package model

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
)

// The commands here do the watch screen's I/O. Each runs off the update
// loop, stamps its reply with the query (and expiry, or seq_no) it was made
// for and the time it arrived, and touches no model state: Update decides
// what to do with the reply, including dropping it.

// fetchTimeout bounds one request with its retries; a chain of 11 MB over a
// slow link fits, a hung connection does not stall the screen for long.
const fetchTimeout = 20 * time.Second

// tapeWindow is how far back the first tape page reaches.
const tapeWindow = 15 * time.Minute

// closeWindowStart is where the first tape page starts when the market is
// closed or the day is past: the last quarter hour of the session.
var closeWindowStart = api.NewTimeOfDay(15, 45, 0, 0)

// fetchChainCmd fetches the whole chain (expiry 0), or one expiry.
func fetchChainCmd(ctx context.Context, sh *Shared, q Query, expiry api.Date) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		p := api.OptionQuotesParams{Symbol: q.Symbol, Date: q.Day(sh.Now()).String(), Mode: q.Mode}
		if expiry != 0 {
			p.MinExpiry, p.MaxExpiry = expiry.String(), expiry.String()
		}
		ch, resp, err := sh.Client.OptionAndUnderlyingQuotes(ctx, p)
		return ChainMsg{Query: q, Expiry: expiry, Chain: ch, Resp: resp, Err: err, At: sh.Now()}
	}
}

// fetchTapeCmd fetches a page of option trades from seq_no from; from 0
// asks for the latest window instead (see tapeStart).
func fetchTapeCmd(ctx context.Context, sh *Shared, q Query, day api.Date, from int64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		now := sh.Now()
		p := api.OptionTradesParams{Symbol: q.Symbol, Date: day.String(), Limit: api.Ptr(tapePageLimit), Mode: q.Mode}
		if from > 0 {
			p.SeqNo = api.Ptr(from)
		} else {
			p.MinTime = tapeStart(q, day, now).String()
		}
		trades, resp, err := sh.Client.OptionTrades(ctx, p)
		return TapeMsg{Query: q, From: from, Trades: trades, Resp: resp, Err: err, At: sh.Now()}
	}
}

// tapeStart is where the first tape page begins: a quarter of an hour
// before the data's clock (now live, 15 minutes ago delayed), so the tape
// opens full without paying for the whole day; at 15:45 when the market is
// closed or the day is past, which shows the close.
func tapeStart(q Query, day api.Date, now time.Time) api.TimeOfDay {
	if day != api.Today(now) || !MarketOpen(now) {
		return closeWindowStart
	}
	clock := now
	if q.Mode == api.Delayed {
		clock = clock.Add(-15 * time.Minute)
	}
	t := api.TimeOfDayOf(clock.Add(-tapeWindow))
	if api.Today(clock.Add(-tapeWindow)) != api.Today(now) {
		t = 0 // never wrap to yesterday's evening
	}
	return t
}

// tapeDay is the day whose trades the tape shows: the query's day, except
// that a live screen on a weekend or before the open shows the last
// session. The service has no trades for a day whose session has not
// begun, and a trader opening chainwatch on Saturday wants Friday's tape,
// not an empty pane. Holidays are not known client-side: on one the tape
// is empty and says so.
func tapeDay(q Query, now time.Time) api.Date {
	if q.Date != 0 {
		return q.Date
	}
	et := now.In(api.Eastern)
	if weekday(et.Weekday()) && !et.Before(sessionStart(et)) {
		return api.DateOf(et)
	}
	return api.DateOf(prevWeekday(et))
}

// ExchangesMsg is the service's exchange table (0 points), fetched once.
type ExchangesMsg struct {
	List []api.Exchange
	Err  error
}

// fetchExchangesCmd fetches the exchange table that names the tape's
// exchange ids.
func fetchExchangesCmd(ctx context.Context, sh *Shared, mode api.Mode) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		list, _, err := sh.Client.Exchanges(ctx, api.ReferenceParams{Mode: mode})
		return ExchangesMsg{List: list, Err: err}
	}
}

// fetchCalendarCmd fetches the symbol's events from 120 days back (the
// last reports, for context) to 200 days ahead (the next two).
func fetchCalendarCmd(ctx context.Context, sh *Shared, q Query) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		day := q.Day(sh.Now())
		p := api.CalendarParams{Symbols: []string{q.Symbol}, EventType: api.EventsAll,
			StartDate: day.AddDays(-120).String(), EndDate: day.AddDays(200).String(), Mode: q.Mode}
		ev, resp, err := sh.Client.Calendar(ctx, p)
		return CalendarMsg{Query: q, Events: ev, Resp: resp, Err: err, At: sh.Now()}
	}
}
