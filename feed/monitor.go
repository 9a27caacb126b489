package feed

import (
	"context"
	"fmt"
	"sync"
	"time"

	"chainwatch/api"
)

// Monitor fetches the feeds its subscribers want, each once however many
// want it, within one point budget, and posts every reply to each of them.
// It owns what the watch screen's model used to: the timers, the
// generations that outdate them, the requests in flight, the budget, and
// the one place a reply is booked (settle). It has no terminal in it: the
// TUI subscribes through an adapter that turns what it posts into
// messages, `--watch` through a loop, and more subscribers in one process
// (alert rules, SSH sessions) the same way.
//
// Every method is safe for concurrent use. Nothing is fetched or posted
// while its lock is held: a subscriber's callback into the monitor (a new
// Set after a reply) cannot deadlock it. Every critical section lets the
// lock go on a panic too (deferred), and a fetch that panics settles as a
// failed reply (runner): on a served desk one panic must not freeze every
// session.
type Monitor struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	src    Fetcher
	clock  Clock
	spawn  func(func())
	sched  *Scheduler
	feeds  map[Key]*entry
	subs   map[*Subscription]struct{}
	union  Conditions // what the subscribers show and whether anybody looks, for pacing (Mode and Historical are per feed)

	obs []*observer // observers of every settled reply (monitor_observe.go); replaced, never changed in place
}

// MonitorOptions builds a Monitor. Fetcher is required.
type MonitorOptions struct {
	Fetcher Fetcher
	Clock   Clock  // default: the system's
	Budget  Budget // default: DefaultBudget
	// Spawn runs a fetch; default a goroutine. Tests run fetches when they
	// choose to, so that every step is theirs to see.
	Spawn func(func())
}

// NewMonitor starts a monitor with no subscriber; it fetches nothing
// until one wants something. Close stops it.
func NewMonitor(o MonitorOptions) *Monitor {
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	if o.Budget == (Budget{}) {
		o.Budget = DefaultBudget()
	}
	if o.Spawn == nil {
		o.Spawn = func(f func()) { go f() }
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Monitor{ctx: ctx, cancel: cancel, src: o.Fetcher, clock: o.Clock, spawn: o.Spawn,
		sched: NewScheduler(o.Budget), feeds: map[Key]*entry{}, subs: map[*Subscription]struct{}{}}
}

// Close cancels every request in flight and every timer; subscribers'
// Next returns false once their mailbox is empty.
func (m *Monitor) Close() {
	for s := range m.closed() {
		s.box.close()
	}
}

// closed forgets every feed and subscriber, and returns the subscribers.
func (m *Monitor) closed() map[*Subscription]struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cancel()
	for _, e := range m.feeds {
		e.stopTimer()
	}
	m.feeds = map[Key]*entry{}
	subs := m.subs
	m.subs = map[*Subscription]struct{}{}
	return subs
}

// Outside books points spent on purpose outside the feeds (a scan): in the
// session's total and the balance, not in the polling rate.
func (m *Monitor) Outside(resp *api.Response) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sched.OutsideAt(resp, m.clock.Now())
}

// Stats is the budget's account at now.
func (m *Monitor) Stats(now time.Time) Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sched.Stats(now)
}

// entry is one feed being fetched: its key, the parameters in force, who
// wants it, and its timer and reply bookkeeping.
type entry struct {
	key      Key
	want     Want                   // the parameters in force: the last subscriber's to set them
	subs     map[*Subscription]Want // each subscriber's own want (its query's generation)
	visible  bool                   // some subscriber shows it: it is polled
	st       feedState
	gen      uint64 // raised by every plan and fetch: an older timer is moot
	last     time.Time
	due      time.Time // the next fetch planned; zero: none
	fetched  bool      // a fetch was started since the entry was made
	inflight int
	timer    Stopper
	replay   replay // its newest replies, for a subscriber that joins it
	feedCursor
}

