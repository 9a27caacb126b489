package sim

import (
	"testing"
)

func TestScanQuotes(t *testing.T) {
	m, mo := noon(t)
	rows := m.ScanQuotes(mo)
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
