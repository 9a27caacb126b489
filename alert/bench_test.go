package alert_test

import (
	"fmt"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// benchAt is an open market on the synthetic chain's day.
var benchAt = time.Date(2026, 11, 20, 11, 0, 0, 0, api.Eastern)

// benchEngine is an engine of rules that is not started: the benchmark
// hands it replies as the monitor would (observe).
func benchEngine(b *testing.B, rules []alert.Rule) *alert.Engine {
	b.Helper()
	mon := feed.NewMonitor(feed.MonitorOptions{})
	b.Cleanup(mon.Close)
	for i := range rules {
		rules[i].Enabled = true
		rules[i] = rules[i].WithDefaults()
		rules[i].Name = fmt.Sprintf("rule %d", i)
	}
	e, err := alert.New(alert.Options{Monitor: mon, Now: func() time.Time { return benchAt }}, rules)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(e.Close)
	return e
}

// chainRules are n rules of a 20,000-contract chain, a quarter each of
// the underlying's price, IV30 moves, contracts' mids (of contracts in
// the chain) and unusual activity, none of which fires.
func chainRules(n int, ch *api.SymbolWithOptions) []alert.Rule {
	rules := make([]alert.Rule, 0, n)
	for i := range n {
		r := alert.Rule{Symbol: "SPY"}
		switch i % 4 {
		case 0:
			r.Kind, r.Above, r.Level = alert.KindPrice, true, 10_000+float64(i)
		case 1:
			r.Kind, r.Move = alert.KindIV30, 50+float64(i)
		case 2:
			r.Kind, r.Contract, r.Above, r.Level = alert.KindMid, ch.Options[(i*37)%len(ch.Options)].Option, true, 1000
		case 3:
			r.Kind, r.Ratio, r.MinVolume = alert.KindUnusual, 2, 1_000_000+int64(i)
		}
		rules = append(rules, r)
	}
	return rules
}

// BenchmarkRulesChain is 1,000 rules against a snapshot of 20,000
// contracts (an SPX chain's size), nothing firing: the time and the
// allocations of one snapshot, with 10 rules beside for the share that
// grows with the rules.
func BenchmarkRulesChain(b *testing.B) {
	ch := modeltest.SynthChain(50, 200, 0)
	ch.IV30 = api.Some(20.0)
	msg := any(feed.ChainMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live}, Chain: ch, At: benchAt})
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			e := benchEngine(b, chainRules(n, ch))
			e.Observe(msg)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.Observe(msg)
			}
		})
	}
}

// tapeRules are n rules of the tape: blocks by size and by premium, of
// the symbol and of contracts that print, and sweeps, none of which fires.
func tapeRules(n int) []alert.Rule {
	rules := make([]alert.Rule, 0, n)
	for i := range n {
		r := alert.Rule{Symbol: "SPY"}
		osi, _ := api.FormatOSI("SPY", modeltest.SynthDay, api.Call, 595+float64(i%10))
		switch i % 5 {
		case 0:
			r.Kind, r.MinSize = alert.KindBlock, 500+int64(i)
		case 1:
			r.Kind, r.MinPremium = alert.KindBlock, 1_000_000+float64(i)
		case 2:
			r.Kind, r.Contract, r.MinSize = alert.KindBlock, osi, 1000+int64(i)
		case 3:
			r.Kind, r.MinSize = alert.KindSweep, 1_000_000+int64(i)
		case 4:
			r.Kind, r.Contract, r.MinSize = alert.KindSweep, osi, 1_000_000+int64(i)
		}
		rules = append(rules, r)
	}
	return rules
}

// BenchmarkRulesTape is 1,000 rules against a page of 10,000 prints,
// nothing firing (each iteration sees the page as new).
func BenchmarkRulesTape(b *testing.B) {
	trades := modeltest.SynthTrades(1, 10_000)
	msg := feed.TapeMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live}, Day: modeltest.SynthDay, Trades: trades, At: benchAt}
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			e := benchEngine(b, tapeRules(n))
			e.Observe(msg)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e.RewindTape("SPY")
				e.Observe(msg)
			}
		})
	}
}

// BenchmarkPoolChain is a served desk's rules against one snapshot of
// 20,000 contracts: 200 rules as one engine, and as 20 traders' engines
// of 10 rules in one pool, each of which walks the chain for its own.
func BenchmarkPoolChain(b *testing.B) {
	ch := modeltest.SynthChain(50, 200, 0)
	ch.IV30 = api.Some(20.0)
	msg := any(feed.ChainMsg{Query: feed.Query{Symbol: "SPY", Mode: api.Live}, Chain: ch, At: benchAt})
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("engines=%d", n), func(b *testing.B) {
			mon := feed.NewMonitor(feed.MonitorOptions{})
			b.Cleanup(mon.Close)
			pool := alert.NewPool(alert.PoolOptions{Monitor: mon, Now: func() time.Time { return benchAt }})
			b.Cleanup(pool.Close)
			rules := chainRules(200, ch)
			for i := range rules {
				rules[i].Enabled = true
				rules[i] = rules[i].WithDefaults()
				rules[i].Name = fmt.Sprintf("rule %d", i)
			}
			per := len(rules) / n
			for i := range n {
				e, err := alert.New(alert.Options{Pool: pool}, rules[i*per:(i+1)*per])
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(e.Close)
				e.Listen()
			}
			pool.Observe(msg)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				pool.Observe(msg)
			}
		})
	}
}