// feedCursor is what a feed must remember between fetches to ask only for
// what is new, and the chain's state that holds the others back.
type feedCursor struct {
	fullAt    time.Time // chain: the last whole chain
	held      bool      // chain: the other feeds wait for its first answer (an unfamiliar symbol)
	noSuch    bool      // chain: the service does not know the symbol; nothing of it is polled
	refetch   bool      // chain: the expiry changed while a fetch was in flight
	day       api.Date  // tape: the session it holds
	seq       int64     // tape, contract trades and quotes: the last sequence number held; -1: none
	seqTime   api.TimeOfDay
	catchUp   int  // tape, contract: full pages fetched back to back
	restarted bool // tape: it started over in this catch-up
	paged     bool // tape: a page was asked for: a page from 0 now starts it over
	refused   bool // contract trades and quotes: the account may not see them
	needDue   bool // events: quotes came since the missing symbols' events were asked for
	every     time.Duration
	runs      int
}

func (e *entry) stopTimer() {
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
}

// conditions is the union of what is shown, with e's mode and day.
func (m *Monitor) conditions(e *entry, now time.Time) Conditions {
	c := m.union
	c.Mode = e.key.Mode
	c.Historical = Query{Date: e.key.Date}.Historical(now)
	return c
}

// chainOf is the chain entry of e's query, which holds the others back
// while it probes an unfamiliar symbol or after it found none; nil for the
// watchlist's feeds and jobs, which belong to no symbol.
func (m *Monitor) chainOf(e *entry) *entry {
	if e.key.Symbol == "" || e.key.Feed == FeedJob {
		return nil
	}
	k := e.key
	k.Feed, k.OSI = FeedChain, api.OSI{}
	return m.feeds[k]
}

// held reports whether e waits on its chain.
func (m *Monitor) held(e *entry) bool {
	c := m.chainOf(e)
	return c != nil && (c.noSuch || c.held && e != c)
}

// plan arms e's timer for its next fetch, outdating any earlier timer.
func (m *Monitor) plan(e *entry, now time.Time) { m.planAfter(e, e.last, now) }

// planAfter is plan as if e was last fetched at last; the zero time asks
// for the soonest fetch the budget allows (a pending Retry-After only). A
// feed with a request in flight is planned when the reply arrives.
func (m *Monitor) planAfter(e *entry, last, now time.Time) {
	e.gen++
	e.due = time.Time{}
	e.stopTimer()
	if e.inflight > 0 || !e.visible || m.held(e) {
		return
	}
	var d time.Duration
	if e.key.Feed == FeedJob {
		d = m.jobWait(e, now)
	} else {
		c := m.conditions(e, now)
		if !e.key.Feed.polled(c) {
			return
		}
		var ok bool
		if d, ok = m.sched.next(e.key.Feed, e.st, c, last, now); !ok {
			return
		}
	}
	e.due = now.Add(d)
	gen := e.gen
	e.timer = m.clock.AfterFunc(d, func() { m.fire(e, gen) })
}

// fire is a timer: the fetch it was armed for, unless outdated.
func (m *Monitor) fire(e *entry, gen uint64) {
	posts, run := m.fired(e, gen)
	deliver(posts)
	m.start(run)
}

// fired starts the fetch a timer was armed for, under the lock.
func (m *Monitor) fired(e *entry, gen uint64) ([]post, func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.feeds[e.key] != e || gen != e.gen {
		return nil, nil
	}
	now := m.clock.Now()
	e.due, e.timer = time.Time{}, nil
	if e.key.Feed != FeedJob {
		m.sched.Polled(now)
	}
	run := m.fetch(e, now)
	return m.postAll(e, FetchingMsg{Feed: e.key.Feed}), run
}

// fetch starts e's request now, or returns nil when there is nothing to
// ask (see ask). It is called with the lock held; start runs what it
// returns after the lock is let go.
func (m *Monitor) fetch(e *entry, now time.Time) func() {
	run := m.ask(e, now)
	if run == nil {
		return nil
	}
	e.inflight++
	e.gen++ // a timer armed before this fetch is now moot
	e.due = time.Time{}
	e.fetched = true
	e.stopTimer()
	return m.runner(e, run)
}

