package sim

import (
	"math"
	"slices"

	"chainwatch/api"
	nyse "chainwatch/market"
	"chainwatch/sandbox/market"
)

// How wide market makers quote a name's options.
//
// An option's width (ask - bid) in the sandbox has two parts, both of
// which the opening minutes widen (openingWiden):
//
//   - carrying cost: what holding the contract risks through its own time
//     value, distance from the money and term (tickCtx.quote), times illiq,
//     1 for the most traded names and up to 3 for small ones;
//   - adverse selection on the delta: a market maker who fills an order
//     holds its delta until he can lay it off, and in a thin name the
//     order often knows where the stock is going. He charges, per unit of
//     delta, some standard deviations of the move he expects before the
//     position is gone (S times the ATM vol times the square root of the
//     holding time), and the quotes competing for the flow (other market
//     makers, public limit orders) cut that down in proportion to it.
//
// The delta that counts is the smaller of |delta| and 1 - |delta|: an
// in-the-money call is the out-of-the-money put plus stock (put-call
// parity), and conversion traders lean on any quote wider than that
// synthetic's, so deep in-the-money options are not quoted hundreds of
// dollars wide; near the money the call and the put carry about a half
// each.
//
// The second part is what separates the names. A name with a few hundred
// prints a day has two market makers who may carry a fill for a session:
// about 6 % of the price per unit of delta for a 27-vol stock. The
// activity sets both the hold and the competition, so the term falls as
// activity^-1.5: 0.025 % of the price per unit of delta for AAPL (20,000
// prints a day, a few cents on an at-the-money option), less for SPX,
// SPY, QQQ and IWM. Being in proportion to S, it follows the price level,
// as the carrying cost's base width does; on low-priced names the tick
// (a nickel from 3.00 up unless quoted in pennies) adds its own share. By
// put-call parity the implied underlying's spread is the call's width plus
// the put's: near the money this term (plus the carrying costs), from a
// few basis points of the price on the index complex and mega caps to 2-3
// % on the thinnest names. That is why a trader's
// implied_underlying_indicator is green on the liquid names and yellow or
// red on the thin ones, as in production.
//
// Near the money of a short expiry the delta term would exceed the
// option's value. Public limit orders stop that: once a market maker's
// quote is wider than most of the option's value, a customer's order
// inside it sets the NBBO. So the term stops at maxAdverse of the value:
// the thinnest names' at-the-money weeklies are bid about 60 % and
// offered about 140 % of their value, and never lose their bid.

// Constants of the adverse-selection term.
const (
	thinPrints  = 500 // prints a day of the thinnest names (optionActivity's floor)
	thinHold    = 1.0 // sessions the thinnest names' market maker carries a fill
	thinMakers  = 2   // market makers competing in the thinnest names
	adverseSD   = 7.5 // width per unit of delta, in standard deviations of the move over the hold, for one market maker
	maxAdverse  = 0.8 // the adverse-selection width stops at this fraction of the option's value
	openDecayMs = 5 * 60_000

	sessionsPerYear = 252 // a hold in sessions, in years: the ATM vol is annual
)

// pennyAll are the names quoted in pennies at every price.
var pennyAll = []string{"SPY", "QQQ", "IWM"}

// optionActivity is the number of option prints a typical day of s has:
// SPX and SPY tens of thousands, the other indices thousands, single names
// and funds in proportion to their share volume, from a few hundred to
// thirty thousand. It sets both how many trades a day draws and how
// tightly the name is quoted, so option volume and spreads agree.
func optionActivity(s *market.Security) float64 {
	switch {
	case s.Symbol == "SPX" || s.Symbol == "SPY":
		return 60_000
	case s.Kind == market.Index:
		return 8_000
	}
	return min(max(float64(s.AvgVolume)/2500, thinPrints), 30_000)
}

// adverseSelection is a name's adverse-selection width per unit of
// delta, as a fraction of the underlying's price per unit of ATM vol
// (tickCtx.at multiplies in both). A name with activity a has its fills
// laid off in thinHold * thinPrints/a sessions, and thinMakers *
// a/thinPrints quotes competing for them: a session and two market makers
// at 500 prints a day, ten minutes and a crowd at 20,000. Index options
// are hedged in futures and the index funds, which never lack a market,
// and other funds in their own shares or basket: they pay less per unit
// of delta than single names of the same activity.
func adverseSelection(s *market.Security) float64 {
	a := optionActivity(s)
	hold := thinHold * thinPrints / a / sessionsPerYear
	competing := thinMakers * a / thinPrints
	f := adverseSD * math.Sqrt(hold) / competing
	switch s.Kind {
	case market.Index:
		f *= 0.4
	case market.ETF:
		f *= 0.8
	}
	return f
}

// setLiquidity derives the quoting parameters from the kind of name: the
// most traded products are tight and deep, small names wide and thin.
func (b *book) setLiquidity() {
	s := b.sec
	switch {
	case s.Sector == "Volatility":
		b.skew = volSkew
	case s.Kind == market.Index || s.Kind == market.ETF && !slices.Contains(nonEquity, s.Sector):
		b.skew = indexSkew
	}
	b.penny = slices.Contains(pennyAll, s.Symbol) || s.AvgVolume >= 40_000_000
	switch {
	case s.Symbol == "SPX" || s.Symbol == "SPY":
		b.illiq, b.sizes = 1, 1
	case s.Kind == market.Index:
		b.illiq, b.sizes = 1.5, 0.5
	default:
		v := max(float64(s.AvgVolume), 1e5)
		b.illiq = min(max(1+0.5*math.Log10(50e6/v), 1), 3)
		b.sizes = 1 / b.illiq
	}
	b.baseW = 1.5e-5 * b.day.PrevClose
	b.adverse = adverseSelection(s)
}

// openingWiden is the spread multiplier at tick. In the first minutes
// after the open the underlying is still finding its price (the opening
// auction's imbalance, the overnight news) and market makers quote up to
// three times as wide, narrowing over a quarter of an hour: 2.6x at 09:31,
// 1.7x at 09:35, 1.1x at 09:45, nothing left by 10:00. Before the open
// the quotes are the last close's, and stay as they were then.
func openingWiden(tick api.TimeOfDay) float64 {
	if tick < nyse.SessionOpen {
		return 1
	}
	return 1 + 2*math.Exp(-float64(tick-nyse.SessionOpen)/openDecayMs)
}
