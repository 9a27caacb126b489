package wire

import (
	"runtime"
	"slices"
	"sync"

	"chainwatch/api"
)

// Names shared by several types.
var (
	kSymbol        = k("symbol")
	kTimestamp     = k("timestamp")
	kRoot          = k("root")
	kExpiry        = k("expiry")
	kStrike        = k("strike")
	kOptionType    = k("option_type")
	kUnderlyingBid = k("underlying_bid")
	kUnderlyingAsk = k("underlying_ask")
	kIV            = k("iv")
	kDelta         = k("delta")
	kGamma         = k("gamma")
	kVega          = k("vega")
	kTheta         = k("theta")
	kRho           = k("rho")
	kSeqNo         = k("seq_no")
	kCompanyName   = k("company_name")
	kDescription   = k("description")
	kName          = k("name")
	kCode          = k("code")
	kID            = k("id")
)

// api.Underlying, in struct order (the client's decoder expects the next
// field first, so the struct's order is also the fastest to read).
var (
	kImpliedBid     = k("implied_underlying_bid")
	kImpliedAsk     = k("implied_underlying_ask")
	kImpliedBidSize = k("implied_underlying_bid_size")
	kImpliedAskSize = k("implied_underlying_ask_size")
	kImpliedMid     = k("implied_underlying_mid")
	kUMid           = k("underlying_mid")
	kULastPrice     = k("underlying_last_trade_price")
	kULastSize      = k("underlying_last_trade_size")
	kUBidSize       = k("underlying_bid_size")
	kUAskSize       = k("underlying_ask_size")
	kUOpen          = k("underlying_open")
	kUHigh          = k("underlying_high")
	kULow           = k("underlying_low")
	kUClose         = k("underlying_close")
	kUPrevClose     = k("underlying_prev_day_close")
	kUVolume        = k("underlying_volume")
	kIV30           = k("iv30")
	kIV30Change     = k("iv30_change")
	kIV30ChangePct  = k("iv30_change_percent")
	kIndicator      = k("implied_underlying_indicator")
	kOptions        = k("options")
)

// api.OptionData, in struct order.
var (
	kOption       = k("option")
	kOMid         = k("option_mid")
	kOBid         = k("option_bid")
	kOAsk         = k("option_ask")
	kOBidSize     = k("option_bid_size")
	kOAskSize     = k("option_ask_size")
	kOTradeCount  = k("option_trade_count")
	kOOpen        = k("option_open")
	kOHigh        = k("option_high")
	kOLow         = k("option_low")
	kOClose       = k("option_close")
	kOPrevClose   = k("option_prev_day_close")
	kOLastPrice   = k("option_last_trade_price")
	kOpenInterest = k("open_interest")
	kOVolume      = k("option_volume")
)

// sampleContracts are encoded first, on their own, to measure what a
// contract of this chain takes: then the buffer is reserved once, at about
// its final size, and each encoder of a parallel chunk gets a region of it
// that its chunk fits in. (What a contract takes depends on the format and
// the precision of its greeks, so it is measured here, not assumed.)
const sampleContracts = 64

// parallelChunk is the fewest contracts worth a goroutine of their own:
// below it, starting one costs more than it saves.
const parallelChunk = 4096

// AppendChain appends the option-and-underlying-quotes response: the
// underlying's fields, then options, an array of contracts (XML: root symbol,
// options/option). It is written by hand, without reflection, because an SPX
// chain is 20,000 contracts, encoded at every tick (BenchmarkAppendChainJSON
// against BenchmarkStdlibChainJSON; docs/performance.md has the figures).
// A chain of several parallelChunks is encoded on up to GOMAXPROCS cores;
// the bytes are the same as a serial encoding's.
//
// Pass a reused buffer when you can: fresh memory for a whole chain, and the
// collections that allocating it brings, cost as much as the encoding.
func AppendChain(b []byte, f api.Format, u *api.Underlying, options []api.OptionData) []byte {
	n := min(len(options), sampleContracts)
	e := newEnc(slices.Grow(b, 4096+n*1024), f)
	e.beginDoc("symbol", false, false)
	if u != nil {
		e.underlying(u)
	}
	e.beginList(&kOptions)
	at := len(e.b)
	e.b = encodeOptions(e.b, f, options[:n])
	if rest := options[n:]; len(rest) > 0 {
		per := (len(e.b) - at) / n
		per += per/8 + 16 // room for contracts with longer numbers than the sample's
		e.b = appendOptions(e.b, f, rest, per)
	}
	e.endList(&kOptions)
	return e.endDoc("symbol", false)
}

