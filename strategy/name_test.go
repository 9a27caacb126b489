package strategy

import "testing"

// TestName names a leg set only when its signs, ratios, strikes and
// expiries fit the shape.
func TestName(t *testing.T) {
	for _, c := range []struct{ legs, want string }{
		{"SPY +100xSPY", "shares"},
		{"SPY 2026-12-18 +C100", "single"},
		{"SPY +100xSPY 2026-12-18 -C105", "covered call"},
		{"SPY 2026-12-18 -C105 +100xSPY", "covered call"},
		{"SPY +200xSPY 2026-12-18 -2xC105", "covered call"},
		{"SPY +100xSPY 2026-12-18 +C105", "custom, 2 legs"},   // long stock, long call
		{"SPY -100xSPY 2026-12-18 -C105", "custom, 2 legs"},   // short stock, short call
		{"SPY +100xSPY 2026-12-18 -2xC105", "custom, 2 legs"}, // half covered
		{"SPY +100xSPY 2026-12-18 -P95", "custom, 2 legs"},
		{"SPY 2026-12-18 +C100 -C105", "vertical"},
		{"SPY 2026-12-18 -P100 +P95", "vertical"},
		{"SPY 2026-12-18 +2xC100 -2xC105", "vertical"},
		{"SPY 2026-12-18 +C100 -2xC105", "1x2 call ratio"},
		{"SPY 2026-12-18 -2xC105 +C100", "1x2 call ratio"},
		{"SPY 2026-12-18 +2xP100 -4xP95", "1x2 put ratio"},
		{"SPY 2026-12-18 +2xC100 -3xC105", "2x3 call ratio"},
		{"SPY 2026-12-18 +C100 +C105", "custom, 2 legs"},
		{"SPY 2026-12-18 -C100 -C105", "custom, 2 legs"},
		{"SPY 2026-12-18 +C100 -P100", "custom, 2 legs"}, // a synthetic, not a straddle
		{"SPY 2026-12-18 +C100 +P100", "straddle"},
		{"SPY 2026-12-18 -C100 -P100", "straddle"},
		{"SPY 2026-12-18 +C100 +2xP100", "custom, 2 legs"},
		{"SPY 2026-12-18 +P95 +C105", "strangle"},
		{"SPY 2026-12-18 +P105 +C95", "custom, 2 legs"},
		{"SPY 2026-12-18 -C100 2027-01-15 +C100", "calendar"},
		{"SPY 2026-12-18 -C100 2027-01-15 -C100", "custom, 2 legs"},
		{"SPY 2026-12-18 -C105 2027-01-15 +C100", "diagonal"},
		{"SPY 2026-12-18 -C105 2027-01-15 +2xC100", "custom, 2 legs"},
		{"SPY 2026-12-18 +C95 -2xC100 +C105", "butterfly"},
		{"SPY 2026-12-18 -P95 +2xP100 -P105", "butterfly"},
		{"SPY 2026-12-18 +C95 -C100 +C105", "custom, 3 legs"},
		{"SPY 2026-12-18 +C95 -2xC100 +C110", "custom, 3 legs"},
		{"SPY 2026-12-18 +C95 -2xP100 +C105", "custom, 3 legs"},
		{"SPY 2026-12-18 +P85 -P90 -C110 +C115", "iron condor"},
		{"SPY 2026-12-18 -P85 +P90 +C110 -C115", "iron condor"},
		{"SPY 2026-12-18 +P90 -P100 -C100 +C110", "iron butterfly"},
		{"SPY 2026-12-18 +P85 -2xP90 -C110 +C115", "custom, 4 legs"},
		{"SPY 2026-12-18 +P85 +P90 +C110 +C115", "custom, 4 legs"},
		{"SPY 2026-12-18 +P85 -P110 -C90 +C115", "custom, 4 legs"},
		{"SPY 2026-12-18 +C85 -C90 -C110 +C115", "custom, 4 legs"},
	} {
		st := legsOf(t, c.legs)
		if got := st.Name(); got != c.want {
			t.Errorf("%s: %q, want %q", c.legs, got, c.want)
		}
	}
}
