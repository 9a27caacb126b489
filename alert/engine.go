package alert

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// Engine evaluates the rules on every reply the data monitor settles,
// within the refresh that brought it (feed.Monitor.Observe, through its
// Pool), fetches what the rules need and no subscriber fetches as the
// pool's job of the monitor (paced by its budget, paused while the market
// is closed), fires each event once (Log), and posts what fired to every
// subscriber of the monitor (FiredMsg, from it): the screen's alerts page
// and `chainwatch alerts --watch` read it there. Every method is safe for
// concurrent use.
type Engine struct {
	o      Options
	id     string // the sender of its posts (feed.Sender)
	ctx    context.Context
	cancel context.CancelFunc
	runner *runner
	pool   *Pool
	own    bool // the pool is the engine's alone: it closes with it

	mu       sync.Mutex
	rules    []*ruleState
	idx      index
	tapes    map[string]*tapeState // by symbol: what the tape rules have seen
	fetching bool                  // Fetch was called: the pool's job fetches for its rules
}

// engines numbers the engines of the process, naming each sender apart.
var engines atomic.Uint64

// Options are what an Engine needs.
type Options struct {
	// Pool is the engines whose own fetches this one's join (a served
	// desk's traders); nil: a pool of its own, of the options below.
	// Monitor, Fetcher, RunScan, Mode, Every and Now are then the pool's.
	Pool    *Pool
	Monitor *feed.Monitor // required without a Pool: the engine observes it and posts to it
	// Fetcher does the rules' own fetches (feed.Source); nil: a rule whose
	// data nothing on screen fetches waits for the screen.
	Fetcher feed.Fetcher
	// RunScan runs a scan rule's scan (scan.Run on the client); Scans
	// are the saved scans it may name (the presets always).
	RunScan func(ctx context.Context, s scan.Scan) (scan.Outcome, error)
	Scans   []scan.Scan
	Mode    api.Mode      // the data path the rules watch; default live
	Every   time.Duration // how often the rules' own data is fetched; default config.AlertEvery
	Log     *Log          // nil: in memory
	// Exec runs for every event (--exec, [alerts] exec), beside a rule's
	// own; ExecTimeout bounds each run (default config.AlertExecTimeout).
	Exec        []string
	ExecTimeout time.Duration
	Now         func() time.Time
	// Since is where the trade rules start: prints before it are the
	// past, taken as seen and fired for nothing, so a run started at 10:00
	// does not report the morning's blocks at once (`alerts --watch`
	// reports from its start; --since asks for the past). Zero: the whole
	// day's tape.
	Since time.Time
}

// FiredMsg is what fired from one reply, in order, posted to every
// subscriber of the monitor. Each event is new: the log had none of them.
// From is the engine whose rules fired: on a monitor several engines
// share (a served desk), a screen shows only its own engine's.
type FiredMsg struct {
	Events []Event
	From   *Engine
}

// Sender names the engine apart on the monitor (feed.Sender).
func (f FiredMsg) Sender() string { return f.From.sender() }

// Fold joins the events of next to f's while a subscriber lags (its
// mailbox folds what waits): none is lost, up to config.AlertLogMax, the
// newest kept.
func (f FiredMsg) Fold(next any) any {
	n, ok := next.(FiredMsg)
	if !ok || n.From != f.From {
		return next
	}
	evs := append(append([]Event(nil), f.Events...), n.Events...)
	if len(evs) > config.AlertLogMax {
		evs = evs[len(evs)-config.AlertLogMax:]
	}
	return FiredMsg{Events: evs, From: f.From}
}

// NoticeMsg is a line for the screen and stderr: a rule armed, a command
// that failed or was killed, a rule's data refused.
type NoticeMsg struct {
	Text string
	Warn bool
	From *Engine
}

// ChangedMsg says the rules or their states changed: the page redraws.
type ChangedMsg struct{ From *Engine }

// Sender names the engine apart on the monitor (feed.Sender).
func (n NoticeMsg) Sender() string { return n.From.sender() }

// Sender names the engine apart on the monitor (feed.Sender).
func (c ChangedMsg) Sender() string { return c.From.sender() }

// sender is e's name among the monitor's senders; "" for none.
func (e *Engine) sender() string {
	if e == nil {
		return ""
	}
	return e.id
}

