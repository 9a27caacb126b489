package api

import "math"

// OptionType is C for a call or P for a put.
type OptionType string

// The two option types.
const (
	Call OptionType = "C"
	Put  OptionType = "P"
)

// Valid reports whether t is C or P.
func (t OptionType) Valid() bool { return t == Call || t == Put }

// Underlying holds the fields SymbolWithOptions and Symbol share: the
// underlying's quote, the implied underlying from the option book, and IV30.
//
// Fields marked subscription are null for live and delayed requests when the
// client lacks the consolidated-tape (or, for NASDAQ-listed mids, UTP)
// entitlement. The implied_underlying_* fields are null for historical dates.
// UnderlyingClose is null during market hours.
type Underlying struct {
	Symbol    string    `json:"symbol" xml:"symbol"`
	Timestamp TimeOfDay `json:"timestamp" xml:"timestamp"`

	ImpliedUnderlyingBid     Float `json:"implied_underlying_bid" xml:"implied_underlying_bid"`
	ImpliedUnderlyingAsk     Float `json:"implied_underlying_ask" xml:"implied_underlying_ask"`
	ImpliedUnderlyingBidSize Int   `json:"implied_underlying_bid_size" xml:"implied_underlying_bid_size"`
	ImpliedUnderlyingAskSize Int   `json:"implied_underlying_ask_size" xml:"implied_underlying_ask_size"`
	ImpliedUnderlyingMid     Float `json:"implied_underlying_mid" xml:"implied_underlying_mid"`

	Mid            Float `json:"underlying_mid" xml:"underlying_mid"`                           // subscription (UTP for NASDAQ-listed)
	LastTradePrice Float `json:"underlying_last_trade_price" xml:"underlying_last_trade_price"` // subscription; includes after hours
	LastTradeSize  Int   `json:"underlying_last_trade_size" xml:"underlying_last_trade_size"`   // subscription
	Bid            Float `json:"underlying_bid" xml:"underlying_bid"`                           // subscription
	Ask            Float `json:"underlying_ask" xml:"underlying_ask"`                           // subscription
	BidSize        Int   `json:"underlying_bid_size" xml:"underlying_bid_size"`                 // subscription
	AskSize        Int   `json:"underlying_ask_size" xml:"underlying_ask_size"`                 // subscription
	Open           Float `json:"underlying_open" xml:"underlying_open"`                         // subscription
	High           Float `json:"underlying_high" xml:"underlying_high"`                         // subscription
	Low            Float `json:"underlying_low" xml:"underlying_low"`                           // subscription
	Close          Float `json:"underlying_close" xml:"underlying_close"`                       // subscription; null in market hours
	PrevDayClose   Float `json:"underlying_prev_day_close" xml:"underlying_prev_day_close"`
	Volume         Int   `json:"underlying_volume" xml:"underlying_volume"`

	IV30              Float `json:"iv30" xml:"iv30"`                               // percentage points: 22.08 is 22.08 %
	IV30Change        Float `json:"iv30_change" xml:"iv30_change"`                 // percentage points
	IV30ChangePercent Float `json:"iv30_change_percent" xml:"iv30_change_percent"` // percent change of iv30

	SeqNo Int `json:"seq_no" xml:"seq_no"`
}

// Spot is the underlying's price: the last trade, else the mid of its
// quote, else the implied mid from the option book (the only one present
// without a consolidated-tape subscription); NaN when none is known.
func (u *Underlying) Spot() float64 {
	p, _ := u.SpotImplied()
	return p
}

// SpotImplied is Spot and whether it is the implied mid, which a screen
// marks: a price read from the option book, not a trade or a quote.
func (u *Underlying) SpotImplied() (price float64, implied bool) {
	switch {
	case u.LastTradePrice.Valid:
		return u.LastTradePrice.V, false
	case u.Mid.Valid:
		return u.Mid.V, false
	case u.Bid.Valid && u.Ask.Valid:
		return (u.Bid.V + u.Ask.V) / 2, false
	case u.ImpliedUnderlyingMid.Valid:
		return u.ImpliedUnderlyingMid.V, true
	}
	return math.NaN(), false
}

// SymbolWithOptions is the option-and-underlying-quotes snapshot: the
// underlying and its whole (or filtered) option chain. XML root: symbol.
type SymbolWithOptions struct {
	Underlying
	Options []OptionData `json:"options" xml:"options>option"`
}

// Symbol is one element of the underlying-quotes response. XML: symbols/symbol.
type Symbol struct {
	Underlying
	// ImpliedUnderlyingIndicator is green, yellow or red by the width of the
	// implied spread relative to the implied price; null for historical dates.
	ImpliedUnderlyingIndicator Null[Indicator] `json:"implied_underlying_indicator" xml:"implied_underlying_indicator"`
}

// Indicator grades the implied underlying's spread: green below 0.01 of the
// price, yellow from 0.01 to 0.02, red above.
type Indicator string

// The three indicator values.
const (
	Green  Indicator = "green"
	Yellow Indicator = "yellow"
	Red    Indicator = "red"
)

// OptionData is one contract of a chain snapshot. Identity fields (root,
// expiry, strike, type, OSI symbol) are never null; every price, size and
// greek may be. IV is a fraction (0.2208); greeks follow the conventions:
// delta and gamma per 1.00 of the underlying, vega per vol point, theta per
// calendar day, rho per percentage point of rate.
type OptionData struct {
	Root       string     `json:"root" xml:"root"`
	Expiry     Date       `json:"expiry" xml:"expiry"`
	Strike     float64    `json:"strike" xml:"strike"`
	OptionType OptionType `json:"option_type" xml:"option_type"`
	Timestamp  TimeOfDay  `json:"timestamp" xml:"timestamp"`
	Option     string     `json:"option" xml:"option"` // OSI symbol

	Mid            Float `json:"option_mid" xml:"option_mid"`
	Bid            Float `json:"option_bid" xml:"option_bid"`
	Ask            Float `json:"option_ask" xml:"option_ask"`
	BidSize        Int   `json:"option_bid_size" xml:"option_bid_size"`
	AskSize        Int   `json:"option_ask_size" xml:"option_ask_size"`
	TradeCount     Int   `json:"option_trade_count" xml:"option_trade_count"`
	Open           Float `json:"option_open" xml:"option_open"`
	High           Float `json:"option_high" xml:"option_high"`
	Low            Float `json:"option_low" xml:"option_low"`
	Close          Float `json:"option_close" xml:"option_close"`
	PrevDayClose   Float `json:"option_prev_day_close" xml:"option_prev_day_close"`
	LastTradePrice Float `json:"option_last_trade_price" xml:"option_last_trade_price"`
	IV             Float `json:"iv" xml:"iv"`
	OpenInterest   Int   `json:"open_interest" xml:"open_interest"`
	Volume         Int   `json:"option_volume" xml:"option_volume"`
	Delta          Float `json:"delta" xml:"delta"`
	Gamma          Float `json:"gamma" xml:"gamma"`
	Vega           Float `json:"vega" xml:"vega"`
	Theta          Float `json:"theta" xml:"theta"`
	Rho            Float `json:"rho" xml:"rho"`
}
