package model

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/model/modeltest"
)

// BenchmarkAppWants is the root's work after every message to say what
// the pages want (the vol page over the loaded ladder): every page's
// wants, those of pages not shown hidden, a feed two pages want merged
// into one.
//
//	go test -run '^$' -bench AppWants -benchmem ./model
func BenchmarkAppWants(b *testing.B) {
	c := &clock{t: testNow}
	r := newRig(b, Config{Source: "SANDBOX", Symbol: "SPY", Now: c.Now, Theme: "dark"})
	r.a.Init()
	r.a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	r.answer(feed.FeedChain, feed.ChainMsg{Chain: modeltest.SynthChain(3, 60, 0), Resp: okResp(4), At: testNow})
	r.a.Update(runeKey('v'))
	for b.Loop() {
		r.a.wants()
	}
}