// RunMsg is a run of the rules' own fetches: what it cost, its failure,
// the interval in force (longer than asked when the budget stretched it)
// and when the next is (after the open while the market is closed).
type RunMsg struct {
	At, Next time.Time
	Every    time.Duration
	Points   int
	Err      error
}

// jobName is the pool's feed of the monitor: a monitor has one pool.
const jobName = "alerts"

// New builds an engine on rules (checked as Add checks them); Start sets
// it going.
func New(o Options, rules []Rule) (*Engine, error) {
	pool, own := o.Pool, o.Pool == nil
	switch {
	case own && o.Monitor == nil:
		return nil, errors.New("alert: no monitor")
	case own:
		pool = NewPool(PoolOptions{Monitor: o.Monitor, Fetcher: o.Fetcher, RunScan: o.RunScan, Mode: o.Mode, Every: o.Every, Now: o.Now})
	case o.Monitor != nil && o.Monitor != pool.o.Monitor:
		return nil, errors.New("alert: the pool is another monitor's")
	}
	o.Monitor, o.Fetcher, o.RunScan, o.Mode, o.Every, o.Now = pool.o.Monitor, pool.o.Fetcher, pool.o.RunScan, pool.o.Mode, pool.o.Every, pool.o.Now
	if o.ExecTimeout <= 0 {
		o.ExecTimeout = config.AlertExecTimeout
	}
	if o.Log == nil {
		o.Log, _ = OpenLog("", 0)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine{o: o, id: strconv.FormatUint(engines.Add(1), 10), ctx: ctx, cancel: cancel, pool: pool, own: own,
		tapes: map[string]*tapeState{}}
	e.runner = newRunner(ctx, o.ExecTimeout, e.notice)
	for _, r := range rules {
		if err := e.check(r, ""); err != nil {
			cancel()
			return nil, err
		}
		e.rules = append(e.rules, e.newState(r))
	}
	e.reindex()
	return e, nil
}

// Start is Listen and Fetch: the rules are evaluated on every reply
// from now on, and their own feed fetches what nothing else does.
func (e *Engine) Start() {
	e.Listen()
	e.Fetch()
}

// Listen observes the monitor: every reply settled from now on is
// evaluated. Replies before it are not. Calling it again does nothing.
func (e *Engine) Listen() { e.pool.join(e) }

// Fetch has the pool's job fetch for the rules what no feed brings (its
// last run, while it holds, is evaluated at once). A screen calls it once
// its own feeds are wanted, so that the first run does not fetch what the
// screen is about to. Calling it again does nothing.
func (e *Engine) Fetch() {
	e.mu.Lock()
	if e.fetching || e.ctx.Err() != nil {
		e.mu.Unlock()
		return
	}
	e.fetching = true
	e.mu.Unlock()
	e.pool.fetch(e)
}

// wantsFetch reports whether the pool's job should run for e: it fetches
// and a rule is on.
func (e *Engine) wantsFetch() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.fetching || e.ctx.Err() != nil {
		return false
	}
	for _, rs := range e.rules {
		if rs.Enabled {
			return true
		}
	}
	return false
}

// want tells the pool the rules changed: its job runs while a rule of a
// member is on.
func (e *Engine) want() { e.pool.want() }

// Close stops the engine: no more evaluation, fetches, nor command
// started; its pool goes on for the others.
func (e *Engine) Close() {
	e.cancel()
	e.pool.leave(e)
	if e.own {
		e.pool.Close()
	}
	e.runner.wait()
}

// Pool is the pool the engine's fetches are part of, for others to join.
func (e *Engine) Pool() *Pool { return e.pool }

// Mode is the data path the rules watch.
func (e *Engine) Mode() api.Mode { return e.o.Mode }

// Log is the engine's log.
func (e *Engine) Log() *Log { return e.o.Log }

