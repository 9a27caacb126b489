package feed

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
)

// ContractQuery is what the contract page looks at: one option of the
// screen's underlying (Query.Symbol), on the screen's mode and date. Its
// Gen is the page's own, raised whenever another contract is opened, so a
// late reply for the last one is dropped as the screen's are.
type ContractQuery struct {
	Query
	OSI api.OSI
}

// ContractQuoteMsg is the contract's snapshot: the chain narrowed to it,
// with the underlying's quote (4 points live).
type ContractQuoteMsg struct {
	Query ContractQuery
	Chain *api.SymbolWithOptions
	Resp  *api.Response
	Err   error
	At    time.Time
}

// ContractTradesMsg is a page of the contract's trades with greeks. From
// is the start sequence number asked (0: the first page, the whole day).
type ContractTradesMsg struct {
	Query  ContractQuery
	From   int64
	Trades []api.OptionTradeWithGreeks
	Full   bool // the page was full: more is waiting
	Resp   *api.Response
	Err    error
	At     time.Time
}

// ContractTAQMsg is a page of the contract's NBBO changes and trades
// (trades-and-quotes, NBBO_CHANGES), for the chart's mid.
type ContractTAQMsg struct {
	Query   ContractQuery
	From    int64
	Records []api.TAQRecord
	Full    bool
	Resp    *api.Response
	Err     error
	At      time.Time
}

// dayEnd closes every window: the greeks and TAQ endpoints require one,
// and what is past the data's clock is simply not there yet.
var dayEnd = api.TimeOfDay(api.DayMillis - 1)

// ContractQuote fetches the one contract's snapshot and its underlying.
func (s Source) ContractQuote(ctx context.Context, q ContractQuery) ContractQuoteMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	k := q.OSI.Strike()
	exp := q.OSI.Expiry.String()
	p := api.OptionQuotesParams{
		Symbol: q.Symbol, Date: ShownDay(q.Query, s.Now()).String(), Root: q.OSI.Root, OptionType: q.OSI.Type,
		MinExpiry: exp, MaxExpiry: exp, MinStrike: &k, MaxStrike: &k, Mode: q.Mode,
	}
	ch, resp, err := s.Client.OptionAndUnderlyingQuotes(ctx, p)
	return ContractQuoteMsg{Query: q, Chain: ch, Resp: resp, Err: err, At: s.Now()}
}

// ContractTrades fetches the contract's trades with greeks from sequence
// number from on, no earlier than minTime (the last held trade's time);
// from 0 asks for the whole day. One page only: the caller asks again at
// once when it was full.
func (s Source) ContractTrades(ctx context.Context, q ContractQuery, from int64, minTime api.TimeOfDay) ContractTradesMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	limit := s.limit(config.ContractPageLimit)
	p := GreeksParams(q.OSI, ShownDay(q.Query, s.Now()), q.Mode, from, minTime, limit)
	trades, resp, err := s.Client.OptionTradesWithGreeks(ctx, p)
	return ContractTradesMsg{Query: q, From: from, Trades: trades, Full: len(trades) >= limit,
		Resp: resp, Err: err, At: s.Now()}
}

// GreeksParams asks for an option's trades with greeks on day from
// sequence number from (0: the first) and time minTime to the day's end,
// at most limit: the one request shape of the page, the tape's greeks
// columns and `chainwatch trades`.
func GreeksParams(o api.OSI, day api.Date, mode api.Mode, from int64, minTime api.TimeOfDay, limit int) api.OptionTradesWithGreeksParams {
	p := api.OptionTradesWithGreeksParams{
		Symbol: o.String(), Date: day.String(), MinTime: minTime.String(), MaxTime: dayEnd.String(),
		Limit: api.Ptr(limit), Mode: mode,
	}
	if from > 0 {
		p.StartSequenceNumber = api.Ptr(from)
	}
	return p
}

// ContractTAQ fetches the contract's NBBO changes from sequence number
// from on (0: the day's first), no earlier than minTime.
func (s Source) ContractTAQ(ctx context.Context, q ContractQuery, from int64, minTime api.TimeOfDay) ContractTAQMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	p := api.TradesAndQuotesParams{
		Symbol: q.OSI.String(), Date: ShownDay(q.Query, s.Now()).String(),
		MinTime: minTime.String(), MaxTime: dayEnd.String(), TAQMode: api.NBBOChanges,
		Limit: api.Ptr(s.limit(config.TAQPageLimit)), Mode: q.Mode,
	}
	if from > 0 {
		p.StartSequenceNumber = api.Ptr(from)
	}
	recs, resp, err := s.Client.TradesAndQuotes(ctx, p)
	return ContractTAQMsg{Query: q, From: from, Records: recs, Full: len(recs) >= *p.Limit,
		Resp: resp, Err: err, At: s.Now()}
}

// TapeGreeksMsg is one contract's trades with greeks for the tape's IV,
// delta and premium columns, from sequence number From on.
type TapeGreeksMsg struct {
	Query  Query
	OSI    string
	From   int64
	Trades []api.OptionTradeWithGreeks
	Resp   *api.Response
	Err    error
	At     time.Time
}

// TapeGreeks fetches the greeks of contract osi's trades from sequence
// number from and time minTime on (the first of its trades on the tape
// without greeks).
func (s Source) TapeGreeks(ctx context.Context, q Query, osi api.OSI, day api.Date, from int64, minTime api.TimeOfDay) TapeGreeksMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	p := GreeksParams(osi, day, q.Mode, from, minTime, s.limit(config.ContractPageLimit))
	trades, resp, err := s.Client.OptionTradesWithGreeks(ctx, p)
	return TapeGreeksMsg{Query: q, OSI: osi.String(), From: from, Trades: trades, Resp: resp, Err: err, At: s.Now()}
}

// limit is the page size: PageLimit when set, else def.
func (s Source) limit(def int) int {
	if s.PageLimit > 0 {
		return min(s.PageLimit, def)
	}
	return def
}

// NotEntitled reports whether err is the service refusing live or delayed
// time and sales to an account without the data-provider subscription: a
// 400 whose message names the subscription (or a licence). Such a request
// is not retried: it cannot succeed until the account changes, and a past
// day can still be shown.
func NotEntitled(err error) bool {
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest {
		return false
	}
	m := strings.ToLower(ae.Message)
	return strings.Contains(m, "subscription") || strings.Contains(m, "licens") || strings.Contains(m, "entitle")
}

// NotEntitledText is the one wording of a missing subscription on the
// contract page and the tape: what is missing, what still shows, and how
// to see trades anyway.
func NotEntitledText(what string) string {
	return what + " need the OPRA data-provider subscription for live and delayed data; " +
		"the quote shows without it, and a past day's trades need none"
}
