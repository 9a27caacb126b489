package sandbox

import (
	"fmt"
	"slices"
	"strings"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// Entitlement is a data-provider subscription a client may hold, as the
// conventions name them. Without one, a live or delayed request gets the
// subscription's fields as null (quotes) or a 400 (time and sales, which
// the spec says needs the subscription); historical requests never depend
// on them, since end-of-day data is not licensed per exchange feed.
type Entitlement string

// The three subscriptions of the conventions.
const (
	ConsolidatedTape Entitlement = "consolidated_tape" // CTA/CQ: NYSE, NYSE Arca and Cboe listed
	UTP              Entitlement = "utp"               // UTP: Nasdaq listed
	OPRA             Entitlement = "opra"              // OPRA: options
)

// allEntitlements is what a client holds when Config.Entitlements is nil:
// the demo client of a sandbox sees every field unless asked otherwise.
// Read-only.
var allEntitlements = [...]Entitlement{ConsolidatedTape, UTP, OPRA}

// ParseEntitlements reads a comma-separated list of entitlements, or
// "none" for an empty (non-nil) list, which is what Config.Entitlements
// takes to mean no subscription at all.
func ParseEntitlements(s string) ([]Entitlement, error) {
	s = strings.TrimSpace(s)
	if s == "none" {
		return []Entitlement{}, nil
	}
	list := []Entitlement{}
	for part := range strings.SplitSeq(s, ",") {
		e := Entitlement(strings.TrimSpace(part))
		if !slices.Contains(allEntitlements[:], e) {
			return nil, fmt.Errorf("unknown entitlement %q: want a comma list of consolidated_tape, utp, opra, or none", string(e))
		}
		if !slices.Contains(list, e) {
			list = append(list, e)
		}
	}
	return list, nil
}

// entitlements is the set a server grants every client.
type entitlements struct{ tape, utp, opra bool }

func newEntitlements(list []Entitlement) entitlements {
	if list == nil {
		list = allEntitlements[:]
	}
	return entitlements{
		tape: slices.Contains(list, ConsolidatedTape),
		utp:  slices.Contains(list, UTP),
		opra: slices.Contains(list, OPRA),
	}
}

// all reports whether nothing is ever nulled or refused.
func (e entitlements) all() bool { return e.tape && e.utp && e.opra }

// stockFeed is the subscription a stock's own quotes and trades need:
// UTP for Nasdaq-listed securities, the consolidated tape for the rest.
func stockFeed(sec *market.Security) Entitlement {
	if sec != nil && sec.Listing == market.Nasdaq {
		return UTP
	}
	return ConsolidatedTape
}

func (e entitlements) has(x Entitlement) bool {
	switch x {
	case ConsolidatedTape:
		return e.tape
	case UTP:
		return e.utp
	case OPRA:
		return e.opra
	}
	return false
}

// requires is the 400 of a time-and-sales request without the feed.
func requires(endpoint string, x Entitlement) string {
	return fmt.Sprintf("%s in live and delayed mode requires the %s subscription", endpoint, x)
}

// nullUnderlying nulls the subscription fields of an underlying's quote in
// place (u is the handler's own copy): the market fields need the
// consolidated tape, and underlying_mid of a Nasdaq-listed security needs
// UTP instead, as the spec says. underlying_prev_day_close and
// underlying_volume are not subscription fields.
func (e entitlements) nullUnderlying(u *api.Underlying, sec *market.Security) {
	if !e.has(stockFeed(sec)) {
		u.Mid = api.Float{}
	}
	if e.tape {
		return
	}
	u.LastTradePrice, u.LastTradeSize = api.Float{}, api.Int{}
	u.Bid, u.Ask = api.Float{}, api.Float{}
	u.BidSize, u.AskSize = api.Int{}, api.Int{}
	u.Open, u.High, u.Low, u.Close = api.Float{}, api.Float{}, api.Float{}, api.Float{}
}

// nullOptionTrades nulls the subscription fields of trades in place: the
// NBBO and the price need OPRA, the underlying's bid and ask the
// consolidated tape. The simulator's slices are shared and read-only, so
// trades must be the handler's own copy.
func (e entitlements) nullOptionTrades(trades []api.OptionTrade) {
	if e.opra && e.tape {
		return
	}
	for i := range trades {
		t := &trades[i]
		if !e.opra {
			t.Bid, t.Ask, t.Price = api.Float{}, api.Float{}, api.Float{}
			t.BidSize, t.AskSize = api.Int{}, api.Int{}
		}
		if !e.tape {
			t.UnderlyingBid, t.UnderlyingAsk = api.Float{}, api.Float{}
		}
	}
}
