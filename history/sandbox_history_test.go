package history_test

import (
	"math"
	"reflect"
	"testing"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/vol"
)

// The sandbox serves history that makes the figures mean something
// (issue 32, item 5), asked for as a client asks: past days over HTTP.
// AAPL reports quarterly; a half year of its sessions holds two reports.
func TestSandboxHistoryIsMeaningful(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches half a year of sessions")
	}
	r := newRig(t)
	days := history.SessionsBefore(r.client.Today(), 130)
	iv := make([]float64, len(days))
	closes := make([]float64, len(days))
	prevs := make([]float64, len(days))
	for i, d := range days {
		q, _, err := r.client.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"AAPL"}, Date: d.String()})
		if err != nil || len(q) != 1 {
			t.Fatalf("%s: %v", d, err)
		}
		iv[i], closes[i], prevs[i] = q[0].IV30.V, q[0].Close.V, q[0].PrevDayClose.V
	}
	// Closes agree from day to day, and with the chain's end-of-day
	// snapshot of the same day.
	for i := 1; i < len(days); i++ {
		if math.Abs(prevs[i]-closes[i-1]) > 0.005 {
			t.Errorf("%s: previous close %.2f, but %s closed at %.2f", days[i], prevs[i], days[i-1], closes[i-1])
		}
	}
	for _, i := range []int{0, len(days) / 2, len(days) - 1} {
		ch, _, err := r.client.OptionAndUnderlyingQuotes(ctx, api.OptionQuotesParams{Symbol: "AAPL", Date: days[i].String(), MinStrike: api.Ptr(1.0), MaxStrike: api.Ptr(2.0)})
		if err != nil || ch.Close.V != closes[i] || ch.IV30.V != iv[i] {
			t.Errorf("%s: the chain's close %v and IV30 %v, the quotes' %v and %v (%v)", days[i], ch.Close, ch.IV30, closes[i], iv[i], err)
		}
	}
	// IV30 rises into each report and falls after it.
	cal, _, err := r.client.Calendar(ctx, api.CalendarParams{Symbols: []string{"AAPL"}, EventType: api.EventsEarnings,
		StartDate: days[0].String(), EndDate: days[len(days)-1].String()})
	if err != nil {
		t.Fatal(err)
	}
	at := map[api.Date]int{}
	for i, d := range days {
		at[d] = i
	}
	reports := 0
	for _, e := range vol.PastReports(cal, r.client.Today(), 8) {
		before, after := vol.ReportSessions(e.ReportDate, e.TimeOfDay)
		i, ok1 := at[before]
		j, ok2 := at[after]
		if !ok1 || !ok2 || i < 20 || j+3 >= len(days) {
			continue
		}
		reports++
		into, month := iv[i], iv[i-10]
		out := (iv[j] + iv[j+1] + iv[j+2]) / 3
		if !(into > month) || !(out < into) {
			t.Errorf("report %s: IV30 %.2f two weeks before, %.2f the session before, %.2f after: want a rise into it and a fall after", e.ReportDate, month, into, out)
		}
	}
	if reports < 2 {
		t.Fatalf("%d reports in half a year of AAPL", reports)
	}
	// Mean-reverting: changes over 60 sessions are far smaller than 60
	// daily changes would make them if IV30 walked freely.
	if v1, v60 := changeVar(iv, 1), changeVar(iv, 60); !(v60 < 20*v1) {
		t.Errorf("variance of 60-session changes %.2f vs daily %.2f: IV30 does not revert to a mean", v60, v1)
	}
	// Deterministic: another sandbox serves the same bytes for a day.
	other := modeltest.StartSandbox(t, sandbox.Config{})
	a, _, err1 := other.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"AAPL"}, Date: days[7].String()})
	b, _, err2 := r.client.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"AAPL"}, Date: days[7].String()})
	if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("two sandboxes differ on %s: %v %v", days[7], err1, err2)
	}
}

func changeVar(x []float64, lag int) float64 {
	var s, ss float64
	n := 0
	for i := lag; i < len(x); i++ {
		d := x[i] - x[i-lag]
		s += d
		ss += d * d
		n++
	}
	m := s / float64(n)
	return ss/float64(n) - m*m
}
