package strategy

import (
	"chainwatch/pricing"
	"strconv"
)

// Name is what the legs make, for a title: a template's name only when
// the legs' kinds, signs, ratios, strikes and expiries have its shape
// (long stock and a long call is not a covered call; a 1x2 is not a
// vertical), else a neutral "custom, N legs".
func (s *Strategy) Name() string {
	switch n := len(s.Legs); n {
	case 1:
		if s.Legs[0].Kind == Stock {
			return "shares"
		}
		return "single"
	case 2:
		if name := s.pairName(); name != "" {
			return name
		}
	case 3:
		if s.butterfly() {
			return Butterfly.String()
		}
	case 4:
		if name := s.condorName(); name != "" {
			return name
		}
	}
	return "custom, " + strconv.Itoa(len(s.Legs)) + " legs"
}

// pairName names two legs, "" when they fit no shape.
func (s *Strategy) pairName() string {
	a, b := s.Legs[0], s.Legs[1]
	if b.Kind == Stock {
		a, b = b, a
	}
	switch {
	case a.Kind == Stock && b.Kind == Call:
		if a.Qty > 0 && b.Qty < 0 && a.Qty == -b.Qty*pricing.Multiplier {
			return CoveredCall.String()
		}
		return ""
	case a.Kind == Stock || b.Kind == Stock:
		return ""
	case a.Kind == b.Kind && a.Expiry != b.Expiry:
		if a.Qty != -b.Qty {
			return ""
		}
		if a.Strike == b.Strike {
			return Calendar.String()
		}
		return Diagonal.String()
	case a.Kind == b.Kind:
		return ratioName(a, b)
	case a.Expiry != b.Expiry || a.Qty != b.Qty:
		return ""
	}
	// A put and a call, same side, same size, same expiry.
	put, call := a, b
	if put.Kind == Call {
		put, call = call, put
	}
	switch {
	case put.Strike == call.Strike:
		return Straddle.String()
	case put.Strike < call.Strike:
		return Strangle.String()
	}
	return ""
}

// ratioName names two options of one type and expiry: a vertical when
// one is bought and the other sold in equal size, a ratio spread
// ("1x2 call ratio") when the sizes differ, "" otherwise.
func ratioName(a, b Leg) string {
	if a.Strike == b.Strike || (a.Qty > 0) == (b.Qty > 0) {
		return ""
	}
	if a.Qty == -b.Qty {
		return Vertical.String()
	}
	// The leg nearer the money comes first: the lower call, the higher put.
	if (a.Kind == Call) == (a.Strike > b.Strike) {
		a, b = b, a
	}
	x, y := abs(a.Qty), abs(b.Qty)
	g := gcd(x, y)
	kind := "call"
	if a.Kind == Put {
		kind = "put"
	}
	return strconv.Itoa(x/g) + "x" + strconv.Itoa(y/g) + " " + kind + " ratio"
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// butterfly reports three options of one type and expiry at evenly
// spaced strikes, sized +n -2n +n (or all reversed, a short butterfly).
func (s *Strategy) butterfly() bool {
	l := sortedByStrike(s.Legs)
	for i := range l {
		if !l[i].Option() || l[i].Kind != l[0].Kind || l[i].Expiry != l[0].Expiry {
			return false
		}
	}
	n := l[0].Qty
	return l[0].Strike < l[1].Strike && l[1].Strike-l[0].Strike == l[2].Strike-l[1].Strike &&
		l[1].Qty == -2*n && l[2].Qty == n
}

// condorName names two puts below two calls on one expiry, the inner
// pair sold and the outer bought in one size (or all reversed): an iron
// condor, or an iron butterfly when the inner strikes meet.
func (s *Strategy) condorName() string {
	l := sortedByStrike(s.Legs)
	puts, calls := []Leg{}, []Leg{}
	for _, x := range l {
		switch {
		case x.Kind == Put && x.Expiry == l[0].Expiry:
			puts = append(puts, x)
		case x.Kind == Call && x.Expiry == l[0].Expiry:
			calls = append(calls, x)
		}
	}
	if len(puts) != 2 || len(calls) != 2 || puts[1].Strike > calls[0].Strike ||
		puts[0].Strike == puts[1].Strike || calls[0].Strike == calls[1].Strike {
		return ""
	}
	n := puts[0].Qty
	if puts[1].Qty != -n || calls[0].Qty != -n || calls[1].Qty != n {
		return ""
	}
	if puts[1].Strike == calls[0].Strike {
		return "iron butterfly"
	}
	return IronCondor.String()
}

// sortedByStrike is a copy of the legs by strike, a put before a call at
// one strike.
func sortedByStrike(legs []Leg) []Leg {
	l := append([]Leg(nil), legs...)
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && (l[j].Strike < l[j-1].Strike || (l[j].Strike == l[j-1].Strike && l[j].Kind == Put && l[j-1].Kind == Call)); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
	return l
}
