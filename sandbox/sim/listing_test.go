package sim

import (
	"testing"
	"time"

	"chainwatch/api"
)

// TestListedStrikesKeepOpenInterest is the defect of the issue: SPY's
// Dec18 711 call (with open interest) vanished when spot fell from one day
// to the next, so a saved 710/711 vertical could no longer be valued. On
// days where the simulated SPY falls, every contract of Dec18 with open
// interest at the earlier close is still in the later chain, with open
// interest of its own (start-of-day open interest is the strike's base
// plus half of yesterday's volume, so a kept strike keeps some).
func TestListedStrikesKeepOpenInterest(t *testing.T) {
	m := at(2026, time.November, 27, 12, 0)
	var prev map[string]bool
	var prevSpot float64
	fell := false
	for _, d := range []api.Date{20261103, 20261104, 20261105, 20261106, 20261120, 20261124, 20261125, 20261127} {
		mo, err := m.Moment(api.Live, d)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := m.ChainExpiries("SPY", mo, Expiries{First: 20261218, Last: 20261218})
		if !ok || len(c.Options) == 0 {
			t.Fatalf("no SPY Dec18 chain on %v", d)
		}
		spot := c.Underlying.PrevDayClose.V
		cur := map[string]bool{}
		for _, o := range c.Options {
			oi, _ := o.OpenInterest.Get()
			cur[o.Option] = oi > 0
		}
		for name := range prev {
			has, listed := cur[name]
			if !listed {
				t.Errorf("%s had open interest before %v (spot %.2f to %.2f), gone on it", name, d, prevSpot, spot)
			} else if !has {
				t.Errorf("%s had open interest before %v, none on it", name, d)
			}
		}
		fell = fell || prev != nil && prevSpot-spot >= 3
		prev = map[string]bool{}
		for name, has := range cur {
			if has {
				prev[name] = true
			}
		}
		prevSpot = spot
	}
	if !fell {
		t.Error("no fall of $3 between the days: the test checks nothing")
	}
}