// appendOptions appends the contracts, reserving per bytes a contract, on w
// goroutines when there are enough of them. Chunk i is encoded into its own
// region of b, i chunks of per bytes a contract after the start; then each
// region is moved down to follow the one before (memmove copes with the
// overlap, and a region only ever moves down, onto bytes already moved). A
// chunk that outgrew its region (contracts much longer than the sample) was
// moved by append to an array of its own, and would overwrite its neighbour
// if moved back: then the chunks are joined in a new buffer instead.
func appendOptions(b []byte, f api.Format, options []api.OptionData, per int) []byte {
	b = slices.Grow(b, len(options)*per+64) // 64: the closing brackets or tags
	w := min(runtime.GOMAXPROCS(0), len(options)/parallelChunk)
	if w <= 1 {
		return encodeOptions(b, f, options)
	}
	return appendParallel(b, f, options, per, w)
}

// appendParallel is appendOptions on w goroutines (apart, so that the
// serial path does not pay for the closures' heap-allocated state).
func appendParallel(b []byte, f api.Format, options []api.OptionData, per, w int) []byte {
	start := len(b)
	region := func(lo, hi int) []byte { return b[start+lo*per : start+lo*per : start+hi*per] }
	parts := encodeChunks(f, options, w, region)
	for i, p := range parts {
		if lo, hi := chunkOf(len(options), w, i); len(p) > (hi-lo)*per {
			out := slices.Clip(b[:start]) // append copies it to a new array
			for _, p := range parts {
				out = append(out, p...)
			}
			return out
		}
	}
	b = b[:start+len(parts[0])]
	for _, p := range parts[1:] {
		b = append(b, p...)
	}
	return b
}

// encodeChunks encodes options in w chunks (chunkOf) on w goroutines, the
// caller's among them, chunk i appended to into(lo, hi) for its contracts
// lo to hi-1.
func encodeChunks(f api.Format, options []api.OptionData, w int, into func(lo, hi int) []byte) [][]byte {
	parts := make([][]byte, w)
	encode := func(i int) {
		lo, hi := chunkOf(len(options), w, i)
		parts[i] = encodeOptions(into(lo, hi), f, options[lo:hi])
	}
	var wg sync.WaitGroup
	for i := 1; i < w; i++ {
		wg.Go(func() { encode(i) })
	}
	encode(0)
	wg.Wait()
	return parts
}

// chunkOf is the span of chunk i of n contracts cut in w.
func chunkOf(n, w, i int) (lo, hi int) {
	chunk := (n + w - 1) / w
	return min(i*chunk, n), min((i+1)*chunk, n)
}

// encodeOptions appends the contracts one after the other.
func encodeOptions(b []byte, f api.Format, options []api.OptionData) []byte {
	e := newEnc(b, f)
	for i := range options {
		e.beginItem(&kOption)
		e.optionData(&options[i])
		e.endItem(&kOption)
	}
	return e.b
}

// AppendSymbols appends the underlying-quotes response: an array of Symbol
// (XML: symbols/symbol).
func AppendSymbols(b []byte, f api.Format, s []api.Symbol) []byte {
	e := newEnc(b, f)
	e.beginDoc("symbols", true, false)
	for i := range s {
		e.beginItem(&kSymbol)
		e.underlying(&s[i].Underlying)
		if v, ok := s[i].ImpliedUnderlyingIndicator.Get(); ok {
			e.str(&kIndicator, string(v))
		} else {
			e.null(&kIndicator)
		}
		e.endItem(&kSymbol)
	}
	return e.endDoc("symbols", true)
}

