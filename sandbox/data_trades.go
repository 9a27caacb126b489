package sandbox

import (
	"math"
	"net/http"
	"strings"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
	"chainwatch/sandbox/wire"
)

// Defaults of the limit parameters, as the spec gives them.
const (
	defaultTradesLimit = 100
	defaultTAQLimit    = 10000
	defaultGreeksLimit = 100000
)

// tradeFilter is what the three time-and-sales endpoints filter records
// on, each bound inclusive (the first and last millisecond of a window
// count); nil is absent.
type tradeFilter struct {
	minTime, maxTime    api.TimeOfDay // maxTime defaults to the day's last millisecond
	exchange, condition *int
	minSize, maxSize    *int64
	minPrice, maxPrice  *float64
}

func newTradeFilter(minTime, maxTime string, exchange, condition *int, minSize, maxSize *int64, minPrice, maxPrice *float64) tradeFilter {
	f := tradeFilter{maxTime: api.DayMillis - 1, exchange: exchange, condition: condition,
		minSize: minSize, maxSize: maxSize, minPrice: minPrice, maxPrice: maxPrice}
	if t, err := api.ParseTimeOfDay(minTime); err == nil && minTime != "" {
		f.minTime = t
	}
	if t, err := api.ParseTimeOfDay(maxTime); err == nil && maxTime != "" {
		f.maxTime = t
	}
	return f
}

// keep applies the filter to one record's fields. A record without a
// price never meets a price bound.
func (f *tradeFilter) keep(t api.TimeOfDay, exchange, condition uint8, size int64, price api.Float) bool {
	switch {
	case t < f.minTime || t > f.maxTime,
		f.exchange != nil && int(exchange) != *f.exchange,
		f.condition != nil && int(condition) != *f.condition,
		f.minSize != nil && size < *f.minSize,
		f.maxSize != nil && size > *f.maxSize:
		return false
	}
	if f.minPrice == nil && f.maxPrice == nil {
		return true
	}
	return price.Valid && (f.minPrice == nil || price.V >= *f.minPrice) && (f.maxPrice == nil || price.V <= *f.maxPrice)
}

// contractFilter narrows an underlying's trades to some of its contracts,
// or to one (an OSI symbol asked for).
type contractFilter struct {
	root     string
	expiry   api.Date
	strike   int64 // thousandths; 0 is absent
	typ      api.OptionType
	contract *api.OSI // nil: any
}

// contractFilterOf is the filter of p's parameters and contract.
func contractFilterOf(p *api.OptionTradesParams, contract *api.OSI) contractFilter {
	cf := contractFilter{root: strings.ToUpper(p.Root), typ: p.OptionType, contract: contract}
	cf.expiry, _ = api.ParseDate(p.Expiry)
	if p.Strike != nil {
		cf.strike = int64(math.Round(*p.Strike * 1000))
	}
	return cf
}

func (f *contractFilter) keep(t *api.OptionTrade) bool {
	return (f.root == "" || t.Root == f.root) && (f.expiry == 0 || t.Expiry == f.expiry) &&
		(f.strike == 0 || int64(math.Round(t.Strike*1000)) == f.strike) && (f.typ == "" || t.OptionType == f.typ) &&
		(f.contract == nil || t.Root == f.contract.Root && t.Expiry == f.contract.Expiry && t.OptionType == f.contract.Type &&
			int64(math.Round(t.Strike*1000)) == f.contract.StrikeMilli)
}

// tradesWindow is how many trades p asks for at most, and from which
// sequence number (0: none given).
func tradesWindow(p *api.OptionTradesParams) (limit int, from int64) {
	limit = defaultTradesLimit
	if p.Limit != nil {
		limit = *p.Limit
	}
	if p.SeqNo != nil {
		from = *p.SeqNo
	}
	return limit, from
}

// resolve finds the security a symbol belongs to: itself, or for an OSI
// symbol the underlying of its root (SPXW → SPX).
func (d *dataService) resolve(symbol string) (sec *market.Security, contract *api.OSI, ok bool) {
	if o, err := api.ParseOSI(symbol); err == nil {
		sec, ok = d.universe.ByRoot(o.Root)
		return sec, &o, ok
	}
	sec, ok = d.universe.Lookup(symbol)
	return sec, nil, ok
}

// optionTrades serves option-trades: the time and sales of an underlying's
// options (or one contract's, for an OSI symbol) from seq_no on, ascending,
// at most limit records, cancels included. Live and delayed need OPRA.
func (d *dataService) optionTrades(w http.ResponseWriter, r *http.Request, c *call) {
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	p := q.optionTrades(c.mode)
	if invalid(w, q, p.Validate()) {
		return
	}
	at, ok := d.optionMoment(w, c, p.Date)
	if !ok {
		return
	}
	sec, contract, known := d.resolve(p.Symbol)
	tf := newTradeFilter(p.MinTime, p.MaxTime, p.ExchangeID, p.ConditionID, p.MinSize, p.MaxSize, p.MinPrice, p.MaxPrice)
	cf := contractFilterOf(&p, contract)
	limit, from := tradesWindow(&p)
	d.respond(w, c, c.cost(api.EndpointOptionTrades, at.Historical), func(b []byte) ([]byte, bool) {
		if !known || limit == 0 || !nyse.IsTradingDay(at.Requested) {
			return b, false
		}
		all, ok := d.market.OptionTrades(sec.Symbol, at)
		if !ok {
			return b, false
		}
		// Trade i has seq_no i + 1 and the trades are in time order, so
		// the scan starts at the later of seq_no and min_time: a tape
		// polling from its last seq_no reads only the new trades.
		start := all.Since(tf.minTime)
		if from > 1 {
			start = max(start, int(min(from-1, int64(all.Len()))))
		}
		var out []api.OptionTrade
		for i := start; i < all.Len() && len(out) < limit; i++ {
			if t := all.At(i); cf.keep(&t) && tf.keep(t.Timestamp, t.ExchangeID, t.ConditionID, t.Size, t.Price) {
				out = append(out, t)
			}
		}
		if len(out) == 0 {
			return b, false
		}
		if !at.Historical {
			d.ent.nullOptionTrades(out)
		}
		return wire.AppendOptionTrades(b, c.format, out), true
	})
}
