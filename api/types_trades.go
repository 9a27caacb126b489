package api

// CancelFlag marks a trade record: 0 normal, 1 a trade that was later
// canceled (it stays in the record), 2 the cancel message itself.
type CancelFlag int

// The cancel flag values.
const (
	TradeNormal   CancelFlag = 0
	TradeCanceled CancelFlag = 1
	TradeCancel   CancelFlag = 2
)

// TradeAt classifies a trade's price against the NBBO of that moment.
type TradeAt string

// The seven classifications of the conventions.
const (
	BelowBid      TradeAt = "Below Bid"
	OnBid         TradeAt = "On Bid"
	MidMarket     TradeAt = "Mid Market" // strictly between bid and ask
	OnAsk         TradeAt = "On Ask"
	AboveAsk      TradeAt = "Above Ask"
	CrossedMarket TradeAt = "Crossed Market" // bid > ask
	NoMarket      TradeAt = "No Market"      // no bid or no ask
)

// OptionTrade is one option time-and-sales record. XML: option_trades/option_trade,
// where the NBBO and trade fields have other element names (nbbo_ask, price,
// size, trade_at). NBBO and price are OPRA-subscription fields.
type OptionTrade struct {
	Security   String     `json:"security" xml:"security"` // OSI symbol; may be null
	Root       string     `json:"root" xml:"root"`
	Expiry     Date       `json:"expiry" xml:"expiry"`
	Strike     float64    `json:"strike" xml:"strike"`
	OptionType OptionType `json:"option_type" xml:"option_type"`

	Ask     Float   `json:"option_ask" xml:"nbbo_ask"`
	AskSize Int     `json:"option_ask_size" xml:"nbbo_ask_size"`
	Bid     Float   `json:"option_bid" xml:"nbbo_bid"`
	BidSize Int     `json:"option_bid_size" xml:"nbbo_bid_size"`
	Price   Float   `json:"option_trade_price" xml:"price"`
	Size    int64   `json:"option_trade_size" xml:"size"`
	TradeAt TradeAt `json:"option_trade_at" xml:"trade_at"`

	UnderlyingBid Float `json:"underlying_bid" xml:"underlying_bid"`
	UnderlyingAsk Float `json:"underlying_ask" xml:"underlying_ask"`

	ConditionID   uint8      `json:"condition_id" xml:"condition_id"`
	ExchangeID    uint8      `json:"exchange_id" xml:"exchange_id"`
	ExchangeSeqNo int64      `json:"exchange_seq_no" xml:"exchange_seq_no"`
	CancelFlag    CancelFlag `json:"cancel_flag" xml:"cancel_flag"`
	Timestamp     TimeOfDay  `json:"timestamp" xml:"timestamp"`
	SeqNo         int64      `json:"seq_no" xml:"seq_no"`
}

// Trade is a trade record of trades-and-quotes.
type Trade struct {
	Size               int64      `json:"size" xml:"size"`
	Price              Float      `json:"price" xml:"price"`
	Flag               CancelFlag `json:"flag" xml:"flag"`
	ExchSequenceNumber int64      `json:"exch_sequence_number" xml:"exch_sequence_number"`
	Time               TimeOfDay  `json:"time" xml:"time"`
	ExchangeID         uint8      `json:"exchange_id" xml:"exchange_id"`
	ConditionID        uint8      `json:"condition_id" xml:"condition_id"`
	SequenceNumber     int64      `json:"sequence_number" xml:"sequence_number"`
	NBBOBid            Float      `json:"nbbo_bid" xml:"nbbo_bid"`
	NBBOAsk            Float      `json:"nbbo_ask" xml:"nbbo_ask"`
	NBBOBidSize        Int        `json:"nbbo_bid_size" xml:"nbbo_bid_size"`
	NBBOAskSize        Int        `json:"nbbo_ask_size" xml:"nbbo_ask_size"`
}

// QuoteFlag is the NBBO bit mask of a quote record.
type QuoteFlag int

// The quote flag bits: the quote sets the best bid, the best ask, or both.
const (
	NBBOBestBid QuoteFlag = 1
	NBBOBestAsk QuoteFlag = 2
)

