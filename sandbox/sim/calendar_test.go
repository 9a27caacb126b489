package sim

import (
	"testing"

	"chainwatch/api"
)

func TestCalendar(t *testing.T) {
	m, _ := noon(t)
	secs := m.optionable
	ev := m.Calendar(secs, api.EventsAll, 20260101, 20261231, 20261120)
	kinds := map[api.EventKind]int{}
	for i, e := range ev {
		kinds[e.Kind]++
		if e.Date() < 20260101 || e.Date() > 20261231 {
			t.Fatalf("event %d on %v outside the range", i, e.Date())
		}
		if i > 0 {
			p := ev[i-1]
			if p.Date() > e.Date() || p.Date() == e.Date() && p.Symbol() > e.Symbol() {
				t.Fatalf("event %d (%v %s) after (%v %s)", i, e.Date(), e.Symbol(), p.Date(), p.Symbol())
			}
		}
		if e.Kind == api.KindEarnings && e.Earnings.EPSActual.Valid != (e.Date() < 20261120) {
			t.Errorf("%s report %v: eps_actual %v", e.Symbol(), e.Date(), e.Earnings.EPSActual)
		}
	}
	if kinds[api.KindEarnings] == 0 || kinds[api.KindDividend] == 0 {
		t.Errorf("kinds %v", kinds)
	}
	div := m.Calendar(secs, api.EventsDividends, 20260101, 20261231, 20261120)
	if len(div) != kinds[api.KindDividend] {
		t.Errorf("%d dividends alone, %d among all", len(div), kinds[api.KindDividend])
	}
}
