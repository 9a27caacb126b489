package feed

import (
	"context"
	"time"

	"chainwatch/api"
)

// Clock is the monitor's time: what time it is, and a way to be called
// back later. The real one reads the program's clock (which may be the
// sandbox's) and waits in real time; tests inject one they advance by hand.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Stopper
}

// Stopper cancels a timer; a timer that already fired is left alone.
type Stopper interface{ Stop() bool }

// RealClock is now's time with real timers. With a Speed (the embedded
// sandbox's --sandbox-speed) a wait of d on its clock is d/Speed of real
// time, so what is paced on the market's clock keeps its pace.
type RealClock struct {
	NowFunc func() time.Time
	Speed   float64
}

// Now is NowFunc's time, or the system's.
func (c RealClock) Now() time.Time {
	if c.NowFunc != nil {
		return c.NowFunc()
	}
	return time.Now()
}

// AfterFunc calls f in its own goroutine after d of real time.
func (c RealClock) AfterFunc(d time.Duration, f func()) Stopper {
	if c.Speed > 0 && c.Speed != 1 {
		d = time.Duration(float64(d) / c.Speed)
	}
	return time.AfterFunc(d, f)
}

// Fetcher does the monitor's I/O, one method a feed. Source is the real
// one; tests answer with fixtures.
type Fetcher interface {
	Chain(ctx context.Context, q Query, expiry api.Date) ChainMsg
	Term(ctx context.Context, q Query) TermMsg
	Tape(ctx context.Context, q Query, day api.Date, from int64) TapeMsg
	Calendar(ctx context.Context, q Query) CalendarMsg
	ContractQuote(ctx context.Context, q ContractQuery) ContractQuoteMsg
	ContractTrades(ctx context.Context, q ContractQuery, from int64, minTime api.TimeOfDay) ContractTradesMsg
	ContractTAQ(ctx context.Context, q ContractQuery, from int64, minTime api.TimeOfDay) ContractTAQMsg
	TapeGreeks(ctx context.Context, q Query, osi api.OSI, day api.Date, from int64, minTime api.TimeOfDay) TapeGreeksMsg
	Quotes(ctx context.Context, q Query, symbols []string) QuotesMsg
	Events(ctx context.Context, q Query, symbols []string) EventsMsg
}

var _ Fetcher = Source{}
