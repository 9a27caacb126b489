package wire

import (
	"slices"

	"chainwatch/api"
)

// api.OptionTrade: the NBBO and trade fields have other XML element names,
// as the spec's table gives them.
var (
	kSecurity      = k("security")
	kTradeAsk      = kx("option_ask", "nbbo_ask")
	kTradeAskSize  = kx("option_ask_size", "nbbo_ask_size")
	kTradeBid      = kx("option_bid", "nbbo_bid")
	kTradeBidSize  = kx("option_bid_size", "nbbo_bid_size")
	kTradePrice    = kx("option_trade_price", "price")
	kTradeSize     = kx("option_trade_size", "size")
	kTradeAt       = kx("option_trade_at", "trade_at")
	kConditionID   = k("condition_id")
	kExchangeID    = k("exchange_id")
	kExchangeSeqNo = k("exchange_seq_no")
	kCancelFlag    = k("cancel_flag")
	kOptionTrade   = k("option_trade")
)

// api.Trade, api.Quote and the greeks of api.OptionTradeWithGreeks.
var (
	kSize            = k("size")
	kPrice           = k("price")
	kFlag            = k("flag")
	kExchSeqNumber   = k("exch_sequence_number")
	kTime            = k("time")
	kSequenceNumber  = k("sequence_number")
	kNBBOBid         = k("nbbo_bid")
	kNBBOAsk         = k("nbbo_ask")
	kNBBOBidSize     = k("nbbo_bid_size")
	kNBBOAskSize     = k("nbbo_ask_size")
	kBestAskExchange = k("best_ask_exchange")
	kBestBidExchange = k("best_bid_exchange")
	kBidSize         = k("bid_size")
	kBid             = k("bid")
	kAskSize         = k("ask_size")
	kAsk             = k("ask")
	kDollarDelta     = k("dollar_delta")
	kDollarVega      = k("dollar_vega")
	kDollarTheta     = k("dollar_theta")
	kTradeWithGreeks = k("trade_with_greeks")
	kTradeItem       = k("trade")
	kQuoteItem       = k("quote")
	kOptionQuoteItem = k("option_quote")
)

// Bytes a trade record takes, a little over a realistic one, to size the
// buffer once for a page of up to 10,000 (or 100,000) records.
const (
	recordJSONBytes = 480
	recordXMLBytes  = 800
)

func grow(b []byte, f api.Format, n int) []byte {
	per := recordJSONBytes
	if f == api.XML {
		per = recordXMLBytes
	}
	return slices.Grow(b, 256+n*per)
}

// AppendOptionTrades appends the option-trades response: an array of
// OptionTrade (XML: option_trades/option_trade, with the spec's element
// names nbbo_ask, nbbo_ask_size, nbbo_bid, nbbo_bid_size, price, size and
// trade_at).
func AppendOptionTrades(b []byte, f api.Format, t []api.OptionTrade) []byte {
	e := newEnc(grow(b, f, len(t)), f)
	e.beginDoc("option_trades", true, false)
	for i := range t {
		r := &t[i]
		e.beginItem(&kOptionTrade)
		e.nstr(&kSecurity, r.Security)
		e.str(&kRoot, r.Root)
		e.date(&kExpiry, r.Expiry)
		e.float(&kStrike, r.Strike)
		e.str(&kOptionType, string(r.OptionType))
		e.nfloat(&kTradeAsk, r.Ask)
		e.nint(&kTradeAskSize, r.AskSize)
		e.nfloat(&kTradeBid, r.Bid)
		e.nint(&kTradeBidSize, r.BidSize)
		e.nfloat(&kTradePrice, r.Price)
		e.int(&kTradeSize, r.Size)
		e.str(&kTradeAt, string(r.TradeAt))
		e.nfloat(&kUnderlyingBid, r.UnderlyingBid)
		e.nfloat(&kUnderlyingAsk, r.UnderlyingAsk)
		e.int(&kConditionID, int64(r.ConditionID))
		e.int(&kExchangeID, int64(r.ExchangeID))
		e.int(&kExchangeSeqNo, r.ExchangeSeqNo)
		e.int(&kCancelFlag, int64(r.CancelFlag))
		e.time(&kTimestamp, r.Timestamp)
		e.int(&kSeqNo, r.SeqNo)
		e.endItem(&kOptionTrade)
	}
	return e.endDoc("option_trades", true)
}

