package feed

import (
	"context"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/market"
)

// Want is one feed a subscriber wants, with what the fetch needs. Two
// wants with the same Key are one feed, fetched once for both; the last
// subscriber to set its parameters (an expiry, the watchlist's symbols)
// sets them for both.
type Want struct {
	Feed Feed
	// Query is the subscriber's: what it is delivered carries it, its
	// generation included, so a part can still tell its replies apart.
	Query Query
	// OSI is the contract of the contract feeds (Query is then the
	// contract page's, with the page's generation).
	OSI api.OSI
	// Hidden keeps the feed and what it learnt (when it was last fetched,
	// its cursor) without polling it: the page that shows it is covered.
	// A feed no subscriber lists is forgotten.
	Hidden bool
	Expiry api.Date // FeedChain: the expiry polled between whole chains
	// Probe fetches an unfamiliar symbol's chain alone first (FeedChain):
	// if the service does not know it, the tape and calendar requests,
	// which cost several times the chain's points, are never made.
	Probe    bool
	Capacity int       // FeedTape: the trades the subscriber's tape holds
	Symbols  []string  // FeedQuotes, FeedEvents: the symbols to ask for
	Need     []string  // FeedEvents: symbols whose events were never fetched
	Greeks   GreeksAsk // FeedTapeGreeks: the contract to ask for next
	Job      *Job      // FeedJob
}

// GreeksAsk is the tape's next greeks request: a contract on screen with
// prints newer than what was asked for it, from its oldest such print. OK
// is false when every print on screen has been asked for.
type GreeksAsk struct {
	OSI     api.OSI
	From    int64
	MinTime api.TimeOfDay
	OK      bool
}

// Key names a feed: what is fetched, for which symbol, mode and day.
type Key struct {
	Feed   Feed
	Symbol string
	Mode   api.Mode
	Date   api.Date
	OSI    api.OSI
	Job    string
}

// Key is the feed w names.
func (w Want) Key() Key {
	k := Key{Feed: w.Feed, Symbol: w.Query.Symbol, Mode: w.Query.Mode, Date: w.Query.Date}
	switch {
	case w.Feed.contract():
		k.OSI = w.OSI
	case w.Feed.watchFeed():
		k.Symbol = ""
	case w.Feed == FeedJob && w.Job != nil:
		k = Key{Feed: FeedJob, Job: w.Job.Name, Mode: w.Job.Mode}
	}
	return k
}

// Attention is whether anybody is looking: points spent on a screen in a
// background tab or in front of an empty chair are wasted, so the feeds
// slow down when no subscriber is focused or every one is idle.
type Attention struct{ Focused, Idle bool }

// Subscription is one subscriber's side of the monitor: what it wants, and
// the mailbox its replies wait in, in order.
type Subscription struct {
	m     *Monitor
	wants map[Key]Want
	att   Attention
	box   mailbox
}

// Subscribe adds a subscriber that wants nothing yet.
func (m *Monitor) Subscribe() *Subscription {
	s := &Subscription{m: m, wants: map[Key]Want{}, att: Attention{Focused: true}}
	s.box.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subs[s] = struct{}{}
	return s
}

// Close drops every want of s; a feed nobody else wants is forgotten.
func (s *Subscription) Close() {
	s.Set(Attention{Focused: false, Idle: true})
	s.m.drop(s)
	s.box.close()
}

func (m *Monitor) drop(s *Subscription) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.subs, s)
	m.recount(m.clock.Now())
}

// Next waits for the next thing posted to s; false once s or the monitor
// is closed and the mailbox is empty, or ctx ends.
func (s *Subscription) Next(ctx context.Context) (any, bool) { return s.box.next(ctx) }

// Pending takes what waits in the mailbox without waiting.
func (s *Subscription) Pending() []any { return s.box.drain() }

