package feed

import (
	"reflect"
	"slices"
	"time"
)

// What the monitor offers those who watch the data rather than show it
// (alert rules): every settled reply, within the refresh that brought it;
// a way to post to every subscriber; and which feeds are being polled,
// so that a rule adds a feed only for what nothing fetches already.

// Observe adds f, called with every reply the monitor settles (a job's
// run included), after it is booked and before it is posted: what f
// concludes from it reaches the subscribers with it. f runs on the
// fetch's goroutine, outside the monitor's lock, and must not block.
// The returned cancel removes f (an alert pool that closes while the
// monitor lives on); f may still see a reply being delivered as it
// returns, never one settled after.
func (m *Monitor) Observe(f func(msg any)) (cancel func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o := &observer{f}
	m.obs = append(slices.Clip(m.obs), o)
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		// A new slice: an observe in progress walks the one it took.
		m.obs = slices.DeleteFunc(slices.Clone(m.obs), func(x *observer) bool { return x == o })
	}
}

// observer is one Observe: its own pointer, so that cancel removes it and
// no other observer of the same function.
type observer struct{ f func(any) }

// observe hands msg to every observer.
func (m *Monitor) observe(msg any) {
	for _, o := range m.observers() {
		o.f(msg)
	}
}

func (m *Monitor) observers() []*observer {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.obs
}

// Post puts msg in every subscriber's mailbox: what an observer
// concluded (an alert fired) reaches every screen and `--watch`. A
// subscriber that lags has a waiting message of msg's type (and sender,
// when it is a Sender) replaced by msg, or folded with it when it is a
// Folder (events joined, not lost).
func (m *Monitor) Post(msg any) {
	subs := m.subscribers()
	sl := slot{key: Key{Feed: FeedJob, Job: "post " + reflect.TypeOf(msg).String()}}
	if s, ok := msg.(Sender); ok {
		sl.key.Job += " from " + s.Sender()
	}
	for _, s := range subs {
		s.box.put(sl, msg)
	}
}

func (m *Monitor) subscribers() []*Subscription {
	m.mu.Lock()
	defer m.mu.Unlock()
	subs := make([]*Subscription, 0, len(m.subs))
	for s := range m.subs {
		subs = append(subs, s)
	}
	return subs
}

// Sender is a posted message that says who sent it, where several
// observers of one monitor post messages of one type (each trader's alert
// rules on a served desk): a lagging subscriber keeps one waiting message
// per type and sender, so that one sender's never replaces another's nor
// is folded into it.
type Sender interface{ Sender() string }

// Folder is a posted message that a newer one of its type may be folded
// into while a subscriber lags: Fold returns what waits in their place.
type Folder interface{ Fold(next any) any }

// Polled are the feeds being polled at now, each with the parameters in
// force (a job is not a feed of data): what a subscriber shows, which an
// observer sees come by without asking for it.
func (m *Monitor) Polled(now time.Time) []Want {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Want
	for _, e := range m.feeds {
		if !e.visible || e.key.Feed == FeedJob || m.held(e) || !e.key.Feed.polled(m.conditions(e, now)) {
			continue
		}
		out = append(out, e.want)
	}
	return out
}

// Attention is whether anybody looks at what the monitor fetches: focused
// when some subscriber is, idle when every one is. A serve host sends it
// with its wants, so that the bus's source slows a host's feeds as it
// would a local screen's in front of an empty chair.
func (m *Monitor) Attention() Attention {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Attention{Focused: m.union.Focused, Idle: m.union.Idle}
}

// Wants are every feed the monitor keeps (a job aside), each with the
// parameters in force and Hidden when no subscriber shows it: what a
// serve host asks the bus's source to fetch for it (chainwatch/serve/bus).
func (m *Monitor) Wants() []Want {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Want, 0, len(m.feeds))
	for _, e := range m.feeds {
		if e.key.Feed == FeedJob {
			continue
		}
		w := e.want
		w.Hidden = !e.shown()
		out = append(out, w)
	}
	return out
}
