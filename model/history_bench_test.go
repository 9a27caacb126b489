package model

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/market"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

// BenchmarkPastDayLaunch is `chainwatch SPY --date D` twice on one store:
// the first launch buys the day's chain (3 points), the second is
// answered from the store (0 points, no request) and paints at least as
// fast. Each iteration is one pair of launches on a new store.
//
//	go test -run '^$' -bench PastDayLaunch -benchtime 5x ./model
func BenchmarkPastDayLaunch(b *testing.B) {
	now := sandbox.Clock(openMorning, 1)
	day := market.PrevTradingDay(api.Today(openMorning))
	var reqs modeltest.Requests
	sb, err := sandbox.Start(sandbox.Config{Now: now, PerSecond: 1000, Logger: reqs.Logger()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sb.Close() })
	var first, second time.Duration
	var firstReqs, secondReqs int
	for i := range b.N {
		st, err := history.Open(context.Background(), filepath.Join(b.TempDir(), "h.db"), "sandbox")
		if err != nil {
			b.Fatal(err)
		}
		for run := range 2 {
			ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: sb.DemoSecret})
			if err != nil {
				b.Fatal(err)
			}
			client, err := api.NewClient(api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(now), api.WithHistory(st))
			if err != nil {
				b.Fatal(err)
			}
			before := reqs.Count("/option-and-underlying-quotes")
			lp := startProgram(b, "SPY", openMorning, colorprofile.ANSI256, func(c *Config) { c.Client, c.Date, c.Now = client, day, now })
			start := time.Now()
			select {
			case <-lp.chain:
			case <-time.After(60 * time.Second):
				b.Fatal("no chain in 60 s")
			}
			took := time.Since(start)
			lp.p.Quit()
			<-lp.done
			n := reqs.Count("/option-and-underlying-quotes") - before
			if run == 0 {
				first, firstReqs = first+took, firstReqs+n
			} else {
				second, secondReqs = second+took, secondReqs+n
			}
		}
		st.Close()
		_ = i
	}
	if secondReqs != 0 {
		b.Errorf("the second launch sent %d chain requests", secondReqs)
	}
	b.ReportMetric(float64(first)/float64(time.Millisecond)/float64(b.N), "ms/first")
	b.ReportMetric(float64(second)/float64(time.Millisecond)/float64(b.N), "ms/second")
	b.ReportMetric(float64(firstReqs)/float64(b.N), "requests/first")
	b.ReportMetric(float64(secondReqs)/float64(b.N), "requests/second")
	b.ReportMetric(0, "ns/op")
}
