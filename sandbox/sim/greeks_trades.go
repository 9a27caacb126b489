package sim

import (
	"chainwatch/api"
)

// TradesWithGreeks returns the trades of one contract up to at.Time, each
// with the iv implied by its price at that moment as a chain's mid would
// be (see published: the model's vol where the time value is under a
// tick; null when the price cannot be inverted, and then every greek is
// null too), the greeks at that iv, theta never more than the price's
// time value, and dollar greeks for the traded size:
//
//	dollar_delta = delta x S x 100 x size   (dollars of underlying exposure)
//	dollar_vega  = vega x 100 x size        (value of one vol point)
//	dollar_theta = theta x 100 x size       (value of one calendar day)
//
// where S is the underlying's price at the trade and 100 the contract
// multiplier. They carry no sign for direction: whether the print was a
// buy or a sell is not known. Sequence numbers are the trades' seq_no.
// False: not a listed contract on that day.
func (m *Market) TradesWithGreeks(o api.OSI, at Moment) ([]api.OptionTradeWithGreeks, bool) {
	b, ci, ok := m.contractOf(o, at.Date)
	if !ok {
		return nil, false
	}
	td, ok := m.tradeDayThrough(b, at.Time)
	if !ok {
		return nil, false
	}
	idx := td.contractTrades(ci, at.Time)
	out := make([]api.OptionTradeWithGreeks, len(idx))
	s, k, put := b.contract(ci)
	var c tickCtx
	have := false
	for j, i := range idx {
		t := td.trade(i)
		sec := t.Timestamp - t.Timestamp%1000
		if !have || c.tick != sec {
			c, have = b.at(sec), true
		}
		w := api.OptionTradeWithGreeks{
			UnderlyingBid: t.UnderlyingBid,
			UnderlyingAsk: t.UnderlyingAsk,
			Trade:         tradeRecord(&t),
		}
		e := c.expiry(s)
		if iv, g, ok := c.implied(&e, s.Strikes[k], put, t.Price.V); ok {
			size := float64(t.Size)
			g.Theta = capTheta(g.Theta, t.Price.V, intrinsicOf(c.params(&e, s.Strikes[k], put)), b.american)
			w.IV = api.Some(round(iv, 8))
			w.Delta = api.Some(round(g.Delta, 6))
			w.Gamma = api.Some(round(g.Gamma, 8))
			w.Vega = api.Some(round(g.Vega, 6))
			w.Theta = api.Some(round(g.Theta, 6))
			w.Rho = api.Some(round(g.Rho, 6))
			w.DollarDelta = api.Some(round(g.Delta*c.S*100*size, 2))
			w.DollarVega = api.Some(round(g.Vega*100*size, 2))
			w.DollarTheta = api.Some(round(g.Theta*100*size, 2))
		}
		out[j] = w
	}
	return out, true
}

// tradeRecord is an option trade as a trades-and-quotes style record, its
// sequence number the trade's seq_no.
func tradeRecord(t *api.OptionTrade) api.Trade {
	return api.Trade{
		Size:               t.Size,
		Price:              t.Price,
		Flag:               t.CancelFlag,
		ExchSequenceNumber: t.ExchangeSeqNo,
		Time:               t.Timestamp,
		ExchangeID:         t.ExchangeID,
		ConditionID:        t.ConditionID,
		SequenceNumber:     t.SeqNo,
		NBBOBid:            t.Bid,
		NBBOAsk:            t.Ask,
		NBBOBidSize:        t.BidSize,
		NBBOAskSize:        t.AskSize,
	}
}
