// Package feed is chainwatch's data feed, with no terminal in it: what
// the screen is looking at (Query, with a generation that retires late
// replies), the fetches that answer it, the point budget and the
// scheduler that paces them, and the monitor that posts every reply (a
// Reply) to its subscribers. The calendar and session hours it paces by
// are market's; the wording of a failure is api.Describe. The TUI
// (model/) subscribes to the monitor; headless commands call the fetches
// directly or run as a Job.
package feed

import (
	"time"

	"chainwatch/api"
	"chainwatch/market"
	"chainwatch/past"
)

// Query is what the screen is looking at. Gen rises whenever Symbol, Mode
// or Date changes; every fetch carries the Query it was made for, and a
// reply whose Gen is not the current one is dropped, so a slow answer for
// the symbol the user just left never overwrites the new one.
type Query struct {
	Symbol string
	Mode   api.Mode
	Date   api.Date // 0: today
	Gen    uint64
}

// Day is the date the query asks for: its Date, or today (Eastern) at now.
func (q Query) Day(now time.Time) api.Date {
	if q.Date != 0 {
		return q.Date
	}
	return api.Today(now)
}

// Historical reports whether the query asks for a past day's end-of-day
// state, which never changes and so is fetched once.
func (q Query) Historical(now time.Time) bool {
	return q.Date != 0 && api.IsHistorical(q.Date, api.Today(now))
}

// ShownDay is the day whose data q shows at now (market.ShownDay): its
// own date, else the session its mode's data is in or last saw.
func ShownDay(q Query, now time.Time) api.Date { return market.ShownDay(q.Date, q.Mode, now) }

// Same reports whether a reply made for r still belongs to q.
func (q Query) Same(r Query) bool { return q.Gen == r.Gen }

// ChainMsg is a chain snapshot (or its failure). Expiry 0 is the whole
// chain, which the screen fetches to learn the expiries and strikes;
// otherwise it is the one expiry polled.
type ChainMsg struct {
	Query  Query
	Expiry api.Date
	Chain  *api.SymbolWithOptions
	Resp   *api.Response
	Err    error
	At     time.Time // when the reply arrived
	// Past is the symbol against its stored year (PastOf), from the
	// store of past days at 0 points; nil without one.
	Past *past.Figures
}

// TapeMsg is a page of option trades from sequence number From (0: the
// first fetch, a window of the latest trades).
type TapeMsg struct {
	Query Query
	From  int64
	// Day is the session the trades are of, and Over whether it has
	// ended: the tape's title names a past day, and an empty tape of a
	// finished session does not read "no trades yet".
	Day  api.Date
	Over bool
	// Restart is a page from 0 that starts the tape over: a new session
	// began, or the backlog outgrew the subscriber's tape.
	Restart bool
	Trades  []api.OptionTrade
	Resp    *api.Response
	Err     error
	At      time.Time
}

// TermMsg is a whole chain fetched for the vol page's term structure;
// it is the ladder's chain too, every expiry fresh.
type TermMsg struct{ ChainMsg }

// FetchingMsg says a timed fetch of Feed has started: what the status bar
// counts down is no longer due.
type FetchingMsg struct{ Feed Feed }

// CalendarMsg is the symbol's earnings and dividends.
type CalendarMsg struct {
	Query  Query
	Events []api.CalendarEvent
	Resp   *api.Response
	Err    error
	At     time.Time
	// Moves are the realized moves of the symbol's last reports
	// (RealizedMoves), from the store of past days; nil without one.
	Moves []past.Move
}

// FetchError is a failed fetch and when it failed: the status bar says how
// long ago, and a success after At means the screen has recovered. The
// time travels inside the error, so a pane's Err is a plain error.
type FetchError struct {
	Err error
	At  time.Time
}

func (e *FetchError) Error() string { return e.Err.Error() }
func (e *FetchError) Unwrap() error { return e.Err }

// Failed is err stamped with at, or nil when err is nil.
func Failed(err error, at time.Time) error {
	if err == nil {
		return nil
	}
	return &FetchError{Err: err, At: at}
}
