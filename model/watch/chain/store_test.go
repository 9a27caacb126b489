package chain

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/ui"
)

// checkStore requires the store to hold exactly the contracts of snap,
// grouped by expiry and ascending by strike.
func checkStore(t *testing.T, st *chainStore, snap *api.SymbolWithOptions) {
	t.Helper()
	want := map[string]api.OptionData{}
	for _, o := range snap.Options {
		want[o.Option] = o
	}
	got := 0
	for i, e := range st.exps {
		if i > 0 && st.exps[i-1].date >= e.date {
			t.Fatalf("expiries out of order at %d", i)
		}
		for j, r := range e.rows {
			if j > 0 && e.rows[j-1].Strike >= r.Strike {
				t.Fatalf("%s: strikes out of order at %d", e.date, j)
			}
			for _, c := range []*ui.Contract{&r.Call, &r.Put} {
				if !c.Listed() {
					continue
				}
				got++
				o, ok := want[c.OSI]
				if !ok {
					t.Fatalf("%s is not in the snapshot", c.OSI)
				}
				if o.Expiry != e.date || o.Strike != r.Strike || (o.OptionType == api.Put) != (c == &r.Put) {
					t.Fatalf("%s is in the wrong cell", c.OSI)
				}
				if !same(c.Bid, api.OrNaN(o.Bid)) || c.AskSize != intv(o.AskSize) || !same(c.IV, api.OrNaN(o.IV)) {
					t.Fatalf("%s: values not copied", c.OSI)
				}
			}
		}
	}
	if got != len(want) {
		t.Fatalf("store holds %d contracts, snapshot %d", got, len(want))
	}
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func TestChainStoreNullsAndOrder(t *testing.T) {
	snap := modeltest.SynthChain(3, 5, 1)
	snap.Options[0].Bid = api.Float{}
	snap.Options[0].Volume = api.Int{}
	var st chainStore
	st.applyFull(snap, 1)
	checkStore(t, &st, snap)
	c := &st.exps[0].rows[0].Call
	if !math.IsNaN(c.Bid) || c.Volume != -1 {
		t.Errorf("null bid %v volume %d, want NaN and -1", c.Bid, c.Volume)
	}
	if c.Changed != 0 {
		t.Errorf("a new contract flashes: %b", c.Changed)
	}
}

// The service's order is not relied on: a shuffled snapshot lands in the
// same cells, and the next shuffled one still diffs against them.
func TestChainStoreUnsorted(t *testing.T) {
	snap := modeltest.SynthChain(4, 30, 1)
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(snap.Options), func(i, j int) { snap.Options[i], snap.Options[j] = snap.Options[j], snap.Options[i] })
	var st chainStore
	st.applyFull(snap, 1)
	checkStore(t, &st, snap)

	next := modeltest.SynthChain(4, 30, 2)
	rng.Shuffle(len(next.Options), func(i, j int) { next.Options[i], next.Options[j] = next.Options[j], next.Options[i] })
	st.applyFull(next, 2)
	checkStore(t, &st, next)
	if c := st.exps[1].rows[3].Put; c.Changed&(1<<ui.ColAsk) == 0 || c.ChangedAt != 2 {
		t.Errorf("shuffled snapshot: ask change not flashed: %+v", c)
	}
}