// Set says what s wants now and whether anybody is looking: wants it no
// longer lists are dropped, new ones start (the chain, tape, calendar and
// contract at once, the others when the budget allows), a feed shown
// again is fetched when its interval since the last fetch is up. Calling
// it again with the same wants costs a comparison: a screen calls it after
// every message, and the recount walks every subscriber's wants, which
// for a served desk made each session's message cost grow with the
// number of sessions.
func (s *Subscription) Set(att Attention, wants ...Want) {
	posts, runs := s.set(att, wants)
	deliver(posts)
	s.m.start(runs...)
}

// set is Set's part under the lock: what to post and fetch after it.
func (s *Subscription) set(att Attention, wants []Want) ([]post, []func()) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	if att == s.att && s.wantsAll(wants) {
		return nil, []func(){m.askNeeded(now)} // events a reply just applied made due
	}
	next := make(map[Key]Want, len(wants))
	for _, w := range wants {
		next[w.Key()] = w
	}
	var dropped []*entry
	for k := range s.wants {
		if _, ok := next[k]; !ok {
			dropped = append(dropped, m.feeds[k])
		}
	}
	for _, e := range dropped {
		if e != nil {
			m.unwant(e, s)
		}
	}
	prev := s.wants
	s.wants, s.att = next, att
	// The chain first: whether it probes decides whether the others wait.
	keys := make([]Key, 0, len(next))
	for k := range next {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int { return int(a.Feed) - int(b.Feed) })
	var runs []func()
	var posts []post
	m.recount(now) // first: a page opened paces its feeds under what it shows
	for _, k := range keys {
		w := next[k]
		old, had := prev[k]
		if had && sameWant(old, w) && m.feeds[k] != nil {
			continue
		}
		if e := m.feeds[k]; e != nil && !had {
			posts = append(posts, e.replay.to(s, w)...) // what the others have: a feed joined shows at once
		}
		runs = append(runs, m.want(s, w, now))
	}
	return posts, append(runs, m.askNeeded(now))
}

// wantsAll reports whether wants are exactly what s wants already. Two
// pages may want one feed; as in Set, the last want of a key is the one.
func (s *Subscription) wantsAll(wants []Want) bool {
	var buf [16]Key
	seen := buf[:0]
	for i := len(wants) - 1; i >= 0; i-- {
		k := wants[i].Key()
		if slices.Contains(seen, k) {
			continue
		}
		seen = append(seen, k)
		if old, ok := s.wants[k]; !ok || !sameWant(old, wants[i]) {
			return false
		}
	}
	return len(seen) == len(s.wants)
}

// sameWant reports whether b asks for nothing a does not.
func sameWant(a, b Want) bool {
	return a.Query == b.Query && a.Hidden == b.Hidden && a.Expiry == b.Expiry && a.Probe == b.Probe &&
		a.Capacity == b.Capacity && a.Greeks == b.Greeks && a.Job == b.Job &&
		slices.Equal(a.Symbols, b.Symbols) && slices.Equal(a.Need, b.Need)
}

// want adds or updates s's want w, and starts or plans its feed.
func (m *Monitor) want(s *Subscription, w Want, now time.Time) func() {
	k := w.Key()
	e := m.feeds[k]
	made := e == nil
	if made {
		e = &entry{key: k, subs: map[*Subscription]Want{}}
		e.seq = -1
		e.held = w.Feed == FeedChain && w.Probe
		m.feeds[k] = e
	}
	old := e.want
	e.subs[s], e.want = w, w
	wasVisible := e.visible
	e.visible = e.shown()
	switch {
	case !e.visible:
		if wasVisible {
			e.gen++
			e.due = time.Time{}
			e.stopTimer()
		}
	case !wasVisible && !e.fetched && startsAtOnce(k.Feed) && !m.held(e):
		return m.fetch(e, now)
	case !wasVisible && k.Feed == FeedTerm:
		m.termFirst(e, now)
	case !wasVisible:
		m.plan(e, now)
	case k.Feed == FeedQuotes && gained(old.Symbols, w.Symbols) && e.inflight == 0 && e.fetched:
		m.planAfter(e, time.Time{}, now) // a symbol added: its quote now, not at the next refresh
	case k.Feed == FeedJob && !made && old.Job != w.Job:
		m.plan(e, now)
	}
	return nil
}

