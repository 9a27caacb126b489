package feed

import (
	"strconv"

	"chainwatch/api"
)

// Feed is a periodic fetch. Each is polled while some subscriber shows it
// (a Want not Hidden); which page that is, the subscriber knows.
type Feed int

// The feeds. They are scheduled separately because they cost very
// different amounts: a tape poll costs about four chain refreshes.
const (
	FeedChain    Feed = iota // option-and-underlying-quotes of the selected expiry (api.EndpointOptionQuotes)
	FeedTape                 // option-trades, incremental (api.EndpointOptionTrades)
	FeedCalendar             // calendar (api.EndpointCalendar): refreshed rarely
	// FeedTerm is the whole chain for a term structure or positioning
	// (api.EndpointOptionQuotes): every expiry's ATM IV needs every
	// expiry, which the selected expiry's polling does not bring. It is
	// polled at most every few minutes, and never for a past day.
	FeedTerm
	// One contract's feeds: its snapshot, its trades with greeks, its
	// NBBO changes for the chart.
	FeedContractQuote  // option-and-underlying-quotes of one contract
	FeedContractTrades // option-trades-with-greeks, incremental
	FeedContractTAQ    // trades-and-quotes, NBBO changes, incremental
	// FeedTapeGreeks fills the tape's IV and delta columns, one visible
	// contract per fetch, while they are shown.
	FeedTapeGreeks
	FeedQuotes // the watchlist: underlying-quotes of all its symbols in one request (api.EndpointUnderlyingQuotes)
	FeedEvents // the watchlist's next earnings and ex-dividend dates, all symbols in one request (api.EndpointCalendar): rarely
	NumFeeds
)

var feedNames = [NumFeeds]string{"chain", "tape", "calendar", "expiries", "contract quote", "contract trades", "contract quotes", "tape greeks", "quotes", "events"}

// FeedJob is a headless command run again and again (--watch): not one
// of a screen's feeds, so outside the tables indexed by feed.
const FeedJob Feed = -1

func (f Feed) String() string {
	if f == FeedJob {
		return "job"
	}
	if f >= 0 && f < NumFeeds {
		return feedNames[f]
	}
	return "feed(" + strconv.Itoa(int(f)) + ")"
}

var feedEndpoints = [NumFeeds]api.Endpoint{api.EndpointOptionQuotes, api.EndpointOptionTrades, api.EndpointCalendar, api.EndpointOptionQuotes,
	api.EndpointOptionQuotes, api.EndpointTradesWithGreeks, api.EndpointTradesAndQuotes, api.EndpointTradesWithGreeks,
	api.EndpointUnderlyingQuotes, api.EndpointCalendar}

// rare reports whether f is an events feed: fetched every few hours, not
// paced by the session or the budget.
func (f Feed) rare() bool { return f == FeedCalendar || f == FeedEvents }

// FeedSet is a set of feeds: those some subscriber shows.
type FeedSet uint32

// A feed past the set's 32 bits would not compile here.
const _ = uint(32 - int(NumFeeds))

// FeedSetOf is the set of fs; a feed out of range is left out.
func FeedSetOf(fs ...Feed) FeedSet {
	var s FeedSet
	for _, f := range fs {
		s = s.With(f)
	}
	return s
}

// With is s and f.
func (s FeedSet) With(f Feed) FeedSet {
	if f < 0 || f >= NumFeeds {
		return s
	}
	return s | 1<<f
}

// Without is s less f.
func (s FeedSet) Without(f Feed) FeedSet {
	if f < 0 || f >= NumFeeds {
		return s
	}
	return s &^ (1 << f)
}

// Has reports whether f is in s.
func (s FeedSet) Has(f Feed) bool { return f >= 0 && f < NumFeeds && s&(1<<f) != 0 }

// polled reports whether f is fetched at all under c: a subscriber shows
// it, and it is not the term structure of a past day, whose whole chain
// the chain's first fetch brought and which never changes.
func (f Feed) polled(c Conditions) bool {
	return c.Shown.Has(f) && !(f == FeedTerm && c.Historical)
}
