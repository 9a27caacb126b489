package model

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/link"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/sandbox/quota"
)

// settle hands the App what its monitor posts until the watch screen's
// chain and tape are neither in flight nor due before the next open (the
// calendar, polled every few hours, only not in flight): on a closed
// market, or a past day, everything there is to hold is held.
func settle(t *testing.T, a *App, now time.Time) {
	t.Helper()
	quiet := func() bool {
		fv := a.feeds()
		for _, f := range []feed.Feed{feed.FeedChain, feed.FeedTape} {
			due := fv.Due(f)
			if fv.InFlight(f) || !due.IsZero() && due.Before(market.NextOpen(now, a.q.Mode)) {
				return false
			}
		}
		return !fv.InFlight(feed.FeedCalendar) && !a.ws().Chain().LastOK().IsZero()
	}
	for range 200 {
		for _, m := range a.link.Sub.Pending() {
			a.Update(link.Msg{Msg: m})
		}
		if quiet() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		m, ok := a.link.Sub.Next(ctx)
		cancel()
		if !ok {
			fv := a.feeds()
			t.Fatalf("the monitor posted nothing for 10 s: chain due %v, tape due %v, calendar due %v, loaded %v",
				fv.Due(feed.FeedChain), fv.Due(feed.FeedTape), fv.Due(feed.FeedCalendar), a.ws().Chain().LastOK())
		}
		a.Update(link.Msg{Msg: m})
	}
	t.Fatal("the feeds never settled in 200 messages")
}

// TestAppRefreshOfAHeldSessionSpendsNothing: on Thanksgiving (the market
// closed, the screen on Wednesday's close) and on a past day, r once the
// session is held fetches nothing, spends nothing and says so; the
// session's points and the trial's "left today" tell the same spending.
func TestAppRefreshOfAHeldSessionSpendsNothing(t *testing.T) {
	trial, ok := quota.PlanByName("trial")
	if !ok {
		t.Fatal("no trial plan")
	}
	thanksgiving := time.Date(2026, 11, 26, 10, 0, 0, 0, api.Eastern)
	for _, tc := range []struct {
		name string
		date api.Date
		held string
	}{
		{"closed market", 0, "Wed Nov 25"},
		{"past day", api.NewDate(2026, 11, 20), "Fri Nov 20"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := func() time.Time { return thanksgiving }
			client := modeltest.StartSandbox(t, sandbox.Config{Now: now, Plan: trial})
			a := New(Config{Client: client, Source: "SANDBOX", Symbol: "SPY", Date: tc.date, Now: now, Theme: "dark"})
			t.Cleanup(a.link.Close)
			a.Init()
			a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
			settle(t, a, thanksgiving)
			st := a.feeds().Stats(thanksgiving)
			left, ok := st.PointsLeft.Get()
			if !ok || !st.Daily || st.SessionSpent == 0 {
				t.Fatalf("stats %+v: want the trial's points known and some spent", st)
			}
			if int64(st.SessionSpent) != 500-left {
				t.Fatalf("session %d pts, but %d left today of 500: the two must tell the same spending", st.SessionSpent, left)
			}
			for i := range 6 {
				a.Update(runeKey('r'))
				settle(t, a, thanksgiving)
				got := a.feeds().Stats(thanksgiving)
				if got.SessionSpent != st.SessionSpent || got.PointsLeft != st.PointsLeft {
					t.Fatalf("press %d: spent %d→%d, left %v→%v: a held session costs nothing to refresh",
						i+1, st.SessionSpent, got.SessionSpent, st.PointsLeft, got.PointsLeft)
				}
			}
			want := "nothing to refresh: " + tc.held + " is closed and held, 0 pts spent"
			if frame := ansi.Strip(a.drawAt(thanksgiving)); !strings.Contains(frame, want) {
				t.Fatalf("the status bar does not say %q:\n%s", want, frame)
			}
		})
	}
}