func TestChainStoreFlash(t *testing.T) {
	a, b := modeltest.SynthChain(2, 10, 1), modeltest.SynthChain(2, 10, 1)
	up := &b.Options[4] // a call
	up.Ask = api.Some(up.Ask.V + 0.10)
	up.Volume = api.Some(up.Volume.V + 5)
	down := &b.Options[5] // its put
	down.Bid = api.Some(down.Bid.Or(1) - 0.05)
	var st chainStore
	st.applyFull(a, 100)
	st.applyFull(b, 200)
	for _, tc := range []struct {
		osi       string
		changed   ui.ColMask
		rose      ui.ColMask
		changedAt int64
	}{
		{up.Option, 1<<ui.ColAsk | 1<<ui.ColVolume, 1<<ui.ColAsk | 1<<ui.ColVolume, 200},
		{down.Option, 1 << ui.ColBid, bidRose(a.Options[5]), 200},
		{b.Options[0].Option, 0, 0, 0},
	} {
		c := st.find_(t, tc.osi)
		if c.Changed != tc.changed || c.Rose != tc.rose || c.ChangedAt != tc.changedAt {
			t.Errorf("%s: changed %b rose %b at %d, want %b %b %d", tc.osi, c.Changed, c.Rose, c.ChangedAt, tc.changed, tc.rose, tc.changedAt)
		}
	}
	// A third snapshot equal to the second changes nothing: the last flash
	// stays with its time, and fades on screen by itself.
	st.applyFull(synthChainCopy(b), 300)
	if c := st.find_(t, up.Option); c.ChangedAt != 200 {
		t.Errorf("unchanged cell re-flashed at %d", c.ChangedAt)
	}
}

// bidRose: a bid that was null and appears counts as rising.
func bidRose(o api.OptionData) ui.ColMask {
	if !o.Bid.Valid {
		return 1 << ui.ColBid
	}
	return 0
}

func synthChainCopy(s *api.SymbolWithOptions) *api.SymbolWithOptions {
	c := *s
	c.Options = slices.Clone(s.Options)
	return &c
}

func (s *chainStore) find_(t *testing.T, osi string) *ui.Contract {
	t.Helper()
	for i := range s.exps {
		for j := range s.exps[i].rows {
			r := &s.exps[i].rows[j]
			if r.Call.OSI == osi {
				return &r.Call
			}
			if r.Put.OSI == osi {
				return &r.Put
			}
		}
	}
	t.Fatalf("%s not held", osi)
	return nil
}

// A new strike takes the rebuild path; the contracts that were there still
// flash against their old values, and a contract gone is gone.
func TestChainStoreShapeChange(t *testing.T) {
	a := modeltest.SynthChain(2, 10, 1)
	b := modeltest.SynthChain(2, 11, 2)        // one more strike per expiry
	b.Options = slices.Delete(b.Options, 2, 3) // and the second strike's call is delisted
	var st chainStore
	st.applyFull(a, 1)
	st.applyFull(b, 2)
	checkStore(t, &st, b)
	if c := st.find_(t, b.Options[0].Option); c.Changed == 0 || c.ChangedAt != 2 {
		t.Errorf("rebuild lost the flash: %+v", c)
	}
	if r := st.exps[0].rows[1]; r.Call.Listed() || !r.Put.Listed() {
		t.Errorf("delisted call still listed: %+v", r.Call)
	}
	if c := st.exps[0].rows[10].Call; c.Changed != 0 {
		t.Errorf("new strike flashes: %b", c.Changed)
	}
}

func TestChainStoreExpiry(t *testing.T) {
	full := modeltest.SynthChain(3, 10, 1)
	var st chainStore
	st.applyFull(full, 1)
	before := slices.Clone(st.exps[0].rows)

	one := modeltest.SynthChain(2, 10, 5) // the service ignoring the filter: only modeltest.SynthDay+1 counts
	st.applyExpiry(modeltest.SynthDay.AddDays(1), one, 2)
	for i, r := range st.exps[0].rows {
		if r.Call.Volume != before[i].Call.Volume || r.Put.ChangedAt != before[i].Put.ChangedAt {
			t.Fatal("another expiry changed")
		}
	}
	if c := st.exps[1].rows[0].Call; c.ChangedAt != 2 || c.Volume != 105 {
		t.Errorf("expiry not updated: %+v", c)
	}
	// Again on the fast path, then a whole chain: both paths agree.
	st.applyExpiry(modeltest.SynthDay.AddDays(1), modeltest.SynthChain(2, 10, 6), 3)
	if c := st.exps[1].rows[0].Call; c.ChangedAt != 3 || c.Volume != 106 {
		t.Errorf("second expiry update: %+v", c)
	}
	st.applyFull(modeltest.SynthChain(3, 10, 7), 4)
	checkStore(t, &st, modeltest.SynthChain(3, 10, 7))
	// An expiry the whole chain did not list is inserted in order.
	late := modeltest.SynthChain(5, 10, 1)
	st.applyExpiry(modeltest.SynthDay.AddDays(4), late, 5)
	if len(st.exps) != 4 || st.exps[3].date != modeltest.SynthDay.AddDays(4) {
		t.Errorf("expiries %v", len(st.exps))
	}
}