// shown reports whether some subscriber of e shows it.
func (e *entry) shown() bool {
	for _, sw := range e.subs {
		if !sw.Hidden {
			return true
		}
	}
	return false
}

// startsAtOnce are the feeds a new screen or page fetches before anything
// else: what it shows first.
func startsAtOnce(f Feed) bool {
	return f == FeedChain || f == FeedTape || f == FeedCalendar || f.contract() || f == FeedJob
}

// termFirst plans the term structure when the vol page opens: the whole
// chain the ladder holds stands for it until the first fetch, which waits
// its interval after that chain, and at least config.TermFirstDelay, so
// the page shows what a fetch costs before it is made and a quick look
// costs nothing.
func (m *Monitor) termFirst(e *entry, now time.Time) {
	last := time.Time{}
	if c := m.chainOf(e); c != nil {
		last = c.fullAt
	}
	every := m.sched.Interval(FeedTerm, m.conditions(e, now), now)
	if first := now.Add(config.TermFirstDelay - every); every > 0 && last.Before(first) {
		last = first
	}
	e.last = last
	m.plan(e, now)
}

func gained(old, now []string) bool {
	for _, s := range now {
		if !slices.Contains(old, s) {
			return true
		}
	}
	return false
}

// askNeeded asks for the events of symbols that have none yet (added to
// the watchlist since the events were fetched) once quotes have come and
// the subscriber has applied them: the first events are the feed's own.
func (m *Monitor) askNeeded(now time.Time) func() {
	for _, e := range m.feeds {
		if e.key.Feed != FeedEvents || !e.needDue {
			continue
		}
		if len(e.want.Need) == 0 {
			e.needDue = false // every symbol has its events
			continue
		}
		if !e.visible || e.last.IsZero() || e.inflight > 0 {
			continue
		}
		e.needDue = false
		run := m.askWatch(e, e.want.Need)
		e.inflight++
		e.gen++
		e.due = time.Time{}
		e.stopTimer()
		return m.runner(e, run)
	}
	return nil
}

// unwant drops s's want of e; a feed nobody wants is forgotten, and a
// reply still in flight for it is booked and dropped.
func (m *Monitor) unwant(e *entry, s *Subscription) {
	delete(e.subs, s)
	if len(e.subs) > 0 {
		return
	}
	e.stopTimer()
	delete(m.feeds, e.key)
}

// recount works out what the subscribers show together; when it changed,
// every feed is planned again under it (true).
func (m *Monitor) recount(now time.Time) bool {
	var c Conditions
	idle, n := true, 0
	for s := range m.subs {
		n++
		c.Focused = c.Focused || s.att.Focused
		idle = idle && s.att.Idle
		for _, w := range s.wants {
			if !w.Hidden {
				c.Shown = c.Shown.With(w.Feed)
			}
		}
	}
	c.Idle = idle && n > 0
	if c == m.union {
		return false
	}
	m.union = c
	for _, e := range m.feeds {
		if e.visible {
			m.plan(e, now)
		}
	}
	return true
}

// Refresh fetches s's feeds among fs now, whatever the timers say; a feed
// already in flight is not asked twice. A feed whose session it holds
// already (a past day's answer, a closed market's close) is not asked
// again: nothing in it can have changed, and the service would charge
// the same points for the same answer. What it did says so.
func (s *Subscription) Refresh(fs ...Feed) Refreshed {
	r, runs := s.refresh(fs)
	s.m.start(runs...)
	return r
}

func (s *Subscription) refresh(fs []Feed) (Refreshed, []func()) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	var runs []func()
	var r Refreshed
	for k := range s.wants {
		e := m.feeds[k]
		if e == nil || !slices.Contains(fs, k.Feed) || e.inflight > 0 || !e.visible {
			continue
		}
		if m.sessionHeld(e, now) {
			r.Held = ShownDay(e.want.Query, now)
			continue
		}
		if run := m.fetch(e, now); run != nil {
			runs = append(runs, run)
			r.Started++
		}
	}
	return r, runs
}

