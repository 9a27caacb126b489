package chain

import (
	"chainwatch/api"
	"chainwatch/ui"
)

// A contract's cell and the underlying's header, as the store fills them
// from a snapshot.

// setContract writes o into c. When c already holds the same contract, the
// columns whose value changed are marked (Rose: went up, or appeared) with
// the time at; a cell that did not change keeps its last flash, which has
// long faded by the next snapshot. A new contract does not flash.
func setContract(c *ui.Contract, o *api.OptionData, at int64) {
	bid, ask := api.OrNaN(o.Bid), api.OrNaN(o.Ask)
	mid := api.OrNaN(o.Mid)
	if !o.Mid.Valid && o.Bid.Valid && o.Ask.Valid {
		mid = (bid + ask) / 2
	}
	last, volume, oi := api.OrNaN(o.LastTradePrice), intv(o.Volume), intv(o.OpenInterest)
	iv, delta, gamma, theta, vega := api.OrNaN(o.IV), api.OrNaN(o.Delta), api.OrNaN(o.Gamma), api.OrNaN(o.Theta), api.OrNaN(o.Vega)
	bidSize, askSize := intv(o.BidSize), intv(o.AskSize)

	if c.OSI == "" || c.OSI != o.Option {
		*c = ui.Contract{OSI: o.Option}
		if c.OSI == "" {
			c.OSI, _ = api.FormatOSI(o.Root, o.Expiry, o.OptionType, o.Strike)
		}
	} else {
		var ch, rose ui.ColMask
		diffF(&ch, &rose, ui.ColBid, c.Bid, bid)
		diffF(&ch, &rose, ui.ColAsk, c.Ask, ask)
		diffF(&ch, &rose, ui.ColMid, c.Mid, mid)
		diffF(&ch, &rose, ui.ColLast, c.Last, last)
		diffI(&ch, &rose, ui.ColVolume, c.Volume, volume)
		diffI(&ch, &rose, ui.ColOI, c.OI, oi)
		diffF(&ch, &rose, ui.ColIV, c.IV, iv)
		diffF(&ch, &rose, ui.ColDelta, c.Delta, delta)
		diffF(&ch, &rose, ui.ColGamma, c.Gamma, gamma)
		diffF(&ch, &rose, ui.ColTheta, c.Theta, theta)
		diffF(&ch, &rose, ui.ColVega, c.Vega, vega)
		diffI(&ch, &rose, ui.ColBidSize, c.BidSize, bidSize)
		diffI(&ch, &rose, ui.ColAskSize, c.AskSize, askSize)
		if ch != 0 {
			c.Changed, c.Rose, c.ChangedAt = ch, rose, at
		}
	}
	c.Bid, c.Ask, c.Mid, c.Last = bid, ask, mid, last
	c.Open, c.High, c.Low, c.PrevClose = api.OrNaN(o.Open), api.OrNaN(o.High), api.OrNaN(o.Low), api.OrNaN(o.PrevDayClose)
	c.IV, c.Delta, c.Gamma, c.Theta, c.Vega, c.Rho = iv, delta, gamma, theta, vega, api.OrNaN(o.Rho)
	c.BidSize, c.AskSize, c.Volume, c.OI, c.Trades = bidSize, askSize, volume, oi, intv(o.TradeCount)
}

func intv(n api.Int) int64 {
	if n.Valid && n.V >= 0 {
		return n.V
	}
	return -1
}

// diffF marks col when the value changed; null to null is no change.
func diffF(ch, rose *ui.ColMask, col ui.Col, old, new float64) {
	if old == new || (old != old && new != new) {
		return
	}
	*ch |= 1 << col
	if new > old || (old != old && new == new) {
		*rose |= 1 << col
	}
}

func diffI(ch, rose *ui.ColMask, col ui.Col, old, new int64) {
	if old == new {
		return
	}
	*ch |= 1 << col
	if new > old {
		*rose |= 1 << col
	}
}

// header returns the underlying's quote of the last snapshot for the
// header; the zero store gives nulls throughout.
func (s *chainStore) header() ui.HeaderData {
	u := &s.und
	h := ui.HeaderData{
		Symbol: u.Symbol,
		Last:   api.OrNaN(u.LastTradePrice), PrevClose: api.OrNaN(u.PrevDayClose),
		Bid: api.OrNaN(u.Bid), Ask: api.OrNaN(u.Ask), BidSize: intv(u.BidSize), AskSize: intv(u.AskSize),
		Open: api.OrNaN(u.Open), High: api.OrNaN(u.High), Low: api.OrNaN(u.Low), Volume: intv(u.Volume),
		IV30: api.OrNaN(u.IV30), IV30Change: api.OrNaN(u.IV30Change),
		ImpliedBid: api.OrNaN(u.ImpliedUnderlyingBid), ImpliedAsk: api.OrNaN(u.ImpliedUnderlyingAsk), ImpliedMid: api.OrNaN(u.ImpliedUnderlyingMid),
		AsOf: -1,
	}
	if s.hasUnd {
		h.AsOf = u.Timestamp
		h.Indicator = indicator(u.ImpliedUnderlyingBid, u.ImpliedUnderlyingAsk, u.ImpliedUnderlyingMid)
	}
	return h
}

// indicator grades the implied underlying's spread as the service's
// underlying-quotes does (the chain endpoint does not send the grade):
// spread over price below 0.01 is green, up to 0.02 yellow, above red.
// Without both sides (historical dates) it is unknown.
func indicator(bid, ask, mid api.Float) api.Indicator {
	if !bid.Valid || !ask.Valid {
		return ""
	}
	m := (bid.V + ask.V) / 2
	if mid.Valid {
		m = mid.V
	}
	if !(m > 0) {
		return ""
	}
	switch r := (ask.V - bid.V) / m; {
	case r < 0.01:
		return api.Green
	case r <= 0.02:
		return api.Yellow
	}
	return api.Red
}