// AppendTradesWithGreeks appends the option-trades-with-greeks response: an
// array of flat objects, the greeks then the trade's fields (XML:
// option_trades/trade_with_greeks).
func AppendTradesWithGreeks(b []byte, f api.Format, t []api.OptionTradeWithGreeks) []byte {
	e := newEnc(grow(b, f, len(t)), f)
	e.beginDoc("option_trades", true, false)
	for i := range t {
		r := &t[i]
		e.beginItem(&kTradeWithGreeks)
		e.nfloat(&kIV, r.IV)
		e.nfloat(&kDelta, r.Delta)
		e.nfloat(&kVega, r.Vega)
		e.nfloat(&kTheta, r.Theta)
		e.nfloat(&kRho, r.Rho)
		e.nfloat(&kGamma, r.Gamma)
		e.nfloat(&kDollarDelta, r.DollarDelta)
		e.nfloat(&kDollarVega, r.DollarVega)
		e.nfloat(&kDollarTheta, r.DollarTheta)
		e.nfloat(&kUnderlyingBid, r.UnderlyingBid)
		e.nfloat(&kUnderlyingAsk, r.UnderlyingAsk)
		e.trade(&r.Trade)
		e.endItem(&kTradeWithGreeks)
	}
	return e.endDoc("option_trades", true)
}

// AppendTAQ appends the trades-and-quotes response. Each record carries only
// its kind's fields, since that is how a reader tells them apart in JSON: a
// trade has price and size, an option quote underlying_bid and
// underlying_ask, a quote neither. In XML (root trades_and_quotes) the item
// element names the kind: trade, quote or option_quote. A record of no kind
// (Kind 0) carries nothing and is left out.
func AppendTAQ(b []byte, f api.Format, r []api.TAQRecord) []byte {
	e := newEnc(grow(b, f, len(r)), f)
	e.beginDoc("trades_and_quotes", true, false)
	for i := range r {
		switch rec := &r[i]; rec.Kind {
		case api.KindTrade:
			e.beginItem(&kTradeItem)
			e.trade(&rec.Trade)
			e.endItem(&kTradeItem)
		case api.KindQuote:
			e.beginItem(&kQuoteItem)
			e.quote(&rec.Quote.Quote)
			e.endItem(&kQuoteItem)
		case api.KindOptionQuote:
			e.beginItem(&kOptionQuoteItem)
			e.quote(&rec.Quote.Quote)
			e.nfloat(&kUnderlyingBid, rec.Quote.UnderlyingBid)
			e.nfloat(&kUnderlyingAsk, rec.Quote.UnderlyingAsk)
			e.endItem(&kOptionQuoteItem)
		}
	}
	return e.endDoc("trades_and_quotes", true)
}

func (e *enc) trade(t *api.Trade) {
	e.int(&kSize, t.Size)
	e.nfloat(&kPrice, t.Price)
	e.int(&kFlag, int64(t.Flag))
	e.int(&kExchSeqNumber, t.ExchSequenceNumber)
	e.time(&kTime, t.Time)
	e.int(&kExchangeID, int64(t.ExchangeID))
	e.int(&kConditionID, int64(t.ConditionID))
	e.int(&kSequenceNumber, t.SequenceNumber)
	e.nfloat(&kNBBOBid, t.NBBOBid)
	e.nfloat(&kNBBOAsk, t.NBBOAsk)
	e.nint(&kNBBOBidSize, t.NBBOBidSize)
	e.nint(&kNBBOAskSize, t.NBBOAskSize)
}

func (e *enc) quote(q *api.Quote) {
	e.int(&kBestAskExchange, int64(q.BestAskExchange))
	e.int(&kBestBidExchange, int64(q.BestBidExchange))
	e.nint(&kBidSize, q.BidSize)
	e.nfloat(&kBid, q.Bid)
	e.nint(&kAskSize, q.AskSize)
	e.nfloat(&kAsk, q.Ask)
	e.int(&kFlag, int64(q.Flag))
	e.time(&kTime, q.Time)
	e.int(&kExchangeID, int64(q.ExchangeID))
	e.int(&kConditionID, int64(q.ConditionID))
	e.int(&kSequenceNumber, q.SequenceNumber)
	e.nfloat(&kNBBOBid, q.NBBOBid)
	e.nint(&kNBBOBidSize, q.NBBOBidSize)
	e.nfloat(&kNBBOAsk, q.NBBOAsk)
	e.nint(&kNBBOAskSize, q.NBBOAskSize)
}
