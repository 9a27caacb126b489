package sandbox

import (
	"testing"

	"chainwatch/api"
	"chainwatch/sandbox/market"
)

// The OPRA fields of option trades: over HTTP a client without OPRA never
// gets live trades (400), so the nulling is checked here, with the rest of
// the table of which subscription guards which field.
func TestNullOptionTrades(t *testing.T) {
	full := api.OptionTrade{
		Bid: api.Some(1.0), Ask: api.Some(1.2), BidSize: api.Some[int64](3), AskSize: api.Some[int64](4),
		Price: api.Some(1.1), Size: 5, UnderlyingBid: api.Some(100.0), UnderlyingAsk: api.Some(100.1),
	}
	for _, c := range []struct {
		list       []Entitlement
		opra, tape bool // fields kept
	}{
		{nil, true, true},
		{[]Entitlement{}, false, false},
		{[]Entitlement{OPRA}, true, false},
		{[]Entitlement{ConsolidatedTape, UTP}, false, true},
	} {
		trades := []api.OptionTrade{full, full}
		newEntitlements(c.list).nullOptionTrades(trades)
		for _, tr := range trades {
			if tr.Bid.Valid != c.opra || tr.Ask.Valid != c.opra || tr.BidSize.Valid != c.opra || tr.AskSize.Valid != c.opra ||
				tr.Price.Valid != c.opra || tr.UnderlyingBid.Valid != c.tape || tr.UnderlyingAsk.Valid != c.tape || tr.Size != 5 {
				t.Errorf("%v: %+v", c.list, tr)
			}
		}
	}
}

func TestNullUnderlying(t *testing.T) {
	full := api.Underlying{
		Mid: api.Some(10.0), Bid: api.Some(9.9), Ask: api.Some(10.1), LastTradePrice: api.Some(10.0),
		LastTradeSize: api.Some[int64](100), BidSize: api.Some[int64](1), AskSize: api.Some[int64](2),
		Open: api.Some(9.0), High: api.Some(11.0), Low: api.Some(8.0), Close: api.Some(10.0),
		PrevDayClose: api.Some(9.5), Volume: api.Some[int64](1000),
	}
	nasdaq := &market.Security{Symbol: "N", Listing: market.Nasdaq}
	nyse := &market.Security{Symbol: "Y", Listing: market.NYSE}
	for _, c := range []struct {
		list      []Entitlement
		sec       *market.Security
		mid, tape bool
	}{
		{[]Entitlement{ConsolidatedTape}, nyse, true, true},
		{[]Entitlement{ConsolidatedTape}, nasdaq, false, true},
		{[]Entitlement{UTP}, nasdaq, true, false},
		{[]Entitlement{UTP}, nyse, false, false},
		{[]Entitlement{}, nil, false, false},
	} {
		u := full
		newEntitlements(c.list).nullUnderlying(&u, c.sec)
		fields := []bool{u.Bid.Valid, u.Ask.Valid, u.LastTradePrice.Valid, u.LastTradeSize.Valid, u.BidSize.Valid,
			u.AskSize.Valid, u.Open.Valid, u.High.Valid, u.Low.Valid, u.Close.Valid}
		for i, valid := range fields {
			if valid != c.tape {
				t.Errorf("%v %v: market field %d valid %v", c.list, c.sec, i, valid)
			}
		}
		if u.Mid.Valid != c.mid || !u.PrevDayClose.Valid || !u.Volume.Valid {
			t.Errorf("%v %v: mid %v prev close %v volume %v", c.list, c.sec, u.Mid, u.PrevDayClose, u.Volume)
		}
	}
}