func (e *enc) underlying(u *api.Underlying) {
	e.str(&kSymbol, u.Symbol)
	e.time(&kTimestamp, u.Timestamp)
	e.nfloat(&kImpliedBid, u.ImpliedUnderlyingBid)
	e.nfloat(&kImpliedAsk, u.ImpliedUnderlyingAsk)
	e.nint(&kImpliedBidSize, u.ImpliedUnderlyingBidSize)
	e.nint(&kImpliedAskSize, u.ImpliedUnderlyingAskSize)
	e.nfloat(&kImpliedMid, u.ImpliedUnderlyingMid)
	e.nfloat(&kUMid, u.Mid)
	e.nfloat(&kULastPrice, u.LastTradePrice)
	e.nint(&kULastSize, u.LastTradeSize)
	e.nfloat(&kUnderlyingBid, u.Bid)
	e.nfloat(&kUnderlyingAsk, u.Ask)
	e.nint(&kUBidSize, u.BidSize)
	e.nint(&kUAskSize, u.AskSize)
	e.nfloat(&kUOpen, u.Open)
	e.nfloat(&kUHigh, u.High)
	e.nfloat(&kULow, u.Low)
	e.nfloat(&kUClose, u.Close)
	e.nfloat(&kUPrevClose, u.PrevDayClose)
	e.nint(&kUVolume, u.Volume)
	e.nfloat(&kIV30, u.IV30)
	e.nfloat(&kIV30Change, u.IV30Change)
	e.nfloat(&kIV30ChangePct, u.IV30ChangePercent)
	e.nint(&kSeqNo, u.SeqNo)
}

func (e *enc) optionData(o *api.OptionData) {
	e.str(&kRoot, o.Root)
	e.date(&kExpiry, o.Expiry)
	e.float(&kStrike, o.Strike)
	e.str(&kOptionType, string(o.OptionType))
	e.time(&kTimestamp, o.Timestamp)
	e.str(&kOption, o.Option)
	e.nfloat(&kOMid, o.Mid)
	e.nfloat(&kOBid, o.Bid)
	e.nfloat(&kOAsk, o.Ask)
	e.nint(&kOBidSize, o.BidSize)
	e.nint(&kOAskSize, o.AskSize)
	e.nint(&kOTradeCount, o.TradeCount)
	e.nfloat(&kOOpen, o.Open)
	e.nfloat(&kOHigh, o.High)
	e.nfloat(&kOLow, o.Low)
	e.nfloat(&kOClose, o.Close)
	e.nfloat(&kOPrevClose, o.PrevDayClose)
	e.nfloat(&kOLastPrice, o.LastTradePrice)
	e.nfloat(&kIV, o.IV)
	e.nint(&kOpenInterest, o.OpenInterest)
	e.nint(&kOVolume, o.Volume)
	e.nfloat(&kDelta, o.Delta)
	e.nfloat(&kGamma, o.Gamma)
	e.nfloat(&kVega, o.Vega)
	e.nfloat(&kTheta, o.Theta)
	e.nfloat(&kRho, o.Rho)
}

// The response of AppendChain in three parts, for a server that answers
// many requests for the same chain: the contracts, nearly all of an SPX
// answer, are encoded once (EncodeContracts) and written as they
// are after each request's own head (AppendChainHead, the underlying's
// fields, stamped per request), followed by ChainTail. The three parts
// are byte for byte AppendChain's answer.

// AppendChainHead appends the document's start, the underlying's fields
// and the start of the options list.
func AppendChainHead(b []byte, f api.Format, u *api.Underlying) []byte {
	e := newEnc(b, f)
	e.beginDoc("symbol", false, false)
	if u != nil {
		e.underlying(u)
	}
	e.beginList(&kOptions)
	return e.b
}

// EncodeContracts encodes the options list's contracts, without the
// separator AppendChain would trim after the last one, in parts to be
// written one after the other. A chain of several parallelChunks is
// encoded on up to GOMAXPROCS cores, each into memory of its own, and
// the parts are not joined: a whole chain's encoding is fresh memory,
// whose first touch is much of the work, and so each core touches its
// own part, and none is copied again.
func EncodeContracts(f api.Format, options []api.OptionData) [][]byte {
	n := min(len(options), sampleContracts)
	parts := [][]byte{encodeOptions(nil, f, options[:n])}
	if rest := options[n:]; len(rest) > 0 {
		per := len(parts[0]) / n
		per += per/8 + 16
		w := max(min(runtime.GOMAXPROCS(0), len(rest)/parallelChunk), 1)
		parts = append(parts, encodeChunks(f, rest, w, func(lo, hi int) []byte {
			return make([]byte, 0, (hi-lo)*per)
		})...)
	}
	last := &parts[len(parts)-1]
	e := newEnc(*last, f)
	e.trim()
	*last = e.b
	return parts
}

// ChainTail is what follows the contracts: the list's and the document's
// ends.
func ChainTail(f api.Format) []byte {
	e := newEnc(nil, f)
	e.endList(&kOptions)
	return e.endDoc("symbol", false)
}
