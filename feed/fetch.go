package feed

import (
	"context"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// Source does the watch screen's I/O. Each fetch stamps its reply with the
// query (and expiry, or seq_no) it was made for and the time it arrived,
// and touches no screen state: the caller decides what to do with the
// reply, including dropping it. The TUI runs these off its update loop as
// commands; headless commands call them directly.
type Source struct {
	Client *api.Client
	Now    func() time.Time
	// PageLimit is the records one request of the contract page asks for;
	// 0 is config.ContractPageLimit (trades) and config.TAQPageLimit
	// (quotes). A smaller page only means more requests.
	PageLimit int
}

// closeWindowStart is where the first tape page starts when the market is
// closed or the day is past: the last quarter hour of day's session, which
// ends at 13:00 on an early close (market.SessionClose), so the window
// after Thanksgiving holds the session's last trades, not an empty 15:45.
func closeWindowStart(day api.Date) api.TimeOfDay {
	return market.SessionClose(day) - api.TimeOfDay(config.TapeWindow.Milliseconds())
}

// Chain fetches the whole chain (expiry 0), or one expiry.
func (s Source) Chain(ctx context.Context, q Query, expiry api.Date) ChainMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	p := api.OptionQuotesParams{Symbol: q.Symbol, Date: ShownDay(q, s.Now()).String(), Mode: q.Mode}
	if expiry != 0 {
		p.MinExpiry, p.MaxExpiry = expiry.String(), expiry.String()
	}
	ch, resp, err := s.Client.OptionAndUnderlyingQuotes(ctx, p)
	m := ChainMsg{Query: q, Expiry: expiry, Chain: ch, Resp: resp, Err: err, At: s.Now()}
	if err == nil && ch != nil {
		if past, ok := PastOf(ctx, s.Client, q.Symbol, ShownDay(q, s.Now()), ch.IV30); ok {
			m.Past = &past
		}
	}
	return m
}

// Term fetches the whole chain for the vol page's term structure.
func (s Source) Term(ctx context.Context, q Query) TermMsg { return TermMsg{s.Chain(ctx, q, 0)} }

// Tape fetches a page of option trades from seq_no from; from 0 asks for
// the latest window instead (see TapeStart).
func (s Source) Tape(ctx context.Context, q Query, day api.Date, from int64) TapeMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	now := s.Now()
	p := api.OptionTradesParams{Symbol: q.Symbol, Date: day.String(), Limit: api.Ptr(config.TapePageLimit), Mode: q.Mode}
	if from > 0 {
		p.SeqNo = api.Ptr(from)
	} else {
		p.MinTime = TapeStart(q, day, now).String()
	}
	trades, resp, err := s.Client.OptionTrades(ctx, p)
	return TapeMsg{Query: q, From: from, Trades: trades, Resp: resp, Err: err, At: s.Now()}
}

// TapeStart is where the first tape page begins: a quarter of an hour
// before the data's clock (now live, 15 minutes ago delayed), so the tape
// opens full without paying for the whole day; a quarter hour before the
// day's close (15:45, 12:45 on an early close) when the market is closed or
// the day is past, which shows the close.
func TapeStart(q Query, day api.Date, now time.Time) api.TimeOfDay {
	if day != api.Today(now) || !market.MarketOpen(now) {
		return closeWindowStart(day)
	}
	clock := now
	if q.Mode == api.Delayed {
		clock = clock.Add(-market.DataDelay)
	}
	t := api.TimeOfDayOf(clock.Add(-config.TapeWindow))
	if api.Today(clock.Add(-config.TapeWindow)) != api.Today(now) {
		t = 0 // never wrap to yesterday's evening
	}
	return t
}

// ExchangesMsg is the service's exchange table (0 points), fetched once.
type ExchangesMsg struct {
	List []api.Exchange
	Err  error
}

// Exchanges fetches the exchange table that names the tape's exchange ids.
func (s Source) Exchanges(ctx context.Context, mode api.Mode) ExchangesMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	list, _, err := s.Client.Exchanges(ctx, api.ReferenceParams{Mode: mode})
	return ExchangesMsg{List: list, Err: err}
}

// Calendar fetches the symbol's events from two years back (the last
// eight reports, whose realized moves the vol page sets against the next
// one's implied move) to 200 days ahead (the next two); one request, 15
// points, however long the window.
func (s Source) Calendar(ctx context.Context, q Query) CalendarMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	day := q.Day(s.Now())
	p := api.CalendarParams{Symbols: []string{q.Symbol}, EventType: api.EventsAll,
		StartDate: day.AddDays(-config.EarningsLookback).String(), EndDate: day.AddDays(200).String(), Mode: q.Mode}
	ev, resp, err := s.Client.Calendar(ctx, p)
	m := CalendarMsg{Query: q, Events: ev, Resp: resp, Err: err, At: s.Now()}
	if err == nil {
		m.Moves = RealizedMoves(ctx, s.Client, q.Symbol, ev, day)
	}
	return m
}
