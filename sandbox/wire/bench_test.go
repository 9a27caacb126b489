package wire

import (
	"encoding/json"
	"testing"

	"chainwatch/api"
)

// chainContracts is an SPX-sized chain, as the speed target says.
const chainContracts = 20_000

func benchChain(b *testing.B, f api.Format, fullPrecision, reuse bool) {
	u, opts := testUnderlying(), testChain(chainContracts, fullPrecision)
	var buf []byte
	out := AppendChain(nil, f, u, opts)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	if reuse {
		buf = AppendChain(nil, f, u, opts)
	}
	for b.Loop() {
		if reuse {
			buf = AppendChain(buf[:0], f, u, opts)
		} else {
			buf = AppendChain(nil, f, u, opts)
		}
	}
	b.ReportMetric(float64(len(out))/float64(len(opts)), "B/contract")
}

// BenchmarkAppendChainJSON encodes a 20,000-contract chain into a fresh
// buffer, as a handler without a buffer pool does: the budget is well under
// 15 ms. Fresh memory costs page faults, which are dear in this VM.
func BenchmarkAppendChainJSON(b *testing.B) { benchChain(b, api.JSON, false, false) }

// BenchmarkAppendChainJSONReused encodes into a reused buffer: the encoding
// alone, without allocating and faulting in 11 MB.
func BenchmarkAppendChainJSONReused(b *testing.B) { benchChain(b, api.JSON, false, true) }

// BenchmarkAppendChainJSONFullPrecision is the worst case for numbers:
// greeks and IV at full float64 precision take strconv's slower path.
func BenchmarkAppendChainJSONFullPrecision(b *testing.B) { benchChain(b, api.JSON, true, false) }

func BenchmarkAppendChainXML(b *testing.B) { benchChain(b, api.XML, false, false) }

func BenchmarkAppendChainXMLReused(b *testing.B) { benchChain(b, api.XML, false, true) }

// BenchmarkStdlibChainJSON is encoding/json on the same chain, for scale.
func BenchmarkStdlibChainJSON(b *testing.B) {
	c := api.SymbolWithOptions{Underlying: *testUnderlying(), Options: testChain(chainContracts, false)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(&c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendOptionTradesJSON(b *testing.B) {
	t := make([]api.OptionTrade, 10_000)
	for i := range t {
		t[i] = testOptionTrades()[i%2]
	}
	b.ReportAllocs()
	for b.Loop() {
		AppendOptionTrades(nil, api.JSON, t)
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	vals := []float64{12.35, 0.4087, -1.6593, 0.000013, 6010.7, 51234567, 0.1236}
	var buf []byte
	for b.Loop() {
		for _, v := range vals {
			buf = appendFloat(buf[:0], v)
		}
	}
}