// Quote is a quote record of trades-and-quotes.
type Quote struct {
	BestAskExchange uint8     `json:"best_ask_exchange" xml:"best_ask_exchange"`
	BestBidExchange uint8     `json:"best_bid_exchange" xml:"best_bid_exchange"`
	BidSize         Int       `json:"bid_size" xml:"bid_size"`
	Bid             Float     `json:"bid" xml:"bid"`
	AskSize         Int       `json:"ask_size" xml:"ask_size"`
	Ask             Float     `json:"ask" xml:"ask"`
	Flag            QuoteFlag `json:"flag" xml:"flag"`
	Time            TimeOfDay `json:"time" xml:"time"`
	ExchangeID      uint8     `json:"exchange_id" xml:"exchange_id"`
	ConditionID     uint8     `json:"condition_id" xml:"condition_id"`
	SequenceNumber  int64     `json:"sequence_number" xml:"sequence_number"`
	NBBOBid         Float     `json:"nbbo_bid" xml:"nbbo_bid"`
	NBBOBidSize     Int       `json:"nbbo_bid_size" xml:"nbbo_bid_size"`
	NBBOAsk         Float     `json:"nbbo_ask" xml:"nbbo_ask"`
	NBBOAskSize     Int       `json:"nbbo_ask_size" xml:"nbbo_ask_size"`
}

// OptionQuote is a quote record for an option: a Quote plus the underlying's
// bid and ask at that moment.
type OptionQuote struct {
	Quote
	UnderlyingBid Float `json:"underlying_bid" xml:"underlying_bid"`
	UnderlyingAsk Float `json:"underlying_ask" xml:"underlying_ask"`
}

// RecordKind tells which record a TAQRecord holds.
type RecordKind uint8

// The three record kinds of trades-and-quotes.
const (
	KindTrade RecordKind = iota + 1
	KindQuote
	KindOptionQuote
)

func (k RecordKind) String() string {
	switch k {
	case KindTrade:
		return "trade"
	case KindQuote:
		return "quote"
	case KindOptionQuote:
		return "option_quote"
	}
	return "unknown"
}

// TAQRecord is one element of the trades-and-quotes array, a tagged union.
// The JSON array mixes the kinds with no tag; a record carries only its
// kind's fields, so the kind is read from which keys are present: price or
// size make a trade, underlying_bid or underlying_ask an option quote, the
// rest a quote. In XML the item element (trade, quote, option_quote) or its
// i:type says the kind.
type TAQRecord struct {
	Kind  RecordKind
	Trade Trade       // when Kind is KindTrade
	Quote OptionQuote // when Kind is KindQuote (underlying fields null) or KindOptionQuote
}

// SequenceNumber returns the record's sequence number, whatever its kind.
func (r TAQRecord) SequenceNumber() int64 {
	if r.Kind == KindTrade {
		return r.Trade.SequenceNumber
	}
	return r.Quote.SequenceNumber
}

// Time returns the record's time of day, whatever its kind.
func (r TAQRecord) Time() TimeOfDay {
	if r.Kind == KindTrade {
		return r.Trade.Time
	}
	return r.Quote.Time
}

// OptionTradeWithGreeks is an option trade with the greeks at trade time.
// Dollar greeks are the greeks scaled by position size in dollars:
// dollar_delta = delta x underlying price x 100 x size, and likewise for vega
// and theta (value of one vol point and of one day, for the traded size).
// XML: option_trades/trade_with_greeks.
type OptionTradeWithGreeks struct {
	IV          Float `json:"iv" xml:"iv"`
	Delta       Float `json:"delta" xml:"delta"`
	Vega        Float `json:"vega" xml:"vega"`
	Theta       Float `json:"theta" xml:"theta"`
	Rho         Float `json:"rho" xml:"rho"`
	Gamma       Float `json:"gamma" xml:"gamma"`
	DollarDelta Float `json:"dollar_delta" xml:"dollar_delta"`
	DollarVega  Float `json:"dollar_vega" xml:"dollar_vega"`
	DollarTheta Float `json:"dollar_theta" xml:"dollar_theta"`

	UnderlyingBid Float `json:"underlying_bid" xml:"underlying_bid"`
	UnderlyingAsk Float `json:"underlying_ask" xml:"underlying_ask"`

	Trade
}
