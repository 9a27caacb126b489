package watchlist

import (
	"strconv"
	"testing"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// BenchmarkWatchlistView draws a full watchlist (100 symbols, each with a
// full session sparkline) at 160x48, as every frame of the page does.
func BenchmarkWatchlistView(b *testing.B) {
	syms := make([]string, config.MaxWatchlist)
	for i := range syms {
		syms[i] = "S" + strconv.Itoa(i)
	}
	m := New(modeltest.Common(modeltest.Now), Options{Symbols: syms})
	m.SetQuery(q1)
	m.SetSize(160, 48)
	m.SetFocused(true)
	for tick := range config.SparkPoints {
		msg := feed.QuotesMsg{Query: q1, Symbols: syms, At: modeltest.Now}
		for i, s := range syms {
			msg.Quotes = append(msg.Quotes, quote(s, 100+float64(i)+float64(tick%7), 100, api.TimeOfDay(tick*1000)))
		}
		m.Apply(msg)
	}
	m.sortNext(1) // sorted by symbol: the sort runs on each Apply, not each View
	b.ReportAllocs()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkWatchlistApply applies a refresh of 100 symbols, sorted by
// change %: the work of each quotes reply.
func BenchmarkWatchlistApply(b *testing.B) {
	syms := make([]string, config.MaxWatchlist)
	for i := range syms {
		syms[i] = "S" + strconv.Itoa(i)
	}
	m := New(modeltest.Common(modeltest.Now), Options{Symbols: syms})
	m.SetQuery(q1)
	m.manual, m.sortCol, m.desc = false, 3, true
	msg := feed.QuotesMsg{Query: q1, Symbols: syms, At: modeltest.Now}
	for i, s := range syms {
		msg.Quotes = append(msg.Quotes, quote(s, 100+float64(i%13), 100, 1))
	}
	b.ReportAllocs()
	tick := 0
	for b.Loop() {
		tick++
		for i := range msg.Quotes {
			msg.Quotes[i].Timestamp = api.TimeOfDay(tick)
		}
		m.Apply(msg)
	}
}
