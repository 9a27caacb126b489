package sandbox

import (
	"net/http"
	"strings"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/sandbox/sim"
	"chainwatch/sandbox/wire"
)

// chain serves option-and-underlying-quotes: the snapshot of one
// underlying's chain at the requested moment, narrowed by the filters.
//
// A known symbol whose filters leave no contract is still a 200 with its
// underlying and an empty options list: the underlying's quote is data.
// An unknown or not optionable symbol, a day before its listing or a day
// without a session (market.IsTradingDay) is 204.
func (d *dataService) chain(w http.ResponseWriter, r *http.Request, c *call) {
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	p := q.optionQuotes(c.mode)
	if invalid(w, q, p.Validate()) {
		return
	}
	at, ok := d.moment(w, c, p.Date)
	if !ok {
		return
	}
	f := newChainFilter(p)
	d.respondParts(w, c, c.cost(api.EndpointOptionQuotes, at.Historical), func(b []byte) (reply, bool) {
		if !market.IsTradingDay(at.Requested) {
			return reply{head: b}, false // the conventions: a non-trading date matches nothing
		}
		// Only the expiries asked for are priced: a poll of one expiry
		// of SPX builds its few hundred contracts, not the whole chain.
		ch, ok := d.market.ChainExpiries(p.Symbol, at, sim.Expiries{First: f.minExpiry, Last: f.maxExpiry})
		if !ok {
			return reply{head: b}, false
		}
		u := ch.Underlying // a copy: the chain is shared
		if !at.Historical && !d.ent.all() {
			sec, _ := d.universe.Lookup(p.Symbol)
			d.ent.nullUnderlying(&u, sec)
		}
		options := f.apply(ch.Options)
		if f.none() && len(options) >= sharedContractsMin {
			e := d.bodies.get(c.format, options)
			return reply{head: wire.AppendChainHead(b, c.format, &u), shared: e.parts, tail: wire.ChainTail(c.format), owner: e}, true
		}
		return reply{head: wire.AppendChain(b, c.format, &u, options)}, true
	})
}

// chainFilter is the chain's filters, each inclusive; zero values are
// absent ones.
type chainFilter struct {
	root                 string
	typ                  api.OptionType
	minExpiry, maxExpiry api.Date
	minStrike, maxStrike *float64
}

func newChainFilter(p api.OptionQuotesParams) chainFilter {
	f := chainFilter{root: strings.ToUpper(p.Root), typ: p.OptionType, minStrike: p.MinStrike, maxStrike: p.MaxStrike}
	f.minExpiry, _ = api.ParseDate(p.MinExpiry)
	f.maxExpiry, _ = api.ParseDate(p.MaxExpiry)
	return f
}

func (f chainFilter) none() bool {
	return f.root == "" && f.typ == "" && f.minExpiry == 0 && f.maxExpiry == 0 && f.minStrike == nil && f.maxStrike == nil
}

func (f chainFilter) keep(o *api.OptionData) bool {
	switch {
	case f.root != "" && o.Root != f.root,
		f.typ != "" && o.OptionType != f.typ,
		f.minExpiry != 0 && o.Expiry < f.minExpiry,
		f.maxExpiry != 0 && o.Expiry > f.maxExpiry,
		f.minStrike != nil && o.Strike < *f.minStrike-strikeEps,
		f.maxStrike != nil && o.Strike > *f.maxStrike+strikeEps:
		return false
	}
	return true
}

// strikeEps absorbs the float noise of a strike typed as 4125.0000001;
// strikes are whole thousandths.
const strikeEps = 1e-7

// apply returns the contracts the filter keeps. When it keeps them all
// (no filters, or only the expiries the market narrowed the chain to)
// that is the shared slice itself, which the encoder only reads: a chain
// is not copied for every request.
func (f chainFilter) apply(options []api.OptionData) []api.OptionData {
	if f.none() {
		return options
	}
	i := 0
	for i < len(options) && f.keep(&options[i]) {
		i++
	}
	if i == len(options) {
		return options
	}
	out := append(make([]api.OptionData, 0, max(i, 64)), options[:i]...) // a copy from the first one left out
	for ; i < len(options); i++ {
		if f.keep(&options[i]) {
			out = append(out, options[i])
		}
	}
	return out
}

// underlyingQuotes serves underlying-quotes: the symbols in the order
// asked, unknown ones left out. seq_no asks for symbols changed since: a
// symbol whose seq_no is below it has not changed since the caller's last
// look and is left out too. Nothing left is 204.
func (d *dataService) underlyingQuotes(w http.ResponseWriter, r *http.Request, c *call) {
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	p := q.underlyingQuotes(c.mode)
	if invalid(w, q, p.Validate()) {
		return
	}
	at, ok := d.moment(w, c, p.Date)
	if !ok {
		return
	}
	d.respond(w, c, c.cost(api.EndpointUnderlyingQuotes, at.Historical), func(b []byte) ([]byte, bool) {
		if !market.IsTradingDay(at.Requested) {
			return b, false
		}
		list := make([]api.Symbol, 0, len(p.Symbols))
		for _, sym := range p.Symbols {
			s, ok := d.market.Symbol(sym, at)
			if !ok || p.SeqNo != nil && s.SeqNo.V < *p.SeqNo {
				continue
			}
			if !at.Historical && !d.ent.all() {
				sec, _ := d.universe.Lookup(sym)
				d.ent.nullUnderlying(&s.Underlying, sec)
			}
			list = append(list, s)
		}
		if len(list) == 0 {
			return b, false
		}
		return wire.AppendSymbols(b, c.format, list), true
	})
}