// Two roots listing one expiry (SPX and SPXW): each keeps its own rows,
// the root named like the underlying first, and neither overwrites the
// other, whole chain or one expiry, rebuilt or on the fast path.
func TestChainStoreTwoRoots(t *testing.T) {
	s := &api.SymbolWithOptions{}
	s.Symbol = "SPX"
	for _, root := range []string{"SPXW", "SPX"} { // the service sorts by root first
		for _, k := range []float64{7000, 7050} {
			osi, _ := api.FormatOSI(root, modeltest.SynthDay, api.Call, k)
			s.Options = append(s.Options, api.OptionData{Root: root, Expiry: modeltest.SynthDay, Strike: k, OptionType: api.Call, Option: osi, Bid: api.Some(1.0)})
		}
	}
	// SPXW alone lists 7100.
	osi, _ := api.FormatOSI("SPXW", modeltest.SynthDay, api.Call, 7100)
	s.Options = append(s.Options, api.OptionData{Root: "SPXW", Expiry: modeltest.SynthDay, Strike: 7100, OptionType: api.Call, Option: osi, Bid: api.Some(1.0)})
	var st chainStore
	held := func(what string) {
		t.Helper()
		if len(st.exps) != 2 || st.exps[0].root != "SPX" || st.exps[1].root != "SPXW" || st.roots(modeltest.SynthDay) != 2 {
			t.Fatalf("%s: %d expiries", what, len(st.exps))
		}
		am, pm := st.rowsOf(modeltest.SynthDay, "SPX"), st.rowsOf(modeltest.SynthDay, "SPXW")
		if len(am) != 2 || am[0].Call.OSI != "SPX261120C07000000" || am[1].Call.OSI != "SPX261120C07050000" {
			t.Fatalf("%s: SPX rows %+v", what, am)
		}
		if len(pm) != 3 || pm[0].Call.OSI != "SPXW261120C07000000" || pm[2].Call.OSI != "SPXW261120C07100000" {
			t.Fatalf("%s: SPXW rows %+v", what, pm)
		}
		if rows := st.rowsOf(modeltest.SynthDay, "NOPE"); len(rows) != 2 {
			t.Fatalf("%s: an unknown root should read the first root's rows", what)
		}
	}
	st.applyFull(s, 1)
	held("rebuilt")
	st.applyFull(s, 2) // fast path on the same order
	held("fast path")
	st.applyExpiry(modeltest.SynthDay, s, 3)
	held("one expiry")
	st.applyExpiry(modeltest.SynthDay, s, 4)
	held("one expiry, fast path")
}

// The usual apply (same contracts, new prices) allocates nothing.
func TestChainStoreNoAllocs(t *testing.T) {
	snaps := [2]*api.SymbolWithOptions{modeltest.SynthChain(10, 50, 1), modeltest.SynthChain(10, 50, 2)}
	var st chainStore
	st.applyFull(snaps[0], 1)
	i := 0
	if n := testing.AllocsPerRun(20, func() { i++; st.applyFull(snaps[i%2], int64(i)) }); n != 0 {
		t.Errorf("%v allocations per snapshot", n)
	}
}

func TestIndicator(t *testing.T) {
	for _, tc := range []struct {
		bid, ask api.Float
		want     api.Indicator
	}{
		{api.Some(99.6), api.Some(100.4), api.Green},
		{api.Some(99.0), api.Some(101.0), api.Yellow},
		{api.Some(98.0), api.Some(102.0), api.Red},
		{api.Float{}, api.Some(100.0), ""},
	} {
		if got := indicator(tc.bid, tc.ask, api.Float{}); got != tc.want {
			t.Errorf("%v/%v: %q, want %q", tc.bid, tc.ask, got, tc.want)
		}
	}
}
