package model

import (
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/ui"
)

// headerData is the chain's quote plus what only the root knows: where
// the data comes from, in which mode, and how old it is.
func (a *App) headerData(now time.Time) ui.HeaderData {
	h := a.w.chain.Header()
	h.Source = a.cfg.Source
	h.Mode = a.q.Mode
	h.Date = feed.ShownDay(a.q, now)
	h.Historical = a.q.Historical(now)
	h.Closed = !h.Historical && !feed.SessionLive(now, a.q.Mode)
	last := a.w.chain.LastOK()
	h.Loading = a.w.chain.Loading()
	if !last.IsZero() {
		h.Age = max(now.Sub(last), 0)
	}
	switch fe, _ := a.w.chain.Err().(*feed.FetchError); {
	case h.Loading:
	case last.IsZero() && fe != nil:
		h.NoData = true // an age from nothing would freeze at 0s
	case fe != nil && fe.At.After(last):
		h.Stale = true
	case feed.SessionLive(now, a.q.Mode) && !h.Historical:
		limit := config.StaleAfter*a.feeds().Interval(feed.FeedChain, now) + 5*time.Second
		h.Stale = h.Age > limit
	}
	return h
}

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
	fv := a.feeds()
	s := fv.Stats(now)
	d := ui.StatusData{
		Spent: s.SessionSpent, HourlyRate: s.HourlyRate, BudgetPerHour: s.BudgetPerHour, RateKnown: s.RateKnown, Daily: s.Daily,
		PointsLeft: -1,
		Hint:       a.hint(),
	}
	if v, ok := s.PointsLeft.Get(); ok {
		d.PointsLeft = v
	}
	shown := a.top().shown()
	due := fv.Due(shown)
	switch {
	case fv.NoSuch() && shown != feed.FeedQuotes && shown != feed.FeedEvents || a.q.Historical(now):
		// Nothing will be polled: no pause to wait out, no next refresh.
	case !feed.SessionLive(now, a.q.Mode) && !fv.InFlight(shown) && (due.IsZero() || !due.Before(feed.NextOpen(now, a.q.Mode))):
		d.Paused = feed.PauseText(now, a.q.Mode)
	case !due.IsZero():
		// "next" is the chain's refresh (the watchlist's quotes on its
		// page): the prices a trader watches.
		d.NextFeed, d.Next = shown.String(), max(due.Sub(now), 0)
	}
	a.top().status(&d, now)
	if err := a.lastErr(); err != nil {
		d.Err, d.ErrAge = feed.Describe(err, ""), now.Sub(err.At)
	} else if a.scr.notice != "" {
		d.Err = a.scr.notice
	}
	return d
}

// lastErr is the newest failure among the panes that has not been
// followed by a success of the same pane: an error the screen has
// recovered from is no longer news.
func (a *App) lastErr() *feed.FetchError {
	var last *feed.FetchError
	// A type assertion, not errors.As: this runs every frame, and a pane's
	// Err is a *feed.FetchError or nil by its contract.
	// The top page's parts: the others are not polled.
	for _, err := range a.top().errs() {
		fe, _ := err.(*feed.FetchError)
		if fe != nil && !api.IsNoData(fe) && (last == nil || fe.At.After(last.At)) {
			last = fe
		}
	}
	return last
}

// hint is the status bar's reminder of the keys a newcomer needs first.
// Under the scanner modal, letters are typed into its form, so the hint
// says how to leave it instead.
func (a *App) hint() string {
	k := a.sh.Keys
	if a.overlay == a.parts.scan {
		return k.Close.Help().Key + " close scanner  " + k.Interrupt.Help().Key + " quit"
	}
	return a.top().hint()
}
