package quota

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Config sets up a Ledger.
type Config struct {
	// Plan is every client's plan unless SetPlan says otherwise. The zero
	// Plan means DefaultPlan.
	Plan Plan
	// PerSecond is the sustained request rate per client; <= 0 is unlimited.
	PerSecond float64
	// Burst is how many requests a client may make at once; < 1 means
	// max(1, ceil(PerSecond)), one second's worth.
	Burst int
	// Now is the clock for periods and the rate limit; nil means time.Now.
	Now func() time.Time
}

// Idle is how long a client may stay silent before its rate limiter is
// dropped (a full limiter carries no state worth keeping), and sweepEvery
// how often the ledger looks for such clients. Together they bound the
// memory spent on clients that come and go.
const (
	Idle       = 10 * time.Minute
	sweepEvery = time.Minute
)

// Ledger holds the per-client state of one server. It is safe for
// concurrent use; one mutex guards everything, since each operation is a
// few map and arithmetic steps.
type Ledger struct {
	cfg Config

	mu        sync.Mutex
	accounts  map[string]*account
	plans     map[string]Plan // SetPlan overrides; tiny and configured, never swept
	lastSweep time.Time
}

// account is one client's state. Points used persist for the period; the
// limiter only while the client is active.
type account struct {
	end  time.Time // end of the period that used belongs to
	used int64     // points charged in the period
	held int64     // points reserved by requests still in flight
	lim  *rate.Limiter
	seen time.Time
}

// NewLedger returns an empty ledger.
func NewLedger(cfg Config) *Ledger {
	if cfg.Plan == (Plan{}) {
		cfg.Plan = DefaultPlan()
	}
	if cfg.Burst < 1 {
		cfg.Burst = max(1, int(math.Ceil(cfg.PerSecond)))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Ledger{cfg: cfg, accounts: map[string]*account{}, plans: map[string]Plan{}}
}

// SetPlan gives one client its own plan. Points already used in the period
// stay used; the period's end follows the new plan.
func (l *Ledger) SetPlan(client string, p Plan) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.plans[client] = p
	if a, ok := l.accounts[client]; ok {
		a.end = periodEnd(p, l.cfg.Now())
	}
}

// Refusal is a 429 to send instead of serving the request: Message is the
// one-line plain-text body and RetryAfter, whole seconds, the Retry-After
// header.
type Refusal struct {
	Status     int
	Message    string
	RetryAfter time.Duration
}

// RetryAfterHeader is RetryAfter as the Retry-After header value.
func (r *Refusal) RetryAfterHeader() string {
	return strconv.FormatInt(int64(r.RetryAfter/time.Second), 10)
}

// Reservation is the cost of one admitted request, held against the
// allowance until Commit or Cancel settles it.
type Reservation struct {
	l      *Ledger
	client string
	cost   int64
	done   bool // guarded by l.mu
}

// Reserve admits a request of cost points, or refuses it. The per-second
// limit is checked first, so a client hammering the server is told to slow
// down rather than that its allowance is gone; then the allowance, counting
// the points of this client's requests still in flight. A cost of 0
// (reference endpoints) never fails on the allowance but still counts
// toward the rate. A negative cost counts as 0.
func (l *Ledger) Reserve(client string, cost int) (*Reservation, *Refusal) {
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	a := l.account(client, now)
	if ref := l.limit(a, now); ref != nil {
		return nil, ref
	}
	c := int64(max(cost, 0))
	p := l.plan(client)
	if c > 0 && a.used+a.held+c > p.Points {
		renews := "tomorrow"
		if !p.Daily {
			renews = "on " + a.end.Format(time.DateOnly)
		}
		return nil, &Refusal{
			Status: http.StatusTooManyRequests,
			Message: fmt.Sprintf("%s points allowance used up (used %d of %d); it renews %s",
				periodWord(p), a.used+a.held, p.Points, renews),
			RetryAfter: retryAfter(a.end.Sub(now)),
		}
	}
	a.held += c
	return &Reservation{l: l, client: client, cost: c}, nil
}

