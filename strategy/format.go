package strategy

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"chainwatch/pricing"

	"chainwatch/scan"
)

// The figures in words, one wording for the strategy page, the positions
// page and the headless commands: what a trader reads on each is the
// same text. "" is a dash (no market to say it from).

// Money is dollars with thousands grouped and a sign: "+$1,250",
// "-$480", "$0".
func Money(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	r := math.Round(v)
	s := "$" + scan.NumberText(math.Abs(r), 0)
	switch {
	case r > 0:
		return "+" + s
	case r < 0:
		return "-" + s
	}
	return s
}

// NetText is an entry per unit (dollars over the 100 shares of a
// contract) with what it is: "5.20 debit", "1.85 credit", "even".
func NetText(dollars float64) string {
	if math.IsNaN(dollars) {
		return ""
	}
	per := dollars / pricing.Multiplier
	s := strconv.FormatFloat(math.Abs(per), 'f', 2, 64)
	switch {
	case s == "0.00":
		return "even"
	case per > 0:
		return s + " debit"
	}
	return s + " credit"
}

// ProfitText is the max profit: dollars, or "unbounded".
func ProfitText(v float64) string {
	if math.IsInf(v, 1) {
		return "unbounded"
	}
	return Money(v)
}

// LossText is the max loss: dollars, or "unbounded".
func LossText(v float64) string {
	if math.IsInf(v, -1) {
		return "unbounded"
	}
	return Money(v)
}

// BreakevensText lists the breakevens: "693.50 706.50", "none".
func BreakevensText(bes []float64) string {
	if len(bes) == 0 {
		return "none"
	}
	parts := make([]string, len(bes))
	for i, b := range bes {
		parts[i] = strconv.FormatFloat(b, 'f', 2, 64)
	}
	return strings.Join(parts, " ")
}

// PctText is a probability as a percentage: "43%".
func PctText(p float64) string {
	if math.IsNaN(p) {
		return ""
	}
	return strconv.FormatFloat(p*100, 'f', 0, 64) + "%"
}

// PoPBasis states what the probability of profit assumes: risk-neutral
// (the drift the chain prices with, r - q), or the real-world drift asked
// for.
func (f *Figures) PoPBasis() string {
	d := strconv.FormatFloat(f.Drift*100, 'f', 2, 64) + "%"
	if f.RealWorld {
		return "real-world drift " + d + "/yr, lognormal at the legs' IV"
	}
	return "risk-neutral: drift r-q " + d + "/yr, lognormal at the legs' IV"
}

// CarryText is the rate and dividend yield the legs are repriced at, one
// phrase per distinct carry: "r 3.80% q 1.15% (Dec 18's quotes)", or
// "(assumed: no expiry's quotes told it)" for DefaultCarry.
func CarryText(s *Strategy, m *Market) string {
	var parts []string
	for i := range s.Legs {
		if !s.Legs[i].Option() {
			continue
		}
		c := m.carry(i)
		p := "r " + strconv.FormatFloat(c.R*100, 'f', 2, 64) + "% q " + strconv.FormatFloat(c.Q*100, 'f', 2, 64) + "%"
		if c.From == 0 {
			p += " (assumed: no expiry's quotes told it)"
		} else {
			p += " (" + c.From.String() + "'s quotes)"
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "; ")
}
