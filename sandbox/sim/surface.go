package sim

import (
	"math"

	"chainwatch/market"
)

// T30 is the 30-day tenor, in years, at which Surface.ATM is quoted (the
// tenor of iv30).
const T30 = 30.0 / market.DaysPerYear

// Limits of the surface. The term factor keeps a one-minute or a ten-year
// expiry from running away with the power law; the wing clamps keep the
// quadratic from turning negative or exploding far from the money (the
// upper one is reached smoothly, see capWing); the cap stays below MaxIV so
// every price built from the surface inverts.
const (
	MinTermFactor = 0.5
	MaxTermFactor = 2.0
	MinWing       = 0.3 // lowest vol as a multiple of the ATM vol of the tenor
	MaxWing       = 4.0 // highest, before the event bump
	MinSurfaceVol = 0.01
	MaxSurfaceVol = 4.0
)

// Surface is a parametric implied volatility surface for one underlying at
// one moment. For strike K, forward F and expiry T (years):
//
//	atm(T) = ATM * clamp((T/T30)^TermSlope, MinTermFactor, MaxTermFactor)
//	k      = ln(K/F) / sqrt(T)
//	vol    = atm(T) * clamp(1 + Skew*k + Smile*k*k, MinWing, MaxWing)
//	         (the upper clamp bends smoothly from 2 to MaxWing, see capWing;
//	         far out Smile*k*k goes on along its tangent, see smile)
//	vol    = sqrt(vol^2 + EventVar/T)  if EventTime > 0 and T > EventTime
//
// then floored at MinSurfaceVol and capped at MaxSurfaceVol.
//
// Log-moneyness is normalized by sqrt(T) so one parameter set gives a
// plausible skew at every tenor: a 5 % out-of-the-money put is far in the
// wing for a one-day option and near the money for a two-year one.
type Surface struct {
	// ATM is the 30-day at-the-money vol without the event (a fraction).
	ATM float64
	// TermSlope is the power of the ATM term structure: positive for an
	// upward sloping (calm market) structure, negative for an inverted one.
	// Typical values -0.15 to 0.15.
	TermSlope float64
	// Skew is the relative slope of vol in k: negative for equities (puts
	// richer). DefaultSurface gives -0.9 for an index at 18 % and -0.3 for
	// a stock at 30 %, steeper at lower vols.
	Skew float64
	// Smile is the relative curvature of vol in k: both wings richer.
	// DefaultSurface gives 0.2 for an index at 18 % and 0.4 for a stock at
	// 30 %, more at lower vols.
	Smile float64
	// EventTime is the time in years until the next scheduled event
	// (earnings); 0 means none. Expiries after it carry EventVar.
	EventTime float64
	// EventVar is the total variance the event adds (see EarningsVar).
	EventVar float64
}

// DefaultSurface is a plausible surface around a 30-day ATM vol: indices
// (and index ETFs) have a steep put skew, little smile and an upward
// sloping term structure; single stocks a milder skew, more smile and a
// flatter term structure. No event; set EventTime and EventVar for earnings.
//
// The shape is set per standard deviation: Skew scales with 1/atm and
// Smile with 1/atm^2, so the smile reads the same in standard deviations
// (z = ln(K/F)/(atm*sqrt(T))) at every vol level. That is how markets
// behave (a calm index has a steep relative skew, a stressed one a flat
// one), and it keeps the quadratic from rising faster than prices allow:
// call prices stay convex in strike (no butterfly arbitrage) out to five
// standard deviations at any vol level, the tests check. Further out a
// quadratic smile always ends up too steep for a put's value to keep
// rising with its strike; the prices there are fractions of a cent.
// At atm 0.18 an index has Skew -0.9 and Smile 0.2, at atm 0.30 a stock
// has Skew -0.3 and Smile 0.4. atm below 0.05 shapes as 0.05.
func DefaultSurface(atm float64, index bool) Surface {
	a := math.Max(atm, 0.05)
	if index {
		return Surface{ATM: atm, TermSlope: 0.08, Skew: indexSkewSD / a, Smile: indexSmileSD / (a * a)}
	}
	return Surface{ATM: atm, TermSlope: 0.03, Skew: stockSkewSD / a, Smile: stockSmileSD / (a * a)}
}

