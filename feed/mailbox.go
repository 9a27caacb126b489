package feed

import (
	"context"
	"slices"
	"sync"

	"chainwatch/api"
	"chainwatch/config"
)

// mailbox holds a subscriber's messages in order until it takes them: the
// monitor never waits for a subscriber. It is bounded: once lagLimit
// messages wait, a reply for a slot whose previous reply still waits
// takes its place (folded into it when the two are pages that continue
// one another), so a subscriber that lags (an SSH session whose client
// stopped reading) holds at most one message a slot beyond those and
// skips the replies it would only have drawn over, instead of queueing
// them. One that keeps up (or falls behind by a few, as `--watch` writing
// to a slow pipe may) sees every reply.
type mailbox struct {
	mu      sync.Mutex
	q       []letter
	ready   chan struct{}
	closed  bool
	skipped int // replies folded into a newer one
}

// lagLimit is how many messages wait before replies are folded: far more
// than a subscriber that keeps up ever holds (a few per refresh).
const lagLimit = 32

type letter struct {
	slot slot
	msg  any
}

// slot is what a waiting message may be replaced by: a newer one of the
// same feed and kind. A whole chain and one expiry's are two slots (the
// ladder takes an expiry's only after the whole chain that set it), as are
// each contract's tape greeks, and the fetch-started notice and the reply.
type slot struct {
	key      Key
	expiry   api.Date
	osi      string
	fetching bool
}

func slotOf(k Key, msg any) slot {
	if r, ok := msg.(Reply); ok {
		return r.slot(k)
	}
	_, fetching := msg.(FetchingMsg)
	return slot{key: k, fetching: fetching}
}

// stamp is msg as the subscriber that wants w sees it: a reply with its
// query, a notice as it is.
func stamp(msg any, w Want) any {
	if r, ok := msg.(Reply); ok {
		return r.stamped(w)
	}
	return msg
}

func (b *mailbox) init() { b.ready = make(chan struct{}, 1) }

func (b *mailbox) put(s slot, msg any) {
	b.enqueue(s, msg)
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

func (b *mailbox) enqueue(s slot, msg any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	i := -1
	if len(b.q) >= lagLimit {
		i = b.last(s) // the newest: a page continues the one just before it
	}
	if i < 0 {
		b.q = append(b.q, letter{s, msg})
	} else {
		b.q[i].msg = fold(b.q[i].msg, msg)
		b.skipped++
	}
}

// Skipped is how many replies to s were folded into a newer one while s
// lagged behind: what a slow reader did not have to queue.
func (s *Subscription) Skipped() int {
	s.box.mu.Lock()
	defer s.box.mu.Unlock()
	return s.box.skipped
}

func (b *mailbox) last(s slot) int {
	for i := len(b.q) - 1; i >= 0; i-- {
		if b.q[i].slot == s {
			return i
		}
	}
	return -1
}

func (b *mailbox) close() {
	b.mu.Lock()
	b.closed = true // nothing here can panic: no defer needed
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

func (b *mailbox) next(ctx context.Context) (any, bool) {
	for {
		msg, ok, closed := b.take()
		if ok {
			return msg, true
		}
		if closed {
			return nil, false
		}
		select {
		case <-b.ready:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// take is the first waiting message, if any, and whether b is closed.
func (b *mailbox) take() (msg any, ok, closed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.q) == 0 {
		return nil, false, b.closed
	}
	msg = b.q[0].msg
	b.q[0] = letter{}
	b.q = b.q[1:]
	return msg, true, b.closed
}

func (b *mailbox) drain() []any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]any, len(b.q))
	for i, l := range b.q {
		out[i] = l.msg
	}
	b.q = nil
	return out
}

// fold is what waits in a slot once next arrives behind old: next, or
// the two folded (Reply.foldInto: pages that continue one another are
// joined; Folder: what an observer posted).
func fold(old, next any) any {
	if n, ok := next.(Reply); ok {
		if o, ok := old.(Reply); ok {
			return n.foldInto(o)
		}
	}
	if f, ok := old.(Folder); ok { // a message posted by an observer (Post)
		return f.Fold(next)
	}
	return next
}

// joins reports whether a page from next follows one from old that waits
// unread: the same query, old an answer, next later. A page again from
// old's point (a retry after a failure) replaces it instead.
func joins(old, next int64, oldErr error, sameQuery bool) bool {
	return sameQuery && next > old && (oldErr == nil || api.IsNoData(oldErr))
}

// keepOld is the joined page, or the waiting one when the newer failed:
// a failed page would carry the trades into a reply the subscriber does
// not apply. The failure is asked again and shown once the reader is back.
func keepOld[T any](old, joined T, err error) T {
	if err != nil && !api.IsNoData(err) {
		return old
	}
	return joined
}

func concat[T any](a, b []T) []T { return append(slices.Clip(a), b...) }

// foldTape joins two tape pages of one session. Past the largest tape a
// subscriber can hold, the joined page starts the tape over on its latest
// trades, as the monitor does with a backlog: the bound of what waits.
func foldTape(o, n TapeMsg) TapeMsg {
	if n.From == 0 || o.Day != n.Day || !joins(o.From, n.From, o.Err, n.Query.Gen == o.Query.Gen) {
		return n
	}
	j := n
	j.From, j.Restart, j.Trades = o.From, o.Restart, concat(o.Trades, n.Trades)
	if len(j.Trades) > config.MaxTapeSize {
		j.From, j.Restart = 0, true
		j.Trades = j.Trades[len(j.Trades)-config.MaxTapeSize:]
	}
	return keepOld(o, j, n.Err)
}

// replay is a feed's newest replies, one a slot, tape and contract pages
// joined from the first (capped at the tape's capacity): what a
// subscriber that joins the feed later (a second SSH session on SPY) is
// handed at once, instead of an empty screen until the next refresh and
// a tape that never starts (a page applies only where the tape ended).
// The replies are kept without a query; each is stamped with the
// joiner's.
type replay struct{ q []letter }

func (r *replay) keep(k Key, msg any, capacity int) {
	msg = stamp(msg, Want{})
	s := slotOf(k, msg)
	for i := range r.q {
		if r.q[i].slot == s {
			msg = fold(r.q[i].msg, msg)
			if t, ok := msg.(TapeMsg); ok && capacity > 0 && len(t.Trades) > capacity {
				t.From, t.Restart, t.Trades = 0, true, slices.Clone(t.Trades[len(t.Trades)-capacity:])
				msg = t
			}
			r.q[i].msg = msg
			return
		}
	}
	r.q = append(r.q, letter{s, msg})
}

// to is the replay for a subscriber joining with w. A page that does not
// start a tape (no first page is held) would not apply, and is left out.
func (r *replay) to(s *Subscription, w Want) []post {
	posts := make([]post, 0, len(r.q))
	for _, l := range r.q {
		if p, ok := l.msg.(paged); ok && p.first() != 0 {
			continue
		}
		posts = append(posts, post{s, l.slot, stamp(l.msg, w)})
	}
	return posts
}