// Refreshed is what a Refresh did: the fetches it started, and the
// session it found held already (zero: none).
type Refreshed struct {
	Started int
	Held    api.Date
}

// Text is what the screen says of a refresh that fetched nothing because
// the session is held: "" when it fetched something or held nothing.
func (r Refreshed) Text() string {
	if r.Started > 0 || r.Held == 0 {
		return ""
	}
	return "nothing to refresh: " + r.Held.Time(api.Eastern).Format("Mon Jan 2") + " is closed and held, 0 pts spent"
}

// sessionHeld reports whether e holds its session's final state: its last
// fetch succeeded, nothing of it is pending (a catch-up page, a changed
// expiry), and either its day is past or the session it shows had closed
// when it was fetched. Polling waits for the next open then; so does
// the refresh key.
func (m *Monitor) sessionHeld(e *entry, now time.Time) bool {
	if e.key.Feed == FeedJob || !e.fetched || !e.st.done || e.catchUp > 0 || e.refetch || e.last.IsZero() {
		return false
	}
	c := m.conditions(e, now)
	if c.Historical {
		return true
	}
	if market.SessionLive(now, c.Mode) {
		return false
	}
	return !market.AfterHours(e.last, now, c.Mode).Equal(now)
}

// Refetch says what s's feed f shows has changed (another expiry): it is
// fetched as soon as the budget allows, after the reply in flight, which
// was for what it showed before. A past day's whole chain is held already
// and never changes: nothing to fetch.
func (s *Subscription) Refetch(f Feed) {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	for k := range s.wants {
		e := m.feeds[k]
		if e == nil || k.Feed != f || m.conditions(e, now).Historical {
			continue
		}
		if e.inflight > 0 {
			e.gen++
			e.due = time.Time{}
			e.stopTimer()
			e.refetch = true
			continue
		}
		m.planAfter(e, time.Time{}, now)
	}
}

// FeedStatus is what a subscriber may show of one of its feeds.
type FeedStatus struct {
	Wanted   bool
	Due      time.Time     // the next fetch; zero: none planned
	InFlight bool          // a request is out
	Interval time.Duration // the steady interval under the budget now; 0: not polled
	NoSuch   bool          // the chain: the service does not know the symbol
	Shared   int           // the subscribers that want the feed, this one included (SSH sessions)
}

// Snapshot is the monitor as a subscriber may show it at one moment: the
// budget's account and each of its feeds. A model takes one after each
// message, so that drawing reads it and changes nothing.
type Snapshot struct {
	Stats Stats
	Feeds [NumFeeds]FeedStatus
}

// Snapshot is s's view of the monitor at now.
func (s *Subscription) Snapshot(now time.Time) Snapshot {
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	snap := Snapshot{Stats: m.sched.Stats(now)}
	for k := range s.wants {
		e := m.feeds[k]
		if e == nil || k.Feed < 0 || k.Feed >= NumFeeds {
			continue
		}
		st := &snap.Feeds[k.Feed]
		st.Wanted, st.Due, st.InFlight, st.Shared = true, e.due, e.inflight > 0, len(e.subs)
		st.Interval = m.sched.Interval(k.Feed, m.conditions(e, now), now)
		if c := m.chainOf(e); c != nil {
			st.NoSuch = c.noSuch
		}
	}
	return snap
}

// post is one message for one subscriber.
type post struct {
	to   *Subscription
	slot slot
	msg  any
}

// postAll is msg for each subscriber of e, stamped with its own query.
func (m *Monitor) postAll(e *entry, msg any) []post {
	posts := make([]post, 0, len(e.subs))
	for s, w := range e.subs {
		posts = append(posts, post{s, slotOf(e.key, msg), stamp(msg, w)})
	}
	return posts
}

func deliver(posts []post) {
	for _, p := range posts {
		p.to.box.put(p.slot, p.msg)
	}
}
