package positioning

import (
	"math"
	"math/rand/v2"
	"time"

	"chainwatch/api"
)

// day is the fixtures' session: Tuesday 2026-11-24, 10:00 Eastern.
var (
	day = api.NewDate(2026, 11, 24)
	at  = time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern)
)

// fixture is a chain of nExp expiries (the first today, then every two
// days) of nStrikes strikes around 6000 five points apart, under two
// roots on every third expiry (SPX and SPXW), with random open interest,
// volume, IV and gamma, and about one field in twenty null, in the
// service's order. seed picks the numbers.
func fixture(nExp, nStrikes int, seed uint64) *api.SymbolWithOptions {
	rng := rand.New(rand.NewPCG(seed, 7))
	s := &api.SymbolWithOptions{}
	s.Symbol = "SPX"
	s.LastTradePrice = api.Some(6001.5)
	s.Timestamp = api.NewTimeOfDay(10, 0, 0, 0)
	maybe := func(v float64) api.Float {
		if rng.IntN(20) == 0 {
			return api.Float{}
		}
		return api.Some(v)
	}
	maybeN := func(v int64) api.Int {
		if rng.IntN(20) == 0 {
			return api.Int{}
		}
		return api.Some(v)
	}
	for e := range nExp {
		exp := day.AddDays(2 * e)
		roots := []string{"SPXW"}
		if e%3 == 2 {
			roots = []string{"SPX", "SPXW"}
		}
		for _, root := range roots {
			for k := range nStrikes {
				strike := 6000 + 5*float64(k-nStrikes/2)
				for _, typ := range []api.OptionType{api.Call, api.Put} {
					osi, _ := api.FormatOSI(root, exp, typ, strike)
					s.Options = append(s.Options, api.OptionData{
						Root: root, Expiry: exp, Strike: strike, OptionType: typ, Option: osi,
						OpenInterest: maybeN(int64(rng.IntN(20000))), Volume: maybeN(int64(rng.IntN(5000))),
						IV:    maybe(0.12 + 0.2*rng.Float64()),
						Gamma: maybe(0.004 * rng.Float64() * math.Exp(-math.Abs(strike-6000)/300)),
					})
				}
			}
		}
	}
	return s
}