// check refuses a rule that does not hold (the config file's rules of a
// rule) or whose name another rule has (but old, the one it replaces).
func (e *Engine) check(r Rule, old string) error {
	t := r.Table()
	if err := t.Check(); err != nil {
		return fmt.Errorf("%s: %w", r.Name, err)
	}
	if r.Kind == KindScan {
		if _, ok := scan.Find(e.o.Scans, r.Scan); !ok {
			return fmt.Errorf("%s: no saved scan or preset named %q", r.Name, r.Scan)
		}
	}
	if len(e.rules) >= config.MaxAlerts && old == "" {
		return fmt.Errorf("%d alerts already: chainwatch takes at most %d", len(e.rules), config.MaxAlerts)
	}
	for _, rs := range e.rules {
		if strings.EqualFold(rs.Name, r.Name) && !strings.EqualFold(rs.Name, old) {
			return fmt.Errorf("an alert named %q exists already; give this one another name", r.Name)
		}
	}
	return nil
}

// Add arms r (unless it is off) and says so, with what it costs.
func (e *Engine) Add(r Rule) error { return e.Replace("", r) }

// Replace puts r in place of the rule named old ("" adds it): an edited
// rule starts afresh, armed.
func (e *Engine) Replace(old string, r Rule) error {
	e.mu.Lock()
	if err := e.check(r, old); err != nil {
		e.mu.Unlock()
		return err
	}
	rs := e.newState(r)
	i := e.find(old)
	if i >= 0 {
		e.rules[i] = rs
	} else {
		e.rules = append(e.rules, rs)
	}
	e.reindex()
	e.mu.Unlock()
	e.want()
	if r.Enabled {
		e.notice(NoticeMsg{Text: "alert armed: " + r.Name + "; " + e.CostOf(r, e.o.Now()).Text()})
	}
	e.post(ChangedMsg{From: e})
	return nil
}

// Remove drops the rule named name.
func (e *Engine) Remove(name string) error {
	e.mu.Lock()
	i := e.find(name)
	if i < 0 {
		e.mu.Unlock()
		return fmt.Errorf("no alert named %q", name)
	}
	e.rules = append(e.rules[:i:i], e.rules[i+1:]...)
	e.reindex()
	e.mu.Unlock()
	e.want()
	e.post(ChangedMsg{From: e})
	return nil
}

// SetEnabled turns the rule named name on (armed afresh) or off.
func (e *Engine) SetEnabled(name string, on bool) (Rule, error) {
	e.mu.Lock()
	i := e.find(name)
	if i < 0 {
		e.mu.Unlock()
		return Rule{}, fmt.Errorf("no alert named %q", name)
	}
	r := e.rules[i].Rule
	r.Enabled = on
	e.rules[i] = e.newState(r)
	e.reindex()
	e.mu.Unlock()
	e.want()
	e.post(ChangedMsg{From: e})
	return r, nil
}

func (e *Engine) find(name string) int {
	if name == "" {
		return -1
	}
	for i, rs := range e.rules {
		if strings.EqualFold(rs.Name, name) {
			return i
		}
	}
	return -1
}

// Rule is the rule named name.
func (e *Engine) Rule(name string) (Rule, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if i := e.find(name); i >= 0 {
		return e.rules[i].Rule, true
	}
	return Rule{}, false
}

// Status is a rule as the page and `chainwatch alerts` show it.
type Status struct {
	Rule
	Armed     bool
	Seen      bool      // a value has been seen
	Last      float64   // the last value seen (level kinds)
	LastAt    time.Time // its data time
	Fired     int       // events this session
	LastFired time.Time
	Problem   string // why its data is not coming (no such symbol)
	Cost      Cost
}

// Statuses are the rules in order, with their state and cost at now.
func (e *Engine) Statuses(now time.Time) []Status {
	polled := e.o.Monitor.Polled(now)
	others := e.pool.others(e)
	e.mu.Lock()
	defer e.mu.Unlock()
	costs := e.costs(polled, others, now)
	out := make([]Status, len(e.rules))
	for i, rs := range e.rules {
		out[i] = Status{Rule: rs.Rule, Armed: rs.armed, Seen: rs.seen, Last: rs.last, LastAt: rs.lastAt,
			Fired: rs.fired, LastFired: rs.lastFired, Problem: rs.problem, Cost: costs[i]}
	}
	return out
}

// post puts msg in every subscriber's mailbox.
func (e *Engine) post(msg any) { e.o.Monitor.Post(msg) }

func (e *Engine) notice(n NoticeMsg) {
	n.From = e
	e.post(n)
}