// UpsideSurface is the surface of a volatility product (VIX and its
// options): calls richer, since its spikes are up, and an inverted term
// structure. Its shape is set per standard deviation as DefaultSurface's:
// a call 2 standard deviations out is about 1.3 ATM. (Steeper, its short
// calls' prices would rise with the strike: the term structure doubles the
// shortest tenors' vol, and with it the skew per standard deviation.)
func UpsideSurface(atm float64) Surface {
	a := math.Max(atm, 0.05)
	return Surface{ATM: atm, TermSlope: -0.15, Skew: upsideSkewSD / a, Smile: upsideSmileSD / (a * a)}
}

// Default shapes per standard deviation of the move (see DefaultSurface):
// vol/atm = 1 + skewSD*z + smileSD*z^2. An index put 2 standard deviations
// out is about 1.35 ATM and its call 0.70; a stock's put 1.32, its call 0.96.
const (
	indexSkewSD   = -0.162 // -0.9 at atm 0.18
	indexSmileSD  = 0.0065 // 0.2 at atm 0.18
	stockSkewSD   = -0.09  // -0.3 at atm 0.30
	stockSmileSD  = 0.036  // 0.4 at atm 0.30
	upsideSkewSD  = 0.12   // UpsideSurface's: 0.14 at atm 0.85
	upsideSmileSD = 0.015  // 0.02 at atm 0.85
)

// EarningsVar is the total variance of an event whose typical one-day
// move (mean absolute return) is move: for a normal jump the mean absolute
// value is sigma*sqrt(2/pi), so the variance is move^2 * pi/2.
func EarningsVar(move float64) float64 { return move * move * math.Pi / 2 }

// ATMVol is the at-the-money vol of the tenor T, event included: the vol
// of the strike at the forward.
func (s Surface) ATMVol(T float64) float64 { return s.Vol(1, 1, T) }

// Vol is the implied vol for strike K, forward F and expiry T years (see
// Surface). T below market.MinT is taken as market.MinT, so an expiring option still gets
// a finite vol; a non-positive K or F is taken as at the money.
func (s Surface) Vol(K, F, T float64) float64 {
	if !(T > market.MinT) {
		T = market.MinT
	}
	factor := math.Pow(T/T30, s.TermSlope)
	factor = math.Min(math.Max(factor, MinTermFactor), MaxTermFactor)
	atm := s.ATM * factor

	wing := 1.0
	if K > 0 && F > 0 {
		k := math.Log(K/F) / math.Sqrt(T)
		wing = 1 + s.Skew*k + s.smile(k)
		wing = math.Max(capWing(wing), MinWing)
	}
	vol := atm * wing
	if s.EventTime > 0 && T > s.EventTime && s.EventVar > 0 {
		vol = math.Sqrt(vol*vol + s.EventVar/T)
	}
	if !(vol > MinSurfaceVol) { // also catches NaN
		return MinSurfaceVol
	}
	return math.Min(vol, MaxSurfaceVol)
}

// wingLine is where the smile's quadratic turns into its tangent line, as
// a fraction of the distance 1/sqrt(Smile) at which it would make the
// wing's prices turn: beyond that a vol rising as k^2 lifts a call's price
// faster than the strike lowers it (a call spread worth less than
// nothing), and a put's likewise; a vol rising in proportion to |k| keeps
// them monotone until the wing's cap levels it off (the tests walk the
// wings of every shape the sandbox uses).
const wingLine = 0.6

// smile is the smile term of the wing at k: Smile k^2, continued by its
// tangent line from |k| = wingLine/sqrt(Smile) on.
func (s Surface) smile(k float64) float64 {
	if s.Smile <= 0 {
		return s.Smile * k * k
	}
	kl := wingLine / math.Sqrt(s.Smile)
	if a := math.Abs(k); a > kl {
		return s.Smile * kl * (2*a - kl)
	}
	return s.Smile * k * k
}

// wingKnee is where the upper wing clamp starts to bend.
const wingKnee = 2.0

// capWing clamps the wing multiple at MaxWing smoothly: linear up to
// wingKnee, then a tanh that meets it with the same slope and levels off at
// MaxWing. A hard clamp there would be a concave kink in vol against strike,
// which prices as a negative butterfly (a negative probability density) at
// that strike; the lower clamp is a convex kink and harmless.
func capWing(w float64) float64 {
	if w <= wingKnee {
		return w
	}
	const span = MaxWing - wingKnee
	return wingKnee + span*math.Tanh((w-wingKnee)/span)
}