// runner is the fetch run as a spawned function. A fetch that panics is
// booked as a failed reply of its feed (failedReply) before the panic
// goes on to whoever spawned it (serve's relay logs it with its stack):
// the feed's request in flight is settled and it goes on being polled.
func (m *Monitor) runner(e *entry, run func(context.Context) Reply) func() {
	ctx := m.ctx
	return func() {
		defer func() {
			if p := recover(); p != nil {
				m.reply(e, failedReply(e.key, fmt.Errorf("fetching the %s failed: %v", e.key.Feed, p), m.clock.Now()))
				panic(p)
			}
		}()
		m.reply(e, run(ctx))
	}
}

func (m *Monitor) start(runs ...func()) {
	for _, r := range runs {
		if r != nil {
			m.spawn(r)
		}
	}
}

// reply books what a fetch of e brought and posts it to e's subscribers.
// Its points always count, since the service charged them whether or not
// anybody still wants the answer; the rest only while e is still the feed
// being fetched (not dropped, its query not replaced).
func (m *Monitor) reply(e *entry, msg Reply) {
	msg, posts, runs, ok := m.booked(e, msg)
	if !ok {
		return
	}
	m.observe(msg)
	deliver(posts)
	m.start(runs...)
}

// booked is reply's part under the lock: false when e is no longer the
// feed being fetched (its points booked all the same).
func (m *Monitor) booked(e *entry, msg Reply) (Reply, []post, []func(), bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.feeds[e.key] != e {
		for _, r := range respsOf(msg) {
			m.sched.Spend(r)
		}
		return nil, nil, nil, false
	}
	now := m.clock.Now()
	if e.inflight > 0 {
		e.inflight--
	}
	msg, runs := m.settle(e, msg, now)
	e.replay.keep(e.key, msg, e.want.Capacity)
	return msg, m.postAll(e, msg), runs, true
}

// settle is the one booking of a reply: when it came, what it cost, what
// the scheduler learns from it (a 204 is an answer, a refusal for want of
// a subscription is not a failure to retry), then what the feed does next.
// What is posted is msg as settled (a job's run says when the next is).
func (m *Monitor) settle(e *entry, msg Reply, now time.Time) (Reply, []func()) {
	if e.key.Feed == FeedJob {
		return m.afterJob(e, msg.(JobMsg), now), nil
	}
	resp, at, err := msg.Answer()
	e.last = at
	if api.IsNoData(err) || NotEntitled(err) && (e.key.Feed.contract() || e.key.Feed == FeedTapeGreeks) {
		err = nil
	}
	m.sched.observe(&e.st, resp, err, at)
	return msg, m.after(e, msg, now)
}

// respsOf is the responses a reply took, for booking a dropped one.
func respsOf(r Reply) []*api.Response {
	if j, ok := r.(JobMsg); ok {
		return j.Resps
	}
	resp, _, _ := r.Answer()
	return []*api.Response{resp}
}

// failedReply is the reply of k's feed that says err at at: what a fetch
// that panicked settles as.
func failedReply(k Key, err error, at time.Time) Reply {
	switch k.Feed {
	case FeedChain:
		return ChainMsg{Err: err, At: at}
	case FeedTerm:
		return TermMsg{ChainMsg{Err: err, At: at}}
	case FeedTape:
		return TapeMsg{From: -1, Err: err, At: at}
	case FeedCalendar:
		return CalendarMsg{Err: err, At: at}
	case FeedContractQuote:
		return ContractQuoteMsg{Err: err, At: at}
	case FeedContractTrades:
		return ContractTradesMsg{From: -1, Err: err, At: at}
	case FeedContractTAQ:
		return ContractTAQMsg{From: -1, Err: err, At: at}
	case FeedTapeGreeks:
		return TapeGreeksMsg{From: -1, Err: err, At: at}
	case FeedQuotes:
		return QuotesMsg{Err: err, At: at}
	case FeedEvents:
		return EventsMsg{Err: err, At: at}
	}
	return JobMsg{Name: k.Job, JobResult: JobResult{Err: err}, At: at}
}