// Commit charges the reservation (the request answered 200 or 204) and
// returns the client's counters after charging, for X-Monthly-Points-Used
// and X-Monthly-Points-Left. A request that straddles a period's end is
// charged to the new period: it is charged when it returns.
func (r *Reservation) Commit() (used, left int64) { return r.settle(true) }

// Cancel releases the reservation without charge (any other status) and
// returns the client's current counters. Commit and Cancel are idempotent;
// whichever comes first decides.
func (r *Reservation) Cancel() (used, left int64) { return r.settle(false) }

func (r *Reservation) settle(charge bool) (used, left int64) {
	l := r.l
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.account(r.client, now)
	if !r.done {
		r.done = true
		a.held = max(0, a.held-r.cost)
		if charge {
			a.used += r.cost
		}
	}
	return l.counters(r.client, a)
}

// Usage returns a client's counters without touching its rate limit.
func (l *Ledger) Usage(client string) (used, left int64) {
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.accounts[client]
	if !ok {
		return l.counters(client, &account{})
	}
	l.roll(client, a, now)
	return l.counters(client, a)
}

// counters is used and what is left of the plan, never negative (a plan
// lowered by SetPlan can leave a client above its new allowance).
func (l *Ledger) counters(client string, a *account) (used, left int64) {
	return a.used, max(0, l.plan(client).Points-a.used)
}

func (l *Ledger) plan(client string) Plan {
	if p, ok := l.plans[client]; ok {
		return p
	}
	return l.cfg.Plan
}

// account returns the client's account, created if new, rolled into the
// current period and marked as seen now. Called with l.mu held.
func (l *Ledger) account(client string, now time.Time) *account {
	a, ok := l.accounts[client]
	if !ok {
		a = &account{end: periodEnd(l.plan(client), now)}
		l.accounts[client] = a
	}
	l.roll(client, a, now)
	a.seen = now
	return a
}

// roll starts a new period once the current one has ended. Points held by
// requests in flight stay held: they will be charged in the new period.
func (l *Ledger) roll(client string, a *account, now time.Time) {
	if !now.Before(a.end) {
		a.used = 0
		a.end = periodEnd(l.plan(client), now)
	}
}

// limit takes one token from the client's limiter, or returns the 429 with
// the time until a token will be there.
func (l *Ledger) limit(a *account, now time.Time) *Refusal {
	if l.cfg.PerSecond <= 0 {
		return nil
	}
	if a.lim == nil {
		a.lim = rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst)
	}
	if a.lim.AllowN(now, 1) {
		return nil
	}
	wait := time.Duration((1 - a.lim.TokensAt(now)) / l.cfg.PerSecond * float64(time.Second))
	return &Refusal{
		Status: http.StatusTooManyRequests,
		Message: "rate limit exceeded: more than " +
			strconv.FormatFloat(l.cfg.PerSecond, 'f', -1, 64) + " requests per second",
		RetryAfter: retryAfter(wait),
	}
}

// sweep, at most once every sweepEvery, drops the limiters of clients idle
// for longer than Idle whose buckets have refilled (so dropping changes
// nothing), and forgets accounts that hold no points at all. Called with
// l.mu held.
func (l *Ledger) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < sweepEvery {
		return
	}
	l.lastSweep = now
	for client, a := range l.accounts {
		if now.Sub(a.seen) <= Idle {
			continue
		}
		if a.lim != nil && a.lim.TokensAt(now) >= float64(a.lim.Burst()) {
			a.lim = nil
		}
		l.roll(client, a, now)
		if a.lim == nil && a.used == 0 && a.held == 0 {
			delete(l.accounts, client)
		}
	}
}

// Clients is how many clients the ledger currently keeps state for; it
// lets tests and diagnostics see that memory stays bounded.
func (l *Ledger) Clients() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.accounts)
}
