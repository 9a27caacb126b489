package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// The decoders below read a whole response body (the performance notes found
// streaming decoders slower than reading then decoding). The chain, the
// underlying quotes and the three trade arrays go through the table-driven
// scanner in JSON; everything else, and all XML, through the standard
// library into the same types.

// The least a realistic record takes in JSON, keys included; see objectsHint.
const (
	minContractBytes = 256
	minRecordBytes   = 128
)

// objectsHint estimates how many objects b holds, to size a slice once
// instead of growing it (and copying it) a dozen times. Counting '{' is a
// vectorised byte count, about a millisecond for an SPX chain. Braces inside
// strings would over-count, so the estimate is capped by the bytes a real
// record takes: hostile input cannot make the decoder reserve much more than
// its own size, and a body of smaller records just grows the slice as usual.
func objectsHint(b []byte, minBytes int) int {
	return min(bytes.Count(b, []byte{'{'}), len(b)/minBytes)
}

// decodeChain reads an option-and-underlying-quotes body.
func decodeChain(b []byte, f Format) (*SymbolWithOptions, error) {
	out := &SymbolWithOptions{}
	if f == XML {
		return out, xmlUnmarshal(b, out)
	}
	s := newScanner(b)
	if s.null() { // as encoding/json: null leaves the value empty
		return out, s.finish()
	}
	// Each contract is one object, and so is the chain around them.
	hint := objectsHint(b, minContractBytes) - 1
	od := descOf[OptionData]()
	s.object(unsafe.Pointer(out), descOf[SymbolWithOptions](), func(key []byte) bool {
		if !strings.EqualFold(string(key), "options") {
			return false
		}
		out.Options = array[OptionData](s, od, hint, nil)
		return true
	})
	return out, s.finish()
}

// decodeSymbols reads an underlying-quotes body.
func decodeSymbols(b []byte, f Format) ([]Symbol, error) {
	return decodeList[Symbol](b, f)
}

// decodeOptionTrades reads an option-trades body.
func decodeOptionTrades(b []byte, f Format) ([]OptionTrade, error) {
	return decodeList[OptionTrade](b, f)
}

// decodeTradesWithGreeks reads an option-trades-with-greeks body.
func decodeTradesWithGreeks(b []byte, f Format) ([]OptionTradeWithGreeks, error) {
	return decodeList[OptionTradeWithGreeks](b, f)
}

// decodeList reads an array of T with the table-driven scanner, or an XML list.
func decodeList[T any](b []byte, f Format) ([]T, error) {
	if f == XML {
		return xmlList[T](b)
	}
	s := newScanner(b)
	out := array[T](s, descOf[T](), objectsHint(b, minRecordBytes), nil)
	return out, s.finish()
}

// taqTable is the union table of trades-and-quotes: every key of Trade and
// of OptionQuote, the shared ones written to both, plus the masks of the
// keys that tell a trade and an option quote.
var taqTable = sync.OnceValues(func() (*structDesc, [2]uint64) {
	d := &structDesc{byName: map[string]int{}, merge: true}
	var r TAQRecord
	d.add(reflect.TypeFor[Trade](), unsafe.Offsetof(r.Trade))
	d.add(reflect.TypeFor[OptionQuote](), unsafe.Offsetof(r.Quote))
	d.index()
	return d, [2]uint64{d.mask("price", "size"), d.mask("underlying_bid", "underlying_ask")}
})

// decodeTAQ reads a trades-and-quotes body, telling each record's kind.
func decodeTAQ(b []byte, f Format) ([]TAQRecord, error) {
	if f == XML {
		return xmlTAQ(b)
	}
	d, masks := taqTable()
	s := newScanner(b)
	out := array[TAQRecord](s, d, objectsHint(b, minRecordBytes), func(r *TAQRecord, seen uint64) {
		switch {
		case seen&masks[0] != 0:
			r.Kind, r.Quote = KindTrade, OptionQuote{}
		case seen&masks[1] != 0:
			r.Kind, r.Trade = KindOptionQuote, Trade{}
		default:
			r.Kind, r.Trade = KindQuote, Trade{}
		}
	})
	// A null element has no kind; it carries nothing, so it is dropped.
	return slices.DeleteFunc(out, func(r TAQRecord) bool { return r.Kind == 0 }), s.finish()
}

func newScanner(b []byte) *jsonScanner { return &jsonScanner{b: b, strs: newStrPool()} }

// finish checks the end of input and returns the first error.
func (s *jsonScanner) finish() error {
	if s.err == nil {
		s.end()
	}
	return s.err
}

// jsonUnmarshal decodes the small responses with the standard library.
func jsonUnmarshal(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	return nil
}

func xmlUnmarshal(b []byte, v any) error {
	if err := xml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("xml: %w", err)
	}
	return nil
}

// decodeJSONOrXML decodes a small response in either format with the
// standard library.
func decodeJSONOrXML(b []byte, f Format, v any) error {
	if f == XML {
		return xmlUnmarshal(b, v)
	}
	return jsonUnmarshal(b, v)
}
