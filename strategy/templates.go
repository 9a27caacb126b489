package strategy

import (
	"chainwatch/pricing"
	"fmt"
	"math"

	"chainwatch/api"
)

// Template is a usual shape built from the ladder's cursor.
type Template int

// The templates, in the order the ticket cycles through them.
const (
	Vertical Template = iota
	Straddle
	Strangle
	IronCondor
	Butterfly
	Calendar
	Diagonal
	CoveredCall
	NumTemplates
)

var templateNames = [NumTemplates]string{"vertical", "straddle", "strangle", "iron condor", "butterfly", "calendar", "diagonal", "covered call"}

func (t Template) String() string {
	if t >= 0 && t < NumTemplates {
		return templateNames[t]
	}
	return "template"
}

// Cursor is where a template is built: the ladder's symbol, root and
// expiry, its listed strikes ascending with each strike's call and put
// delta (NaN or missing: unknown), the underlying's price (NaN or 0:
// unknown, then the cursor's strike is the centre), the cursor's strike
// and side (a vertical's, a butterfly's, a calendar's type), the next
// expiry (calendars and diagonals; 0 when there is none), and the
// trader's width: Width points between a spread's strikes (0: five
// listed strikes), Delta the short strikes' delta for a strangle, an
// iron condor and a covered call (0: Width from the money instead).
type Cursor struct {
	Symbol, Root        string
	Expiry, Next        api.Date
	Strikes             []float64
	CallDelta, PutDelta []float64
	Spot, Strike        float64
	Call                bool
	Width, Delta        float64
}

// DefaultWidth is the width, in listed strikes, when none is chosen.
const DefaultWidth = 5

// Centre is the strike a template is built around: the listed strike
// nearest the underlying, else the cursor's.
func (c *Cursor) Centre() float64 {
	at := c.Strike
	if c.Spot > 0 {
		at = c.Spot
	}
	if i := nearestIndex(c.Strikes, at); i >= 0 {
		return c.Strikes[i]
	}
	return at
}

// Step is the strikes' spacing at the centre (1 when unknown).
func (c *Cursor) Step() float64 {
	i := nearestIndex(c.Strikes, c.Centre())
	switch {
	case i < 0 || len(c.Strikes) < 2:
		return 1
	case i+1 < len(c.Strikes):
		return c.Strikes[i+1] - c.Strikes[i]
	}
	return c.Strikes[i] - c.Strikes[i-1]
}

// WidthPoints is the width in points: Width, else DefaultWidth strikes.
func (c *Cursor) WidthPoints() float64 {
	if c.Width > 0 {
		return c.Width
	}
	return DefaultWidth * c.Step()
}

// Build makes t centred on the money at the cursor's width: the legs
// bought and sold, no fills (valued at mid).
func Build(t Template, c Cursor) (Strategy, error) {
	st := Strategy{Symbol: c.Symbol}
	if len(c.Strikes) == 0 {
		return st, fmt.Errorf("no strikes listed on %s", c.Expiry)
	}
	atm, w := c.Centre(), c.WidthPoints()
	kind := Put
	sign := -1.0 // a put's wider strike is below
	if c.Call {
		kind, sign = Call, 1
	}
	// strike is the listed strike nearest from+off, another than from
	// when off is not 0.
	strike := func(from, off float64) (float64, error) {
		k, ok := nearestAway(c.Strikes, from, off)
		if !ok {
			return 0, fmt.Errorf("a %s %s wide from %s is past the listed strikes of %s", t, FormatStrike(math.Abs(off)), FormatStrike(from), c.Expiry)
		}
		return k, nil
	}
	// short is a strangle's or condor's short strike on the call (up) or
	// put side: at the chosen delta, else w from the money.
	short := func(call bool) (float64, error) {
		if k, ok := c.atDelta(call, atm); ok {
			return k, nil
		}
		if call {
			return strike(atm, w)
		}
		return strike(atm, -w)
	}
	type spec struct {
		kind Kind
		qty  int
		k    float64
		next bool
	}
	var specs []spec
	var errs [4]error
	switch t {
	case Vertical:
		far, err := strike(atm, sign*w)
		specs, errs[0] = []spec{{kind, 1, atm, false}, {kind, -1, far, false}}, err
	case Straddle:
		specs = []spec{{Put, 1, atm, false}, {Call, 1, atm, false}}
	case Strangle:
		p, err := short(false)
		k, err2 := short(true)
		specs, errs[0], errs[1] = []spec{{Put, 1, p, false}, {Call, 1, k, false}}, err, err2
	case IronCondor:
		p, err := short(false)
		k, err2 := short(true)
		pw, err3 := strike(p, -w)
		kw, err4 := strike(k, w)
		specs = []spec{{Put, 1, pw, false}, {Put, -1, p, false}, {Call, -1, k, false}, {Call, 1, kw, false}}
		errs = [4]error{err, err2, err3, err4}
	case Butterfly:
		lo, err := strike(atm, -w)
		hi, err2 := strike(atm, w)
		specs, errs[0], errs[1] = []spec{{kind, 1, lo, false}, {kind, -2, atm, false}, {kind, 1, hi, false}}, err, err2
	case Calendar:
		specs = []spec{{kind, -1, atm, false}, {kind, 1, atm, true}}
	case Diagonal:
		far, err := strike(atm, sign*w)
		specs, errs[0] = []spec{{kind, -1, far, false}, {kind, 1, atm, true}}, err
	case CoveredCall:
		k, err := short(true)
		st.Legs = append(st.Legs, Leg{Kind: Stock, Qty: pricing.Multiplier, Root: c.Symbol, Price: math.NaN()})
		specs, errs[0] = []spec{{Call, -1, k, false}}, err
	default:
		return st, fmt.Errorf("no template %d", t)
	}
	for _, err := range errs {
		if err != nil {
			return st, err
		}
	}
	for _, s := range specs {
		exp := c.Expiry
		if s.next {
			if c.Next == 0 {
				return st, fmt.Errorf("a %s needs an expiry after %s", t, c.Expiry)
			}
			exp = c.Next
		}
		st.Legs = append(st.Legs, Leg{Kind: s.kind, Qty: s.qty, Root: c.Root, Expiry: exp, Strike: s.k, Price: math.NaN()})
	}
	return st, nil
}

