package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
)

// genChain builds a deterministic chain of about n contracts shaped like
// SPX: two roots, ~40 expiries, a 5-point strike grid, 5 % null prices.
func genChain(n int, seed uint64) *SymbolWithOptions {
	rng := rand.New(rand.NewPCG(seed, 7))
	maybe := func(v float64) Float {
		if rng.Float64() < 0.05 {
			return Float{}
		}
		return Some(v)
	}
	maybeI := func(v int64) Int {
		if rng.Float64() < 0.05 {
			return Int{}
		}
		return Some(v)
	}
	round := func(v float64, places int) float64 {
		p := pow10[places]
		return float64(int64(v*p+0.5)) / p
	}
	u := Underlying{Symbol: "SPX", Timestamp: NewTimeOfDay(15, 59, 59, 999),
		ImpliedUnderlyingBid: Some(5921.1), ImpliedUnderlyingAsk: Some(5921.9), ImpliedUnderlyingMid: Some(5921.5),
		ImpliedUnderlyingBidSize: Some[int64](12), ImpliedUnderlyingAskSize: Some[int64](9),
		Mid: Some(5921.4), LastTradePrice: Some(5921.37), Bid: Some(5921.2), Ask: Some(5921.6),
		PrevDayClose: Some(5890.12), Volume: Some[int64](1234567), IV30: Some(14.82), IV30Change: Some(-0.31),
		IV30ChangePercent: Some(-2.05), SeqNo: Some[int64](991234)}
	out := &SymbolWithOptions{Underlying: u}
	exp := NewDate(2026, 11, 23)
	for len(out.Options) < n {
		for k := 0; k < 250 && len(out.Options) < n; k++ {
			strike := 5300 + 5*float64(k)
			for _, typ := range []OptionType{Call, Put} {
				root := "SPXW"
				if exp.Day() >= 15 && exp.Day() <= 21 && exp.Weekday() == 5 {
					root = "SPX"
				}
				osi, _ := FormatOSI(root, exp, typ, strike)
				bid := round(rng.Float64()*80, 2)
				out.Options = append(out.Options, OptionData{
					Root: root, Expiry: exp, Strike: strike, OptionType: typ,
					Timestamp: NewTimeOfDay(15, 59, rng.IntN(60), rng.IntN(1000)), Option: osi,
					Mid: maybe(round(bid+0.25, 3)), Bid: maybe(bid), Ask: maybe(round(bid+0.5, 2)),
					BidSize: maybeI(rng.Int64N(500)), AskSize: maybeI(rng.Int64N(500)), TradeCount: maybeI(rng.Int64N(5000)),
					Open: maybe(round(bid*0.9, 2)), High: maybe(round(bid*1.2, 2)), Low: maybe(round(bid*0.8, 2)),
					Close: Float{}, PrevDayClose: maybe(round(bid*1.05, 2)), LastTradePrice: maybe(round(bid+0.2, 2)),
					IV: maybe(round(0.1+rng.Float64()*0.3, 5)), OpenInterest: maybeI(rng.Int64N(90000)),
					Volume: maybeI(rng.Int64N(20000)), Delta: maybe(round(rng.Float64(), 5)),
					Gamma: maybe(round(rng.Float64()/100, 6)), Vega: maybe(round(rng.Float64()*10, 4)),
					Theta: maybe(round(-rng.Float64()*5, 4)), Rho: maybe(round(rng.Float64()*3, 4)),
				})
			}
		}
		exp = exp.AddDays(1 + rng.IntN(6))
	}
	return out
}

