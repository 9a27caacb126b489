// Package tas is one option's time and sales as figures, with no terminal
// in it: the trades of a contract (from option-trades-with-greeks or
// option-trades) in one shape, where each printed against the NBBO, and
// the day's summary a trader reads first (volume at the bid, mid and ask,
// premium, the largest trade, blocks and multi-exchange sweeps). The
// contract page and the headless `chainwatch trades` share it, so a figure
// on screen and in a script is computed once.
package tas

import (
	"chainwatch/pricing"
	"math"

	"chainwatch/api"
)

// Trade is one print of a contract. Prices and greeks are NaN when the
// service sent null (no OPRA subscription, no IV for the print).
type Trade struct {
	// Key names the contract (its OSI symbol) in a list of several
	// contracts' trades; "" in one contract's list.
	Key       string
	Seq       int64
	Time      api.TimeOfDay
	Size      int64
	Price     float64
	Bid, Ask  float64 // the NBBO when it printed
	At        api.TradeAt
	Exchange  uint8
	Condition uint8
	Cancel    api.CancelFlag

	IV, Delta, Gamma, Theta, Vega float64
	UndBid, UndAsk                float64 // the underlying's quote at the print
}

// FromGreeks converts a record of option-trades-with-greeks. That endpoint
// does not say where the trade printed, so it is classified here from the
// price and the NBBO it carries, by the conventions' rule.
func FromGreeks(g *api.OptionTradeWithGreeks) Trade {
	t := Trade{
		Seq: g.SequenceNumber, Time: g.Time, Size: g.Size,
		Price: api.OrNaN(g.Price), Bid: api.OrNaN(g.NBBOBid), Ask: api.OrNaN(g.NBBOAsk),
		Exchange: g.ExchangeID, Condition: g.ConditionID, Cancel: g.Flag,
		IV: api.OrNaN(g.IV), Delta: api.OrNaN(g.Delta), Gamma: api.OrNaN(g.Gamma),
		Theta: api.OrNaN(g.Theta), Vega: api.OrNaN(g.Vega),
		UndBid: api.OrNaN(g.UnderlyingBid), UndAsk: api.OrNaN(g.UnderlyingAsk),
	}
	t.At = Classify(t.Price, t.Bid, t.Ask)
	return t
}

// FromOptionTrade converts a record of option-trades, which says where it
// printed but carries no greeks.
func FromOptionTrade(o *api.OptionTrade) Trade {
	return Trade{
		Seq: o.SeqNo, Time: o.Timestamp, Size: o.Size,
		Price: api.OrNaN(o.Price), Bid: api.OrNaN(o.Bid), Ask: api.OrNaN(o.Ask), At: o.TradeAt,
		Exchange: o.ExchangeID, Condition: o.ConditionID, Cancel: o.CancelFlag,
		IV: math.NaN(), Delta: math.NaN(), Gamma: math.NaN(), Theta: math.NaN(), Vega: math.NaN(),
		UndBid: api.OrNaN(o.UnderlyingBid), UndAsk: api.OrNaN(o.UnderlyingAsk),
	}
}

// Counts reports whether the trade counts in volume and premium: a
// canceled trade (flag 1) did not happen and its cancel message (flag 2)
// is not a trade.
func (t *Trade) Counts() bool { return t.Cancel == api.TradeNormal }

// Premium is the dollars that changed hands: price x size x 100; NaN
// without a price.
func (t *Trade) Premium() float64 { return t.Price * float64(t.Size) * pricing.Multiplier }

// Underlying is the underlying's mid at the print, NaN when its quote was
// not sent (no consolidated-tape subscription).
func (t *Trade) Underlying() float64 { return mid(t.UndBid, t.UndAsk) }

// Mid is the NBBO mid at the print.
func (t *Trade) Mid() float64 { return mid(t.Bid, t.Ask) }

func mid(bid, ask float64) float64 {
	if math.IsNaN(bid) || math.IsNaN(ask) || bid <= 0 || ask <= 0 || bid > ask {
		return math.NaN()
	}
	return (bid + ask) / 2
}

// Classify places a price against the NBBO as the conventions say: no bid
// or no ask is No Market, a bid above the ask Crossed Market, and Mid
// Market is strictly between the two. Prices are compared in hundredths
// of a cent, so binary noise in a decimal never moves a print off the bid.
func Classify(price, bid, ask float64) api.TradeAt {
	return api.ClassifyTradeAt(ticks(price), ticks(bid), ticks(ask))
}

// ticks is a price in hundredths of a cent; -1 for none.
func ticks(v float64) int64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return -1
	}
	return int64(math.Round(v * 10000))
}

// Side is where a print leans: a buyer lifting the offer, a seller hitting
// the bid, in between, or unknown (crossed, no market, no price).
type Side uint8

// The sides of a print.
const (
	SideNone Side = iota
	SideBid
	SideMid
	SideAsk
)

// SideOf is the side of a trade_at value.
func SideOf(at api.TradeAt) Side {
	switch at {
	case api.OnBid, api.BelowBid:
		return SideBid
	case api.MidMarket:
		return SideMid
	case api.OnAsk, api.AboveAsk:
		return SideAsk
	}
	return SideNone
}