// atDelta is the strike beyond atm (above for a call, below for a put)
// whose delta is nearest c.Delta, false when no delta is chosen or known.
func (c *Cursor) atDelta(call bool, atm float64) (float64, bool) {
	ds := c.PutDelta
	if call {
		ds = c.CallDelta
	}
	if c.Delta <= 0 || len(ds) != len(c.Strikes) {
		return 0, false
	}
	best, gap := 0.0, math.Inf(1)
	for i, k := range c.Strikes {
		d := math.Abs(ds[i])
		if math.IsNaN(d) || d == 0 || (call && k <= atm) || (!call && k >= atm) {
			continue
		}
		// On a tie the strike nearer the money.
		if g := math.Abs(d - c.Delta); g < gap || (g == gap && math.Abs(k-atm) < math.Abs(best-atm)) {
			best, gap = k, g
		}
	}
	return best, !math.IsInf(gap, 1)
}

// nearestAway is the listed strike nearest from+off; when off is not 0,
// one past from on off's side even if from is nearer. false when the
// target lies beyond the listed strikes by more than half a step.
func nearestAway(ks []float64, from, off float64) (float64, bool) {
	target := from + off
	i := nearestIndex(ks, target)
	if i < 0 {
		return 0, false
	}
	if off != 0 && ks[i] == from {
		if off > 0 {
			i++
		} else {
			i--
		}
	}
	if i < 0 || i >= len(ks) {
		return 0, false
	}
	step := 0.0
	if len(ks) > 1 {
		step = (ks[len(ks)-1] - ks[0]) / float64(len(ks)-1)
	}
	if target < ks[0]-step/2 || target > ks[len(ks)-1]+step/2 {
		return 0, false
	}
	return ks[i], true
}

// nearestIndex is the index of the listed strike nearest k, -1 for none.
func nearestIndex(ks []float64, k float64) int {
	best := -1
	for i, x := range ks {
		if best < 0 || math.Abs(x-k) < math.Abs(ks[best]-k) {
			best = i
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Nearest names the listed contract nearest a leg that is not listed:
// the nearest strike of its type on its expiry, else the nearest expiry.
// listed says whether an OSI symbol is in the chain; strikes and
// expiries are what the chain lists for the leg's root and type.
func Nearest(l *Leg, strikes []float64, expiries []api.Date) string {
	if i := nearestIndex(strikes, l.Strike); i >= 0 {
		return string(l.Kind) + FormatStrike(strikes[i]) + " " + l.Expiry.String()
	}
	best := api.Date(0)
	for _, d := range expiries {
		if best == 0 || absDays(d, l.Expiry) < absDays(best, l.Expiry) {
			best = d
		}
	}
	if best == 0 {
		return ""
	}
	return "the expiry " + best.String()
}

func absDays(a, b api.Date) int { return abs(a.DaysUntil(b)) }
