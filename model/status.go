package model

import (
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/ui"
)

// statusLine is the prompt while one is open, else the points and timers.
func (a *App) statusLine(width int, now time.Time) string {
	if p := a.promptOpen(); p != nil {
		return p.View()[0]
	}
	d := a.statusData(now)
	return ui.Status(&d, width, a.sh.Styles)
}

// statusData is what the status bar shows at now; the frame clock reads
// it too, to know whether a countdown is on screen.
func (a *App) statusData(now time.Time) ui.StatusData {
	snap := &a.link.Snap
	s := snap.Stats
	page := a.top().Status(now)
	d := ui.StatusData{
		Spent: s.SessionSpent, HourlyRate: s.HourlyRate, BudgetPerHour: s.BudgetPerHour, RateKnown: s.RateKnown, Daily: s.Daily,
		PointsLeft: -1,
		Hint:       page.Hint,
	}
	if k := a.sh.Keys; a.overlay == a.scan {
		// Letters are typed into the scanner's form: how to leave it.
		d.Hint = k.Close.Help().Key + " close scanner  " + k.Interrupt.Help().Key + " quit"
	}
	if v, ok := s.PointsLeft.Get(); ok {
		d.PointsLeft = v
	}
	shown := page.Shown
	st := snap.Feeds[shown]
	switch {
	case snap.Feeds[feed.FeedChain].NoSuch && shown != feed.FeedQuotes && shown != feed.FeedEvents || a.q.Historical(now):
		// Nothing will be polled: no pause to wait out, no next refresh.
	case !feed.SessionLive(now, a.q.Mode) && !st.InFlight && (st.Due.IsZero() || !st.Due.Before(feed.NextOpen(now, a.q.Mode))):
		d.Paused = feed.PauseText(now, a.q.Mode)
	case !st.Due.IsZero():
		// "next" is the chain's refresh (the watchlist's quotes on its
		// page): the prices a trader watches.
		d.NextFeed, d.Next = shown.String(), max(st.Due.Sub(now), 0)
	}
	if due := snap.Feeds[page.Next].Due; page.NextCost > 0 && !due.IsZero() && d.Paused == "" {
		d.NextFeed, d.Next, d.NextCost = page.Next.String(), max(due.Sub(now), 0), page.NextCost
	}
	if err := lastErr(page.Errs); err != nil {
		d.Err, d.ErrAge = feed.Describe(err, ""), now.Sub(err.At)
	} else if a.scr.notice != "" {
		d.Err = a.scr.notice
	}
	return d
}

// lastErr is the newest failure among the top page's parts that has not
// been followed by a success of the same part: an error the screen has
// recovered from is no longer news.
func lastErr(errs []error) *feed.FetchError {
	var last *feed.FetchError
	// A type assertion, not errors.As: this runs every frame, and a part's
	// Err is a *feed.FetchError or nil by its contract.
	for _, err := range errs {
		fe, _ := err.(*feed.FetchError)
		if fe != nil && !api.IsNoData(fe) && (last == nil || fe.At.After(last.At)) {
			last = fe
		}
	}
	return last
}