func genChainJSON(tb testing.TB, n int) []byte {
	b, err := json.Marshal(genChain(n, 1))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestDecodeChainMatchesEncodingJSON holds the fast decoder to the standard
// library's reading of the same payload, nulls included.
func TestDecodeChainMatchesEncodingJSON(t *testing.T) {
	b := genChainJSON(t, 2000)
	got, err := decodeChain(b, JSON)
	if err != nil {
		t.Fatal(err)
	}
	var want SymbolWithOptions
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(got.Options) != 2000 {
		t.Fatalf("got %d contracts", len(got.Options))
	}
	if !reflect.DeepEqual(*got, want) {
		for i := range want.Options {
			if !reflect.DeepEqual(got.Options[i], want.Options[i]) {
				t.Fatalf("contract %d differs:\n got %+v\nwant %+v", i, got.Options[i], want.Options[i])
			}
		}
		t.Fatalf("underlying differs:\n got %+v\nwant %+v", got.Underlying, want.Underlying)
	}
	nulls := 0
	for _, o := range got.Options {
		if !o.Bid.Valid {
			nulls++
		}
	}
	if nulls == 0 {
		t.Fatal("payload has no null bids; the null path is untested")
	}
}

// BenchmarkDecodeChain decodes an SPX-sized chain (20,000 contracts) with
// the client's decoder and, beside it, with encoding/json into the same
// types. Target: at least 5x faster, at most 2 allocations per contract.
func BenchmarkDecodeChain(b *testing.B) {
	payload := genChainJSON(b, 20000)
	b.Run("chainwatch", func(b *testing.B) {
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for b.Loop() {
			c, err := decodeChain(payload, JSON)
			if err != nil || len(c.Options) != 20000 {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(testing.AllocsPerRun(1, func() { decodeChain(payload, JSON) }))/20000, "allocs/contract")
	})
	b.Run("encoding_json_pointer_nulls", func(b *testing.B) {
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for b.Loop() {
			var c ptrChain
			if err := json.Unmarshal(payload, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json_value_nulls", func(b *testing.B) {
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for b.Loop() {
			var c SymbolWithOptions
			if err := json.Unmarshal(payload, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func ExampleNull() {
	var bid Float
	fmt.Println(bid.Valid, bid.Or(-1))
	// Output: false -1
}

// ptrChain is the chain with pointer nulls and string dates, the shape in
// which encoding/json is fastest: the fair baseline for the 5x target.
type ptrChain struct {
	Options []struct {
		Root           string   `json:"root"`
		Expiry         string   `json:"expiry"`
		Strike         float64  `json:"strike"`
		OptionType     string   `json:"option_type"`
		Timestamp      string   `json:"timestamp"`
		Option         string   `json:"option"`
		Mid            *float64 `json:"option_mid"`
		Bid            *float64 `json:"option_bid"`
		Ask            *float64 `json:"option_ask"`
		BidSize        *int64   `json:"option_bid_size"`
		AskSize        *int64   `json:"option_ask_size"`
		TradeCount     *int64   `json:"option_trade_count"`
		Open           *float64 `json:"option_open"`
		High           *float64 `json:"option_high"`
		Low            *float64 `json:"option_low"`
		Close          *float64 `json:"option_close"`
		PrevDayClose   *float64 `json:"option_prev_day_close"`
		LastTradePrice *float64 `json:"option_last_trade_price"`
		IV             *float64 `json:"iv"`
		OpenInterest   *int64   `json:"open_interest"`
		Volume         *int64   `json:"option_volume"`
		Delta          *float64 `json:"delta"`
		Gamma          *float64 `json:"gamma"`
		Vega           *float64 `json:"vega"`
		Theta          *float64 `json:"theta"`
		Rho            *float64 `json:"rho"`
	} `json:"options"`
	Symbol string   `json:"symbol"`
	IV30   *float64 `json:"iv30"`
}

// BenchmarkOptionAndUnderlyingQuotesLoopback is the whole path the TUI takes
// for an SPX chain: request over loopback HTTP, read, decode.
func BenchmarkOptionAndUnderlyingQuotesLoopback(b *testing.B) {
	payload := genChainJSON(b, 20000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(payload)))
		_, _ = w.Write(payload)
	}))
	defer srv.Close()
	c, err := NewClient(WithBaseURL(srv.URL))
	if err != nil {
		b.Fatal(err)
	}
	p := OptionQuotesParams{Symbol: "SPX", Date: c.Today().String()}
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		chain, _, err := c.OptionAndUnderlyingQuotes(context.Background(), p)
		if err != nil || len(chain.Options) != 20000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeOptionTrades decodes a full page of 10,000 option trades.
func BenchmarkDecodeOptionTrades(b *testing.B) {
	trades := make([]OptionTrade, 10000)
	for i := range trades {
		trades[i] = OptionTrade{Security: Some("SPXW261218C05925000"), Root: "SPXW", Expiry: NewDate(2026, 12, 18),
			Strike: 5925, OptionType: Call, Ask: Some(12.6), AskSize: Some[int64](52), Bid: Some(12.1), BidSize: Some[int64](37),
			Price: Some(12.4), Size: int64(1 + i%50), TradeAt: MidMarket, UnderlyingBid: Some(5921.2), UnderlyingAsk: Some(5921.6),
			ConditionID: 18, ExchangeID: uint8(i % 17), ExchangeSeqNo: int64(i * 3), Timestamp: NewTimeOfDay(10, 0, i%60, i%1000), SeqNo: int64(1000 + i)}
	}
	payload, err := json.Marshal(trades)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		got, err := decodeOptionTrades(payload, JSON)
		if err != nil || len(got) != len(trades) {
			b.Fatal(err)
		}
	}
}
