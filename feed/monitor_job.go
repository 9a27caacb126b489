package feed

import (
	"context"
	"errors"
	"math"
	"time"

	"chainwatch/api"
	"chainwatch/market"
)

// Job is a headless command run again and again (`--watch`) as a feed of
// the monitor: paced by the same budget and the same session calendar as
// the screen's feeds, its replies posted like theirs.
type Job struct {
	Name  string        // the feed's name: two subscribers of one name share the runs
	Every time.Duration // the interval asked for; the budget may stretch it
	Mode  api.Mode      // whose session pauses it while the market is closed
	// Run does one run and says what it spent.
	Run func(ctx context.Context) JobResult
}

// JobResult is what one run brought: its value for the subscriber, the
// responses it took (their points and the month's balance), its error.
type JobResult struct {
	Value any
	Resps []*api.Response
	Err   error
}

// JobMsg is one run of a job, posted to its subscribers.
type JobMsg struct {
	Name string
	JobResult
	At    time.Time
	Run   int           // 0 for the first
	Every time.Duration // the interval in force after it: the asked one, or longer to stay within the budget
	Next  time.Time     // the next run: later than At+Every while the market is closed or a Retry-After holds
}

func runJob(ctx context.Context, j *Job, c Clock) Reply {
	r := j.Run(ctx)
	return JobMsg{Name: j.Name, JobResult: r, At: c.Now()}
}

// afterJob books a run: its points are spent on purpose, in the session's
// total and the balance but not the polling rate (as a scan's), and a 429
// holds every feed back. A failed run is not backed off: a log must keep
// going through a hiccup, on time.
func (m *Monitor) afterJob(e *entry, r JobMsg, now time.Time) JobMsg {
	e.last = r.At
	for _, resp := range r.Resps {
		m.sched.OutsideAt(resp, now)
	}
	if rl := (*api.RateLimitError)(nil); errors.As(r.Err, &rl) {
		m.sched.holdFor(rl, r.At)
	}
	cost := 0
	for _, resp := range r.Resps {
		if resp != nil {
			cost += resp.Cost
		}
	}
	e.every = Paced(cost, e.want.Job.Every, m.sched.BudgetPerHour(now))
	e.runs++
	m.plan(e, now)
	r.Run, r.Every, r.Next = e.runs-1, e.every, e.due
	return r
}

// jobWait is how long until e's next run: at once the first time, then its
// interval after the last, and while the market is closed not before it
// opens (the data does not change), nor before a Retry-After.
func (m *Monitor) jobWait(e *entry, now time.Time) time.Duration {
	if e.last.IsZero() {
		return max(m.sched.retryUntil.Sub(now), 0)
	}
	due := e.last.Add(e.every)
	if !market.SessionLive(now, e.key.Mode) {
		due = later(due, market.NextOpen(now, e.key.Mode))
	}
	return max(later(due, m.sched.retryUntil).Sub(now), 0)
}

// Paced is the interval at which cost points a run stay within perHour:
// the asked interval, or a longer one, in whole seconds rounded up (down
// would spend past the budget).
func Paced(cost int, asked time.Duration, perHour float64) time.Duration {
	if cost <= 0 || perHour <= 0 || math.IsInf(perHour, 0) {
		return asked
	}
	need := time.Duration(math.Ceil(float64(cost)/perHour*3600)) * time.Second
	return max(asked, need)
}
