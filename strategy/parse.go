package strategy

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/text"
)

// The leg syntax (docs/strategies.md): words separated by blanks or
// commas, case folded.
//
//	SPY 2026-12-18 +C700 -C710          a symbol, an expiry, then legs on it
//	SPY 2026-12-18 -C700 2027-01-15 +C700   a later date applies to the legs after it
//	+SPY261218C00700000 -SPY261218C00710000 OSI symbols
//	SPY +100xSPY 2026-12-18 -C710       the underlying as a leg, in shares
//	SPY 2026-12-18 +2xC700@12.30 -2C710 a quantity (the x is optional) and a fill
//
// A leg is a sign (+ buys, - sells), a quantity (1 when left out, at
// most MaxQty), then C or P and a strike (on the last date given), an
// OSI symbol, or the underlying's symbol; @price sets its fill.

// maxInput bounds what Parse reads: a dozen OSI legs fit in a few hundred
// characters.
const maxInput = 1024

// Parse reads a strategy in the leg syntax. It checks the syntax, the
// quantities and that every leg is on one underlying; whether each
// contract is listed, and whether it has expired, needs the chain and the
// day (CheckDates, Listed).
func Parse(s string) (Strategy, error) {
	var st Strategy
	if len(s) > maxInput {
		return st, fmt.Errorf("strategy of %d characters: at most %d", len(s), maxInput)
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\n' })
	if len(words) == 0 {
		return st, errors.New("empty strategy; write it as SPY 2026-12-18 +C700 -C710")
	}
	var date api.Date
	stock := "" // a stock leg's symbol pins the underlying: it is not shortened
	for _, w := range words {
		up := strings.ToUpper(w)
		switch {
		case up[0] == '+' || up[0] == '-':
			if err := st.addLeg(w, up, date, &stock); err != nil {
				return st, err
			}
		case len(up) == 10 && up[4] == '-' && up[7] == '-':
			d, err := api.ParseDate(up)
			if err != nil || !d.Valid() {
				return st, fmt.Errorf("expiry %s is not a date (yyyy-mm-dd)", text.Quote(w))
			}
			date = d
		case strikeLike(up):
			return st, fmt.Errorf("%s: a leg starts with + (buy) or - (sell): +%s", text.Quote(w), up)
		default:
			sym, err := config.ParseSymbol(up)
			if err != nil {
				return st, fmt.Errorf("%w; a leg starts with + (buy) or - (sell)", err)
			}
			if err := st.setSymbol(sym, stock); err != nil {
				return st, err
			}
		}
	}
	if len(st.Legs) == 0 {
		return st, fmt.Errorf("no legs in %s; a leg is +C700 (buy) or -P650 (sell) after an expiry", text.Quote(s))
	}
	return st, nil
}

// addLeg adds the leg word w (up in upper case) of expiry date; a stock
// leg pins the underlying to its symbol (stock).
func (st *Strategy) addLeg(w, up string, date api.Date, stock *string) error {
	leg, err := parseLeg(up, st.Symbol, date)
	if err != nil {
		return fmt.Errorf("leg %s: %w", text.Quote(w), err)
	}
	if err := st.setSymbol(underlyingOf(leg), *stock); err != nil {
		return fmt.Errorf("leg %s: %w", text.Quote(w), err)
	}
	if leg.Kind == Stock {
		*stock = leg.Root
	}
	if len(st.Legs) == MaxLegs {
		return fmt.Errorf("more than %d legs", MaxLegs)
	}
	st.Legs = append(st.Legs, leg)
	return nil
}

// setSymbol sets the underlying, refusing a second one. A shorter root of
// the same underlying replaces it (SPX, not SPXW) unless a stock leg has
// pinned it: a stock leg names its symbol exactly, so AA0's shares are
// not AA's.
func (st *Strategy) setSymbol(sym, stock string) error {
	switch {
	case st.Symbol == "" || st.Symbol == sym:
		st.Symbol = sym
	case SameUnderlying(st.Symbol, sym) && (stock == "" || len(sym) > len(stock)):
		if len(sym) < len(st.Symbol) {
			st.Symbol = sym // SPX, not SPXW
		}
	default:
		return twoUnderlyings(st.Symbol, sym)
	}
	return nil
}

// twoUnderlyings is the one wording for a strategy that names two.
func twoUnderlyings(a, b string) error {
	return fmt.Errorf("legs on two underlyings, %s and %s; a strategy is on one", a, b)
}

// SameUnderlying reports whether two roots are one underlying's: equal,
// or one the other with a letter added (SPX and SPXW, NDX and NDXP).
func SameUnderlying(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || len(b) == len(a)+1 && strings.HasPrefix(b, a)
}

// underlyingOf is the underlying a leg names: a stock leg's symbol, an
// option's root less a weekly root's W (SPXW is SPX's).
func underlyingOf(l Leg) string {
	if l.Kind != Stock && len(l.Root) >= 4 && strings.HasSuffix(l.Root, "W") {
		return strings.TrimSuffix(l.Root, "W")
	}
	return l.Root
}

// parseLeg reads one leg (upper case, sign first).
func parseLeg(w, symbol string, date api.Date) (Leg, error) {
	leg := Leg{Qty: 1, Price: math.NaN()}
	sign := 1
	if w[0] == '-' {
		sign = -1
	}
	w = w[1:]
	if at := strings.IndexByte(w, '@'); at >= 0 {
		p, err := strconv.ParseFloat(w[at+1:], 64)
		if err != nil || p < 0 || math.IsInf(p, 0) || math.IsNaN(p) {
			return leg, fmt.Errorf("price %s is not a price (@12.30)", text.Quote(w[at+1:]))
		}
		leg.Price, w = p, w[:at]
	}
	n := 0
	for n < len(w) && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	if n > 0 {
		if n > 6 {
			return leg, fmt.Errorf("quantity %s: at most %d", w[:n], MaxQty)
		}
		q, _ := strconv.Atoi(w[:n])
		switch {
		case q == 0:
			return leg, errors.New("a quantity of 0 is no leg")
		case q > MaxQty:
			return leg, fmt.Errorf("quantity %d: at most %d", q, MaxQty)
		}
		leg.Qty = q
		w = w[n:]
		if strings.HasPrefix(w, "X") || strings.HasPrefix(w, "*") {
			w = w[1:]
		}
	}
	leg.Qty *= sign
	return leg, parseBody(&leg, w, symbol, date)
}

// parseBody reads what the leg holds: C or P and a strike, an OSI symbol,
// or the underlying.
func parseBody(leg *Leg, w, symbol string, date api.Date) error {
	if strikeLike(w) {
		k, err := strconv.ParseFloat(w[1:], 64)
		switch {
		case err != nil || k <= 0 || k >= 1e6 || math.IsNaN(k):
			return fmt.Errorf("strike %s is not a strike", text.Quote(w[1:]))
		case symbol == "":
			return errors.New("no symbol before it; write SPY 2026-12-18 +C700, or an OSI symbol")
		case date == 0:
			return errors.New("no expiry before it; write SPY 2026-12-18 +C700, or an OSI symbol")
		}
		leg.Kind, leg.Root, leg.Expiry, leg.Strike = Kind(w[0]), symbol, date, k
		if _, err := api.NewOSI(symbol, date, api.OptionType(w[0]), k); err != nil {
			return err
		}
		return nil
	}
	if o, err := api.ParseOSI(w); err == nil {
		leg.Kind, leg.Root, leg.Expiry, leg.Strike = Kind(o.Type[0]), o.Root, o.Expiry, o.Strike()
		if symbol != "" && !SameUnderlying(symbol, o.Root) && underlyingOf(*leg) != symbol {
			return twoUnderlyings(symbol, o.Root)
		}
		return nil
	}
	sym, err := config.ParseSymbol(w)
	if err != nil || len(w) > 6 && strings.ContainsAny(w, "0123456789") {
		return fmt.Errorf("%s is neither C or P and a strike, an OSI symbol nor the underlying", text.Quote(w))
	}
	if symbol != "" && sym != symbol {
		return twoUnderlyings(symbol, sym)
	}
	leg.Kind, leg.Root = Stock, sym
	return nil
}

// strikeLike reports whether w is C or P and a strike (or a try at one).
func strikeLike(w string) bool {
	return len(w) > 1 && (w[0] == 'C' || w[0] == 'P') && strings.IndexByte("0123456789.-+", w[1]) >= 0
}
