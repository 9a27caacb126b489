package alert

import (
	"context"
	"slices"
	"sync"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// Pool is the alert engines of one monitor whose own fetches are one job
// (a served desk: each trader's rules, and the desk's): at each run, what
// the enabled rules of any member need and no feed being polled brings is
// fetched once, whoever's rules need it, and every member evaluates what
// came. Two traders' rules on QQQ's price cost one quote request a run,
// not two. The pool is the monitor's one observer for its members: an
// engine that closes leaves it. A monitor has one pool (its job's name is
// the same in every pool).
type Pool struct {
	o      PoolOptions
	job    *feed.Job
	ctx    context.Context
	cancel context.CancelFunc
	wantMu sync.Mutex // orders the job's wants: the last set is the last computed

	mu        sync.Mutex
	members   []*Engine // listening, in the order they joined; replaced, never changed in place
	observing bool
	unobserve func()               // removes observe from the monitor: Close calls it
	sub       *feed.Subscription   // the job's subscriber, from the first Fetch
	last      *feed.JobMsg         // the last run: a member that starts fetching is evaluated on it
	scanAt    map[string]time.Time // by scan request: its last run
}

// PoolOptions are what the members of a pool share.
type PoolOptions struct {
	Monitor *feed.Monitor // required
	// Fetcher does the rules' own fetches (feed.Source); nil: a rule whose
	// data nothing on screen fetches waits for the screen.
	Fetcher feed.Fetcher
	// RunScan runs a scan rule's scan (scan.Run on the client).
	RunScan func(ctx context.Context, s scan.Scan) (scan.Outcome, error)
	Mode    api.Mode      // the data path the rules watch; default live
	Every   time.Duration // how often the rules' own data is fetched; default config.AlertEvery
	Now     func() time.Time
}

// NewPool is a pool with no member yet.
func NewPool(o PoolOptions) *Pool {
	if o.Mode == "" {
		o.Mode = api.Live
	}
	if o.Every <= 0 {
		o.Every = config.AlertEvery
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool{o: o, ctx: ctx, cancel: cancel, scanAt: map[string]time.Time{}}
	p.job = &feed.Job{Name: jobName, Every: o.Every, Mode: o.Mode, Run: p.run}
	return p
}

// join adds e to the members evaluated on every reply, and observes the
// monitor the first time.
func (p *Pool) join(e *Engine) {
	p.mu.Lock()
	if slices.Contains(p.members, e) || p.ctx.Err() != nil {
		p.mu.Unlock()
		return
	}
	p.members = append(p.members[:len(p.members):len(p.members)], e)
	first := !p.observing
	p.observing = true
	p.mu.Unlock()
	if !first {
		return
	}
	cancel := p.o.Monitor.Observe(p.observe)
	p.mu.Lock()
	closed := p.ctx.Err() != nil
	if !closed {
		p.unobserve = cancel
	}
	p.mu.Unlock()
	if closed {
		cancel() // closed while it joined
	}
}

// leave drops e: it is evaluated no more and its rules fetch nothing.
func (p *Pool) leave(e *Engine) {
	p.mu.Lock()
	p.members = slices.DeleteFunc(slices.Clone(p.members), func(m *Engine) bool { return m == e })
	p.mu.Unlock()
	p.want()
}

// observe is the monitor's observer: every member evaluates msg, within
// the refresh that brought it, and a run of the job is said once.
func (p *Pool) observe(msg any) {
	p.mu.Lock()
	members := p.members
	p.mu.Unlock()
	if p.ctx.Err() != nil {
		return // closed: the monitor may outlive it
	}
	for _, e := range members {
		e.observe(msg)
	}
	j, ok := msg.(feed.JobMsg)
	if !ok || j.Name != jobName {
		return
	}
	last := j // only a run is kept (a &j would put every reply on the heap)
	p.mu.Lock()
	p.last = &last
	p.mu.Unlock()
	r := RunMsg{At: j.At, Next: j.Next, Every: j.Every, Err: j.Err}
	for _, resp := range j.Resps {
		if resp != nil {
			r.Points += resp.Cost
		}
	}
	p.o.Monitor.Post(r)
}

// fetch starts the job's subscription the first time, evaluates e on the
// last run while it is the one in force (a trader who logs in sees what
// the desk's rules fetched without waiting for the next), and wants the
// job.
func (p *Pool) fetch(e *Engine) {
	p.mu.Lock()
	if p.ctx.Err() != nil {
		p.mu.Unlock()
		return
	}
	if p.sub == nil {
		p.sub = p.o.Monitor.Subscribe()
		go p.drain(p.sub)
	}
	last := p.last
	p.mu.Unlock()
	if last != nil && p.o.Now().Before(last.Next) {
		e.observe(*last)
	}
	p.want()
}

// drain empties the job's mailbox: the pool reads nothing from it (it
// observes every reply), but what is posted to every subscriber lands
// there too.
func (p *Pool) drain(sub *feed.Subscription) {
	for {
		if _, ok := sub.Next(p.ctx); !ok {
			return
		}
	}
}

// want tells the monitor the job: it runs every Every while a member
// fetches with a rule on. Nobody watches it (it does not speed the
// screens' feeds up), and its cost counts as points spent on purpose.
func (p *Pool) want() {
	p.wantMu.Lock()
	defer p.wantMu.Unlock()
	p.mu.Lock()
	sub, members := p.sub, p.members
	p.mu.Unlock()
	if sub == nil {
		return
	}
	on := false
	for _, e := range members {
		on = on || e.wantsFetch()
	}
	att := feed.Attention{Idle: true}
	if !on || p.o.Fetcher == nil {
		sub.Set(att)
		return
	}
	sub.Set(att, feed.Want{Feed: feed.FeedJob, Job: p.job})
}

// Close stops the job; the members go on evaluating nothing more.
func (p *Pool) Close() {
	p.wantMu.Lock()
	defer p.wantMu.Unlock()
	p.mu.Lock()
	sub, unobserve := p.sub, p.unobserve
	p.sub, p.last, p.unobserve = nil, nil, nil
	p.cancel()
	p.mu.Unlock()
	if sub != nil {
		sub.Close()
	}
	if unobserve != nil {
		unobserve() // the monitor may outlive the pool (serve's desk)
	}
}

// others are the needs of the enabled rules of the members but e that
// fetch (their scans aside: a scan is its owner's), for the share of a
// rule of e's that another's fetch brings.
func (p *Pool) others(e *Engine) []need {
	p.mu.Lock()
	members := p.members
	p.mu.Unlock()
	var out []need
	for _, m := range members {
		if m == e {
			continue
		}
		m.mu.Lock()
		for _, rs := range m.rules {
			if n := needOf(rs.Rule); rs.Enabled && m.fetching && n.kind != needScan {
				out = append(out, n)
			}
		}
		m.mu.Unlock()
	}
	return out
}
