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
// expiry, its listed strikes ascending, the cursor's strike and side,
// the next expiry (calendars and diagonals; 0 when there is none), and
// how many listed strikes apart the legs are (1 when 0).
type Cursor struct {
	Symbol, Root string
	Expiry, Next api.Date
	Strikes      []float64
	Strike       float64
	Call         bool
	Width        int
}

// Build makes t at c: the legs bought and sold, no fills (valued at mid).
func Build(t Template, c Cursor) (Strategy, error) {
	st := Strategy{Symbol: c.Symbol}
	at := nearestIndex(c.Strikes, c.Strike)
	if at < 0 {
		return st, fmt.Errorf("no strikes listed on %s", c.Expiry)
	}
	w := max(c.Width, 1)
	kind := Put
	sign := -1 // a put's wider strike is below
	if c.Call {
		kind, sign = Call, 1
	}
	strike := func(off int) (float64, error) {
		i := at + off
		if i < 0 || i >= len(c.Strikes) {
			return 0, fmt.Errorf("a %s %d strikes from %s is past the listed strikes of %s", t, abs(off), FormatStrike(c.Strikes[at]), c.Expiry)
		}
		return c.Strikes[i], nil
	}
	type spec struct {
		kind Kind
		qty  int
		off  int
		next bool
	}
	var specs []spec
	switch t {
	case Vertical:
		specs = []spec{{kind, 1, 0, false}, {kind, -1, sign * w, false}}
	case Straddle:
		specs = []spec{{Put, 1, 0, false}, {Call, 1, 0, false}}
	case Strangle:
		specs = []spec{{Put, 1, -w, false}, {Call, 1, w, false}}
	case IronCondor:
		specs = []spec{{Put, 1, -2 * w, false}, {Put, -1, -w, false}, {Call, -1, w, false}, {Call, 1, 2 * w, false}}
	case Butterfly:
		specs = []spec{{kind, 1, -w, false}, {kind, -2, 0, false}, {kind, 1, w, false}}
	case Calendar:
		specs = []spec{{kind, -1, 0, false}, {kind, 1, 0, true}}
	case Diagonal:
		specs = []spec{{kind, -1, sign * w, false}, {kind, 1, 0, true}}
	case CoveredCall:
		st.Legs = append(st.Legs, Leg{Kind: Stock, Qty: pricing.Multiplier, Root: c.Symbol, Price: math.NaN()})
		specs = []spec{{Call, -1, 0, false}}
	default:
		return st, fmt.Errorf("no template %d", t)
	}
	for _, s := range specs {
		k, err := strike(s.off)
		if err != nil {
			return st, err
		}
		exp := c.Expiry
		if s.next {
			if c.Next == 0 {
				return st, fmt.Errorf("a %s needs an expiry after %s", t, c.Expiry)
			}
			exp = c.Next
		}
		st.Legs = append(st.Legs, Leg{Kind: s.kind, Qty: s.qty, Root: c.Root, Expiry: exp, Strike: k, Price: math.NaN()})
	}
	return st, nil
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
