package api

// ClassifyTradeAt places a price against the NBBO as the conventions
// say: no bid or no ask (zero or less) is No Market, a bid above the ask
// Crossed Market, Mid Market strictly between the two, and the bid or the
// ask exactly is On Bid or On Ask. The three prices are in one integer
// unit (cents, hundredths of a cent), so binary noise in a decimal never
// moves a print off the bid; a negative price is none, and has no side.
// The sandbox prices its prints by it and the client reclassifies the
// trades of an endpoint that sends no trade_at, so both sides agree.
func ClassifyTradeAt(price, bid, ask int64) TradeAt {
	switch {
	case bid <= 0 || ask <= 0:
		return NoMarket
	case bid > ask:
		return CrossedMarket
	case price < 0:
		return ""
	case price < bid:
		return BelowBid
	case price == bid:
		return OnBid
	case price < ask:
		return MidMarket
	case price == ask:
		return OnAsk
	}
	return AboveAsk
}
