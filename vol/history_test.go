package vol

import (
	"math"
	"testing"

	"chainwatch/api"
)

// The figures against values worked out by hand (the arithmetic written
// out beside each), not by the code under test.
func TestIVRankAndPercentileByHand(t *testing.T) {
	past := []float64{20, 30, 25, 40, 10} // low 10, high 40
	// rank of 25: (25-10)/(40-10) = 0.5
	near(t, "rank 25", IVRank(25, past), 50)
	// a new high is 100, a new low 0
	near(t, "rank 45", IVRank(45, past), 100)
	near(t, "rank 5", IVRank(5, past), 0)
	// percentile of 25: below it 20 and 10, 2 of 5
	near(t, "percentile 25", IVPercentile(25, past), 40)
	// equal values are not below: 30 has 20, 25, 10 below it
	near(t, "percentile 30", IVPercentile(30, past), 60)
	if v := IVRank(20, []float64{20, 20}); !math.IsNaN(v) {
		t.Errorf("rank of a flat year = %v, want NaN", v)
	}
}

func TestHVByHand(t *testing.T) {
	// ln(101/100)=0.00995033, ln(99/101)=-0.02000067, ln(102/99)=0.02985296;
	// mean 0.00660087; squared deviations sum 0.00125952; /2 x 252 =
	// 0.1587; sqrt = 0.39837.
	near(t, "HV3", HV([]float64{100, 101, 99, 102}, 3), 0.39837115903962245)
	// Only the last n+1 closes count: a different first close changes nothing.
	near(t, "HV3 of the last four", HV([]float64{5, 100, 101, 99, 102}, 3), 0.39837115903962245)
	if v := HV([]float64{100, 101}, 3); !math.IsNaN(v) {
		t.Errorf("HV3 of two closes = %v, want NaN", v)
	}
}

func TestPastFiguresByHand(t *testing.T) {
	past := make([]float64, 300) // only the last 251 count
	for i := range past {
		past[i] = 20
	}
	past[0] = 90   // too old: outside the 252 sessions
	past[100] = 10 // in the window: the low
	past[299] = 30 // the high
	// closes 100,101,102 repeating: ten returns of +1/100, +1/101, -2/102 ...
	closes := []float64{100, 101, 102, 100, 101, 102, 100, 101, 102, 100, 101}
	p := PastFigures(25, past, closes)
	near(t, "rank", p.IVRank, 75) // (25-10)/(30-10)
	// below 25: 249 of 251 values are 20, one is 10, one is 30 -> 250/251
	near(t, "percentile", p.IVPercentile, 100*250.0/251)
	near(t, "HV10", p.HV10, 0.22782796710912417)
	if !math.IsNaN(p.HV20) || !math.IsNaN(p.HV30) || !math.IsNaN(p.IVHV) {
		t.Errorf("HV20 %v, HV30 %v, IV/HV %v from 11 closes: want NaN", p.HV20, p.HV30, p.IVHV)
	}
	if p.Sessions != 251 {
		t.Errorf("sessions = %d, want 251", p.Sessions)
	}
	short := PastFigures(25, past[:MinSessions-1], closes)
	if !math.IsNaN(short.IVRank) || !math.IsNaN(short.IVPercentile) {
		t.Errorf("rank %v, percentile %v from %d sessions: want NaN", short.IVRank, short.IVPercentile, MinSessions-1)
	}
}

func TestEarningsMovesByHand(t *testing.T) {
	// Thu 2026-10-29 AMC trades on Fri 10-30: 200 -> 210 is +5 %.
	// Tue 2026-07-28 BMO trades that day: Mon 07-27 100 -> 96 is -4 %.
	ev := []api.CalendarEvent{
		{Kind: api.KindEarnings, Earnings: api.EarningsEvent{ReportDate: api.NewDate(2026, 10, 29), TimeOfDay: api.AfterClose}},
		{Kind: api.KindEarnings, Earnings: api.EarningsEvent{ReportDate: api.NewDate(2026, 7, 28), TimeOfDay: api.BeforeOpen}},
		{Kind: api.KindEarnings, Earnings: api.EarningsEvent{ReportDate: api.NewDate(2027, 1, 28), TimeOfDay: api.AfterClose}},
	}
	reports := PastReports(ev, api.NewDate(2026, 11, 25), 8)
	if len(reports) != 2 || reports[0].ReportDate != api.NewDate(2026, 10, 29) {
		t.Fatalf("past reports = %+v, want Oct 29 then Jul 28", reports)
	}
	closes := map[api.Date]float64{
		api.NewDate(2026, 10, 29): 200, api.NewDate(2026, 10, 30): 210,
		api.NewDate(2026, 7, 27): 100, api.NewDate(2026, 7, 28): 96,
	}
	moves := RealizedMoves(reports, closes)
	if len(moves) != 2 {
		t.Fatalf("moves = %+v", moves)
	}
	near(t, "AMC move", moves[0].MovePct, 0.05)
	near(t, "BMO move", moves[1].MovePct, -0.04)
	near(t, "mean abs", MeanAbsMove(moves), 0.045)
	// The next report (Jan 28 AMC, trades Jan 29) is priced by the first
	// expiry on or after Jan 29: the Jan 29 one, straddle 6 on spot 200.
	figs := []Figures{{Date: api.NewDate(2027, 1, 22), Move: 4}, {Date: api.NewDate(2027, 1, 29), Move: 6}, {Date: api.NewDate(2027, 2, 19), Move: 9}}
	im, ok := ImpliedMove(ev[2].Earnings, figs, 200)
	if !ok || im.Expiry != api.NewDate(2027, 1, 29) {
		t.Fatalf("implied move = %+v, %v", im, ok)
	}
	near(t, "implied", im.MovePct, 0.03)
}
