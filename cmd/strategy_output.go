package cmd

import (
	"chainwatch/pricing"
	"math"
	"strconv"
	"time"

	"chainwatch/strategy"
)

// strategyKeys are a row's keys: a leg's, or the net row's ("leg":
// "net"), which carries the strategy's figures.
var strategyKeys = []string{
	"leg", "option", "quantity", "bid", "ask", "mid", "iv", "delta", "gamma", "theta", "vega",
	"net_mid", "net_natural", "position_delta", "position_gamma", "position_theta", "position_vega",
	"dollar_delta", "dollar_gamma", "max_profit", "max_loss", "breakevens", "probability_of_profit",
	"pop_drift", "pop_basis", "rate", "dividend_yield", "carry_from",
}

// finite is v for the exporter, nil when it has no value (and, for max
// profit and loss, when unbounded: the net row says so in words too).
func finite(v float64, decimals int) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return round(v, decimals)
}

// strategyExport is the legs, then the net row with the figures; the
// table as the strategy page lays them out.
func strategyExport(st *strategy.Strategy, m *strategy.Market, f *strategy.Figures) Export {
	e := Export{Keys: strategyKeys}
	t := Table{
		Head:    []string{"LEG", "OPTION", "BID", "ASK", "MID", "IV", "DELTA", "GAMMA", "THETA", "VEGA"},
		Numeric: []bool{false, false, true, true, true, true, true, true, true, true},
	}
	for i := range st.Legs {
		l := &st.Legs[i]
		q := m.Quotes[i]
		g := q.Greeks
		if !q.HasGreeks {
			g = pricing.Greeks{Delta: math.NaN(), Gamma: math.NaN(), Theta: math.NaN(), Vega: math.NaN()}
			if l.Kind == strategy.Stock {
				g.Delta = 1
			}
		}
		rate, yield, from := any(nil), any(nil), any(nil)
		if l.Option() {
			c := m.Carry[i]
			rate, yield = round(c.R, 6), round(c.Q, 6)
			if c.From != 0 {
				from = c.From.String()
			}
		}
		e.Records = append(e.Records, []any{
			l.String(), nilIfEmpty(l.OSI()), l.Qty, finite(q.Bid, 4), finite(q.Ask, 4), finite(q.MidPrice(), 4), finite(q.IV, 8),
			finite(g.Delta, 6), finite(g.Gamma, 6), finite(g.Theta, 6), finite(g.Vega, 6),
			nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
			nil, nil, rate, yield, from,
		})
		t.Rows = append(t.Rows, []string{l.String(), l.OSI(), fixedNum(q.Bid, 2), fixedNum(q.Ask, 2), fixedNum(q.MidPrice(), 2),
			pct(q.IV, 1), fixedNum(g.Delta, 3), fixedNum(g.Gamma, 4), fixedNum(g.Theta, 3), fixedNum(g.Vega, 3)})
	}
	var bes []any
	for _, b := range f.Breakevens {
		bes = append(bes, round(b, 4))
	}
	e.Records = append(e.Records, []any{
		"net", nil, nil, nil, nil, nil, finite(f.Sigma, 8), nil, nil, nil, nil,
		finite(f.NetMid, 2), finite(f.NetNatural, 2), finite(f.Delta, 4), finite(f.Gamma, 6), finite(f.Theta, 2), finite(f.Vega, 2),
		finite(f.DollarDelta, 2), finite(f.DollarGamma, 2), finite(f.MaxProfit, 2), finite(f.MaxLoss, 2), bes, finite(f.PoP, 4),
		finite(f.Drift, 6), popBasis(f), nil, nil, nil,
	})
	t.Rows = append(t.Rows,
		[]string{"net", strategy.NetText(f.NetMid) + " at mid", "", "", fixedNum(f.NetMid/pricing.Multiplier, 2), "",
			signed(f.Delta, 1), signed(f.Gamma, 2), strategy.Money(f.Theta) + "/d", strategy.Money(f.Vega) + "/pt"},
		[]string{"natural", strategy.NetText(f.NetNatural)},
		[]string{"dollar delta", strategy.Money(f.DollarDelta)},
		[]string{"dollar gamma", strategy.Money(f.DollarGamma) + " per 1%"},
		[]string{"max profit", strategy.ProfitText(f.MaxProfit)},
		[]string{"max loss", strategy.LossText(f.MaxLoss)},
		[]string{"breakevens", strategy.BreakevensText(f.Breakevens)},
		[]string{"PoP", strategy.PctText(f.PoP) + " (" + f.PoPBasis() + ")"},
		[]string{"carry", strategy.CarryText(st, m)},
	)
	e.Table = t
	return e
}

// popBasis is the PoP's assumption as a word for the exporter.
func popBasis(f *strategy.Figures) any {
	if f.Expiry == 0 {
		return nil
	}
	if f.RealWorld {
		return "real_world"
	}
	return "risk_neutral"
}

// PnLDates are the dates the P&L is shown at: now, half-way to the first
// expiry, and that expiry.
func pnlDates(now time.Time, f *strategy.Figures) []time.Time {
	if f.Expiry == 0 {
		return []time.Time{now}
	}
	return []time.Time{now, now.Add(f.At.Sub(now) / 2), f.At}
}

// pnlExport is the P&L over n underlying prices across two expected moves
// (one row a price) at each of pnlDates (one column a date, keyed by it).
func pnlExport(st *strategy.Strategy, m *strategy.Market, f *strategy.Figures, n int, shift float64) Export {
	dates := pnlDates(m.Now, f)
	lo, hi := strategy.Range(m.Spot, f.Move, st)
	p := st.Pricer(m, shift)
	e := Export{Keys: []string{"spot"}}
	t := Table{Head: []string{"SPOT"}, Numeric: []bool{true}}
	for i, d := range dates {
		day := d.In(m.Now.Location()).Format("2006-01-02")
		e.Keys = append(e.Keys, "pnl_"+day)
		h := day
		switch {
		case i == 0:
			h = "TODAY " + day
		case i == len(dates)-1:
			h = "EXPIRY " + day
		}
		t.Head, t.Numeric = append(t.Head, h), append(t.Numeric, true)
	}
	for j := range n {
		x := lo + (hi-lo)*float64(j)/float64(n-1)
		rec := []any{round(x, 2)}
		row := []string{strconv.FormatFloat(x, 'f', 2, 64)}
		for _, d := range dates {
			v := p.PnL(x, d)
			rec = append(rec, finite(v, 2))
			row = append(row, strategy.Money(v))
		}
		e.Records = append(e.Records, rec)
		t.Rows = append(t.Rows, row)
	}
	e.Table = t
	return e
}
