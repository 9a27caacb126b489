package common

import (
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/ui"
)

// Bar is what the status bar shows of a page whose Status is s, from the
// monitor's snapshot, for the watch screen's query q at now: the points,
// the refresh it counts down or the pause, the newest failure of its
// parts. The root adds its notice and the overlay's hint.
func (s Status) Bar(snap *feed.Snapshot, q feed.Query, now time.Time) ui.StatusData {
	st := snap.Stats
	d := ui.StatusData{
		Spent: st.SessionSpent, FromHistory: st.FromHistory, HourlyRate: st.HourlyRate, BudgetPerHour: st.BudgetPerHour, RateKnown: st.RateKnown, Daily: st.Daily,
		PointsLeft: -1,
		Hint:       s.Hint,
	}
	if v, ok := st.PointsLeft.Get(); ok {
		d.PointsLeft = v
	}
	f := snap.Feeds[s.Shown]
	d.Shared = f.Shared
	switch {
	case snap.Feeds[feed.FeedChain].NoSuch && s.Shown != feed.FeedQuotes && s.Shown != feed.FeedEvents || q.Historical(now):
		// Nothing will be polled: no pause to wait out, no next refresh.
	case !market.SessionLive(now, q.Mode) && !f.InFlight && (f.Due.IsZero() || !f.Due.Before(market.NextOpen(now, q.Mode))):
		d.Paused = market.PauseText(now, q.Mode)
	case !f.Due.IsZero():
		// "next" is the chain's refresh (the watchlist's quotes on its
		// page): the prices a trader watches.
		d.NextFeed, d.Next = s.Shown.String(), max(f.Due.Sub(now), 0)
	}
	if due := snap.Feeds[s.Next].Due; s.NextCost > 0 && !due.IsZero() && d.Paused == "" {
		d.NextFeed, d.Next, d.NextCost = s.Next.String(), max(due.Sub(now), 0), s.NextCost
		if st.Free {
			d.NextCost = 0 // a bus host's answers cost it nothing: no "(4 pts)"
		}
	}
	if err := LastErr(s.Errs); err != nil {
		d.Err, d.ErrAge = api.Describe(err, ""), now.Sub(err.At)
	}
	return d
}

// LastErr is the newest of errs that has not been followed by a success
// of the same part: an error the screen has recovered from is no longer
// news.
func LastErr(errs []error) *feed.FetchError {
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

// HistoryNotice is what the client's store of past days says while saving
// is off or answers were dropped unsaved (chainwatch/history's
// Store.Notice), else why the flight recorder stopped; "" while both
// save, or without a client.
func HistoryNotice(c *api.Client) string {
	if c == nil {
		return ""
	}
	if n, ok := c.History().(interface{ Notice() string }); ok && n.Notice() != "" {
		return n.Notice()
	}
	// The flight recorder's: a full disk stops recording, not the screen.
	if n, ok := c.Recorder().(interface{ Notice() string }); ok {
		return n.Notice()
	}
	return ""
}

// StackStatus is the top page's Status (the last of stack), with the
// failures and the ticking of the page beneath when it asks for them
// (Below).
func StackStatus(stack []PageID, built []Page, now time.Time) Status {
	n := len(stack)
	st := built[stack[n-1]].Status(now)
	if st.Below && n > 1 {
		b := built[stack[n-2]].Status(now)
		st.Errs, st.Ticks = append(b.Errs, st.Errs...), st.Ticks || b.Ticks
	}
	return st
}

// Onto puts the root's notice on the bar d: a note when it is
// information, else the error, and never over a failure already there.
func (n Notice) Onto(d *ui.StatusData) {
	switch {
	case d.Err != "" || n.Text == "":
	case n.Info:
		d.Note = n.Text
	default:
		d.Err = n.Text
	}
}
