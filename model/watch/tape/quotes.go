package tape

// The ladder's quotes as the tape's first source of IV and delta.

import (
	"math"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
)

// quoteKey is a contract as the tape's entries name it.
type quoteKey struct {
	root        string
	expiry      api.Date
	typ         api.OptionType
	strikeMilli int64
}

// quoteGreeks is a contract's IV and delta in the ladder's last answer,
// and the time of that quote.
type quoteGreeks struct {
	iv, delta float64
	at        api.TimeOfDay
}

// SetQuotes takes the ladder's latest chain answer (one expiry polled, or
// the whole chain) when it is for the tape's query: its quotes' IV and delta fill
// the prints of the same contracts that have none yet, when the print is
// within config.TapeQuoteIVWindow of its quote. The ladder has paid for
// those quotes already, so the column fills without a request, and the
// option-trades-with-greeks requests, which the budget allows one every
// few seconds, go to the prints no quote covers. Prints arriving later
// are filled from the same quotes until the next answer replaces them.
// The IV is the quote's (mid), not the print's own, and is drawn as such.
func (t *Model) SetQuotes(m feed.ChainMsg) {
	c := m.Chain
	if m.Query.Gen != t.q.Gen || m.Err != nil || c == nil {
		return
	}
	// A new map each time: clearing would keep a whole chain's buckets
	// (thousands of contracts, every half hour) behind one expiry's.
	t.quotes = make(map[quoteKey]quoteGreeks, len(c.Options))
	for i := range c.Options {
		o := &c.Options[i]
		if !o.IV.Valid || math.IsNaN(o.IV.V) || o.IV.V <= 0 {
			continue
		}
		k := quoteKey{o.Root, o.Expiry, o.OptionType, int64(math.Round(o.Strike * 1000))}
		if s, err := api.ParseOSI(o.Option); err == nil {
			k = quoteKey{s.Root, s.Expiry, s.Type, s.StrikeMilli}
		}
		t.quotes[k] = quoteGreeks{iv: o.IV.V, delta: api.OrNaN(o.Delta), at: o.Timestamp}
	}
	for i := range t.r.len() {
		t.fromQuote(t.r.at(i))
	}
	t.layout()
}

// fromQuote fills e's IV and delta from its contract's quote, when it has
// none of its own and the quote is close enough in time to stand for it.
func (t *Model) fromQuote(e *tapeEntry) {
	if len(t.quotes) == 0 || !math.IsNaN(e.tr.IV) || e.tr.GreeksAsked {
		return
	}
	qg, ok := t.quotes[quoteKey{e.tr.Root, e.tr.Expiry, e.tr.Type, e.strikeMilli}]
	if !ok || absMs(e.tr.Time-qg.at) > config.TapeQuoteIVWindow.Milliseconds() {
		return
	}
	e.tr.IV, e.tr.Delta, e.tr.IVQuote = qg.iv, qg.delta, true
}

func absMs(d api.TimeOfDay) int64 {
	return int64(max(d, -d))
}

// IVShown counts the prints on screen (as the last View drew them) by
// where their IV comes from: their own, their quote's, waiting for a
// fetch, or none (the service has none).
func (t *Model) IVShown() (own, quote, waiting, none int) {
	for i := range t.vis {
		v := &t.vis[i]
		switch {
		case v.IVQuote && !math.IsNaN(v.IV):
			quote++
		case !math.IsNaN(v.IV):
			own++
		case v.GreeksAsked:
			none++
		default:
			waiting++
		}
	}
	return own, quote, waiting, none
}
