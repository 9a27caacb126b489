package sim

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/sandbox/scan"
)

// noonMarket is one market at noon for both tests: the scanner rows
// with every part, drawn once (ScanQuotes caches them by tick), are most
// of each test's time.
var noonMarket = sync.OnceValues(func() (*Market, Moment) {
	m := at(2026, time.November, 20, 12, 0)
	mo, _ := m.Moment(api.Live, 20261120) // today on the market's clock: never an error
	return m, mo
})

func TestScanQuotes(t *testing.T) {
	m, mo := noonMarket()
	rows := m.ScanQuotes(mo, scan.AllParts)
	if len(rows) < 100 {
		t.Fatalf("%d scan rows, want one per optionable symbol", len(rows))
	}
	for _, q := range rows {
		if q.Price <= 0 || q.IV30 <= 0 || q.High52 < q.Low52 || q.IVRank < 0 || q.IVRank > 100 || q.HV30 <= 0 {
			t.Errorf("%s: %+v", q.Symbol, q)
		}
		if q.OptionVolume != q.CallVolume+q.PutVolume || q.OpenInterest <= 0 {
			t.Errorf("%s: volumes %d %d %d oi %d", q.Symbol, q.OptionVolume, q.CallVolume, q.PutVolume, q.OpenInterest)
		}
	}
	for _, q := range rows {
		if q.Symbol != "AAPL" {
			continue
		}
		ch, _ := m.Chain("AAPL", mo)
		var vol, oi int64
		for _, o := range ch.Options {
			vol += o.Volume.V
			oi += o.OpenInterest.V
		}
		if vol != q.OptionVolume || q.IV30 != ch.Underlying.IV30.V || *q.ImpliedMid != ch.Underlying.ImpliedUnderlyingMid.V {
			t.Errorf("AAPL scan row volume %d iv30 %v implied %v; chain %d %v %v", q.OptionVolume, q.IV30, *q.ImpliedMid,
				vol, ch.Underlying.IV30.V, ch.Underlying.ImpliedUnderlyingMid.V)
		}
		if oi > q.OpenInterest {
			t.Errorf("AAPL open interest: chain %d > scan %d", oi, q.OpenInterest)
		}
	}
}

// TestScanQuotesParts: a row computed with only the parts one field
// needs (scan.FieldParts) has that field's value of the full row, for
// every field of the catalogue; and the same symbols have rows whatever
// the parts. What a row holds depends on its parts, not on what the
// market has cached (the scan never fills under's per-tick state, the one
// it reads when present), so one market serves. A field that needs a part
// its entry does not name comes out zero or null here, and fails.
func TestScanQuotesParts(t *testing.T) {
	m, mo := noonMarket()
	full := m.ScanQuotes(mo, scan.AllParts)
	for _, f := range scan.Metadata().Fields {
		rows := m.ScanQuotes(mo, scan.FieldParts(f.Name))
		if len(rows) != len(full) {
			t.Fatalf("%s: %d rows, %d with every part", f.Name, len(rows), len(full))
		}
		for i := range rows {
			got, want := scan.FieldValue(f.Name, &rows[i]), scan.FieldValue(f.Name, &full[i])
			if rows[i].Symbol != full[i].Symbol || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s of %s with parts %b: %v, with every part %v", f.Name, full[i].Symbol, scan.FieldParts(f.Name), got, want)
			}
		}
	}
	if got := m.ScanQuotes(mo, 0); len(got) != len(full) || got[0].Price != full[0].Price || got[0].IV30 != 0 || got[0].OpenInterest != 0 {
		t.Fatalf("no part: %d rows, first %+v", len(got), got[0])
	}
}
