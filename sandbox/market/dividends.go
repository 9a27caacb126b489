package market

import (
	"math"
	"time"

	"chainwatch/api"
)

// Dividends. A payer goes ex on a stable schedule: the same months and
// about the same day every year (S&P 500 funds on the quarterly expiration
// Friday, bond funds on the first session of the month), and pays two to
// four weeks later. The amount is the yield's share at the Anchor price,
// raised once a year by the company's habit (so the past is smaller);
// fund distributions wobble a little. A few companies pay a rare December
// special.

// divSpec is a payer's habit.
type divSpec struct {
	freq      int
	months    int // month offset of the first ex month in the year (0-based)
	dom       int // target day of month
	payLag    int // days from ex to payment
	raise     float64
	amount    float64 // regular amount on Anchor
	expiryFri bool    // ex on the monthly expiration Friday (index funds)
	firstDay  bool    // ex on the month's first session (bond funds)
	key       uint64
	from      int // first ex day
}

func (u *Universe) divSpec(s *Security) (divSpec, bool) {
	m := u.model(s)
	if m == nil || s.DivFreq <= 0 || s.DivYield <= 0 {
		return divSpec{}, false
	}
	key := hashKey(s.Symbol, "dividends")
	d := divSpec{freq: s.DivFreq, key: key, amount: s.Price * s.DivYield / float64(s.DivFreq)}
	d.months = int(unit(key, 1) * float64(12/s.DivFreq))
	d.dom = 3 + int(unit(key, 2)*24)
	d.payLag = 14 + int(unit(key, 3)*15)
	d.raise = 0.03 + 0.06*unit(key, 4)
	switch {
	case s.Kind == ETF && m.opts.factor == "Broad Market" && s.DivFreq == 4:
		d.expiryFri, d.months, d.payLag = true, 2, 40
	case s.DivFreq == 12:
		d.firstDay, d.payLag = true, 5
	}
	if s.Kind != Stock {
		d.raise = 0
	}
	d.from = dayNum(max(s.Since, m.opts.divFrom))
	return d, true
}

// exDay returns the ex day of the payment in month m of year y.
func (d *divSpec) exDay(y int, m time.Month) int {
	var t int
	switch {
	case d.expiryFri:
		return monthlyExpiry(y, m)
	case d.firstDay:
		t = dayNum(api.NewDate(y, m, 1))
	default:
		t = dayNum(api.NewDate(y, m, min(d.dom, daysInMonth(y, m))))
	}
	for i := 0; i < 10 && !isTrading(t); i++ {
		t++
	}
	return t
}

// Dividends returns s's dividends with ex-dates in [from, to] (clipped to
// the first dividend and 2100), ascending by ex-date.
func (u *Universe) Dividends(s *Security, from, to api.Date) []api.DividendsEvent {
	d, ok := u.divSpec(s)
	if !ok {
		return nil
	}
	lo, hi := max(dayNum(from), d.from), min(dayNum(to), dayNum(lastEventDay))
	if lo > hi {
		return nil
	}
	step := 12 / d.freq
	raiseMonth := 1 + d.months
	raisesBefore := func(y, m int) int { // raise points up to (y, m)
		if m >= raiseMonth {
			return y + 1
		}
		return y
	}
	atAnchor := raisesBefore(Anchor.Year(), int(Anchor.Month()))
	var out []api.DividendsEvent
	for y := dateOf(lo).Year() - 1; y <= dateOf(hi).Year(); y++ {
		for m := 1 + d.months; m <= 12; m += step {
			ex := d.exDay(y, time.Month(m))
			if ex < lo || ex > hi {
				continue
			}
			// One raise a year, in the ex month of the first payment.
			raises := raisesBefore(y, m) - atAnchor
			amt := d.amount * math.Pow(1+d.raise, float64(raises))
			if s.Kind != Stock {
				amt *= 1 + 0.03*normal(d.key, uint64(ex))
			}
			out = append(out, d.event(s, ex, amt, false))
		}
		if s.Kind == Stock && unit(d.key, uint64(y)+100) < 0.03 {
			ex := dayNum(api.NewDate(y, time.December, 8))
			for i := 0; i < 10 && !isTrading(ex); i++ {
				ex++
			}
			if ex >= lo && ex <= hi {
				amt := d.amount * float64(s.DivFreq) * (0.5 + unit(d.key, uint64(y)+200))
				out = append(out, d.event(s, ex, amt, true))
			}
		}
	}
	sortDividends(out)
	return out
}

// event builds one dividend record; amounts are rounded to the cent for
// companies and to 0.0001 for funds, as they are declared.
func (d *divSpec) event(s *Security, ex int, amt float64, special bool) api.DividendsEvent {
	if s.Kind == Stock {
		amt = math.Max(0.01, round2(amt))
	} else {
		amt = math.Round(amt*1e4) / 1e4
	}
	pay := ex + d.payLag
	for i := 0; i < 10 && !isTrading(pay); i++ {
		pay++
	}
	e := api.DividendsEvent{
		ExDividendDate: dateOf(ex), PaymentDate: dateOf(pay),
		Dividend: api.Some(amt), UnadjustedDividend: api.Some(amt),
		SpecialDividendCode: api.Some[int64](0), DividendCode: "Regular",
		DataSource: "Nasdaq", UnderlyingSymbol: s.Symbol, CompanyName: s.Name,
		DataSourceID: api.Some[int64](2),
	}
	if special {
		e.DividendCode, e.SpecialDividendCode = "Special", api.Some[int64](1)
	}
	return e
}

// sortDividends orders by ex-date; the lists are short and nearly sorted
// (a December special among the regulars), so insertion sort suffices.
func sortDividends(es []api.DividendsEvent) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].ExDividendDate < es[j-1].ExDividendDate; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
