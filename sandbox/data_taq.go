package sandbox

import (
	"net/http"
	"slices"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/sandbox/wire"
)

// page picks at most limit of n records in time order: ascending from the
// first whose sequence number is at least start, or with DESC newest first
// from the last whose sequence number is at most start. start is the
// inclusive first record returned either way, so a client pages on from
// the last record + 1 (ASC) or - 1 (DESC).
func page(n int, seq func(int) int64, keep func(int) bool, start *int64, desc bool, limit int) []int {
	var out []int
	for k := 0; k < n && len(out) < limit; k++ {
		i := k
		if desc {
			i = n - 1 - k
		}
		switch {
		case start != nil && !desc && seq(i) < *start,
			start != nil && desc && seq(i) > *start,
			!keep(i):
			continue
		}
		out = append(out, i)
	}
	return out
}

// gather returns the records at idx. A run of consecutive ascending
// indexes, the common case of a page, is a subslice of the shared records,
// which the encoder only reads; anything else is copied.
func gather[T any](all []T, idx []int) []T {
	if len(idx) > 0 && idx[len(idx)-1]-idx[0] == len(idx)-1 {
		return all[idx[0] : idx[0]+len(idx) : idx[0]+len(idx)]
	}
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = all[i]
	}
	return out
}

// tradesAndQuotes serves trades-and-quotes: a stock's or one option's
// trades with the quotes of the window, as the TAQ mode selects them:
//
//   - ALL_QUOTES (default): every quote.
//   - NBBO_CHANGES: a quote only when the NBBO it carries (prices and
//     sizes) differs from the previous record's, the first of the window
//     always; trades are always kept.
//   - QUOTES_ON_NBBO: quotes that set the best bid or ask (flag != 0).
//
// quote_condition_id narrows quotes, trade_condition_id trades, and
// condition_id records of either kind; exchange_id both. Live and delayed
// need the stock's feed (consolidated tape, or UTP for Nasdaq-listed) or
// OPRA for an option.
func (d *dataService) tradesAndQuotes(w http.ResponseWriter, r *http.Request, c *call) {
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	p := q.tradesAndQuotes(c.mode)
	if invalid(w, q, p.Validate()) {
		return
	}
	at, ok := d.moment(w, c, p.Date)
	if !ok {
		return
	}
	sec, contract, known := d.resolve(p.Symbol)
	symbol, feed := p.Symbol, stockFeed(sec)
	if contract != nil {
		symbol, feed = contract.String(), OPRA
	}
	if !at.Historical && !d.ent.has(feed) {
		plainError(w, http.StatusBadRequest, requires(c.path, feed))
		return
	}
	from, _ := api.ParseTimeOfDay(p.MinTime)
	to, _ := api.ParseTimeOfDay(p.MaxTime)
	limit := defaultTAQLimit
	if p.Limit != nil {
		limit = *p.Limit
	}
	d.respond(w, c, c.cost(api.EndpointTradesAndQuotes, at.Historical), func(b []byte) ([]byte, bool) {
		if !known || limit == 0 || !market.IsTradingDay(at.Requested) {
			return b, false
		}
		all, ok := d.market.TradesAndQuotes(symbol, at, from, to)
		if !ok {
			return b, false
		}
		keep := taqKeep(all, p)
		idx := page(len(all), func(i int) int64 { return all[i].SequenceNumber() }, func(i int) bool { return keep[i] },
			p.StartSequenceNumber, p.OrderByTime == api.Descending, limit)
		if len(idx) == 0 {
			return b, false
		}
		return wire.AppendTAQ(b, c.format, gather(all, idx)), true
	})
}

// nbbo is the best bid and offer a record carries.
type nbbo struct {
	bid, ask         api.Float
	bidSize, askSize api.Int
}

func recordNBBO(r *api.TAQRecord) nbbo {
	if r.Kind == api.KindTrade {
		return nbbo{r.Trade.NBBOBid, r.Trade.NBBOAsk, r.Trade.NBBOBidSize, r.Trade.NBBOAskSize}
	}
	q := &r.Quote
	return nbbo{q.NBBOBid, q.NBBOAsk, q.NBBOBidSize, q.NBBOAskSize}
}

// taqKeep decides, in time order, which records the mode and the id
// filters let through. NBBO changes are judged against the previous record
// of the whole window, whatever the other filters drop.
func taqKeep(all []api.TAQRecord, p api.TradesAndQuotesParams) []bool {
	keep := make([]bool, len(all))
	var prev nbbo
	for i := range all {
		rec := &all[i]
		cur := recordNBBO(rec)
		changed := i == 0 || cur != prev
		prev = cur
		var exchange, condition uint8
		if rec.Kind == api.KindTrade {
			exchange, condition = rec.Trade.ExchangeID, rec.Trade.ConditionID
			if len(p.TradeConditionIDs) > 0 && !slices.Contains(p.TradeConditionIDs, int(condition)) {
				continue
			}
		} else {
			exchange, condition = rec.Quote.ExchangeID, rec.Quote.ConditionID
			switch {
			case p.TAQMode == api.NBBOChanges && !changed,
				p.TAQMode == api.QuotesOnNBBO && rec.Quote.Flag == 0,
				len(p.QuoteConditionIDs) > 0 && !slices.Contains(p.QuoteConditionIDs, int(condition)):
				continue
			}
		}
		if len(p.ConditionIDs) > 0 && !slices.Contains(p.ConditionIDs, int(condition)) ||
			p.ExchangeID != nil && int(exchange) != *p.ExchangeID {
			continue
		}
		keep[i] = true
	}
	return keep
}

// tradesWithGreeks serves option-trades-with-greeks: one contract's trades
// in the window with the greeks at each trade, filtered and paged as
// trades-and-quotes is. Live and delayed need OPRA.
func (d *dataService) tradesWithGreeks(w http.ResponseWriter, r *http.Request, c *call) {
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	p := q.tradesWithGreeks(c.mode)
	if invalid(w, q, p.Validate()) {
		return
	}
	at, ok := d.optionMoment(w, c, p.Date)
	if !ok {
		return
	}
	_, contract, known := d.resolve(p.Symbol)
	tf := newTradeFilter(p.MinTime, p.MaxTime, p.ExchangeID, p.ConditionID, p.MinSize, p.MaxSize, p.MinPrice, p.MaxPrice)
	limit := defaultGreeksLimit
	if p.Limit != nil {
		limit = *p.Limit
	}
	d.respond(w, c, c.cost(api.EndpointTradesWithGreeks, at.Historical), func(b []byte) ([]byte, bool) {
		if !known || contract == nil || limit == 0 || !market.IsTradingDay(at.Requested) {
			return b, false
		}
		all, ok := d.market.TradesWithGreeks(*contract, at)
		if !ok {
			return b, false
		}
		idx := page(len(all), func(i int) int64 { return all[i].SequenceNumber }, func(i int) bool {
			t := &all[i].Trade
			return tf.keep(t.Time, t.ExchangeID, t.ConditionID, t.Size, t.Price)
		}, p.StartSequenceNumber, p.OrderByTime == api.Descending, limit)
		if len(idx) == 0 {
			return b, false
		}
		return wire.AppendTradesWithGreeks(b, c.format, gather(all, idx)), true
	})
}
