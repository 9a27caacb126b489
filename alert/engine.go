package alert

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// Engine evaluates the rules on every reply the data monitor settles,
// within the refresh that brought it (feed.Monitor.Observe), fetches what
// the rules need and no subscriber fetches as a job of the monitor (paced
// by its budget, paused while the market is closed), fires each event
// once (Log), and posts what fired to every subscriber of the monitor
// (FiredMsg): the screen's alerts page and `chainwatch alerts --watch`
// read it there. Every method is safe for concurrent use.
type Engine struct {
	o      Options
	ctx    context.Context
	cancel context.CancelFunc
	runner *runner

	mu      sync.Mutex
	rules   []*ruleState
	idx     index
	tapes   map[string]*tapeState // by symbol: what the tape rules have seen
	scanAt  map[string]time.Time  // by scan name: its last run
	sub     *feed.Subscription
	started bool
}

// Options are what an Engine needs.
type Options struct {
	Monitor *feed.Monitor // required: the engine observes it and posts to it
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
}

// FiredMsg is what fired from one reply, in order, posted to every
// subscriber of the monitor. Each event is new: the log had none of them.
type FiredMsg struct{ Events []Event }

// Fold joins the events of next to f's while a subscriber lags (its
// mailbox folds what waits): none is lost, up to config.AlertLogMax, the
// newest kept.
func (f FiredMsg) Fold(next any) any {
	n, ok := next.(FiredMsg)
	if !ok {
		return next
	}
	evs := append(append([]Event(nil), f.Events...), n.Events...)
	if len(evs) > config.AlertLogMax {
		evs = evs[len(evs)-config.AlertLogMax:]
	}
	return FiredMsg{Events: evs}
}

// NoticeMsg is a line for the screen and stderr: a rule armed, a command
// that failed or was killed, a rule's data refused.
type NoticeMsg struct {
	Text string
	Warn bool
}

// ChangedMsg says the rules or their states changed: the page redraws.
type ChangedMsg struct{}

// RunMsg is a run of the rules' own fetches: what it cost, its failure,
// the interval in force (longer than asked when the budget stretched it)
// and when the next is (after the open while the market is closed).
type RunMsg struct {
	At, Next time.Time
	Every    time.Duration
	Points   int
	Err      error
}

// jobName is the engine's feed of the monitor.
const jobName = "alerts"

// New builds an engine on rules (checked as Add checks them); Start sets
// it going.
func New(o Options, rules []Rule) (*Engine, error) {
	if o.Monitor == nil {
		return nil, errors.New("alert: no monitor")
	}
	if o.Mode == "" {
		o.Mode = api.Live
	}
	if o.Every <= 0 {
		o.Every = config.AlertEvery
	}
	if o.ExecTimeout <= 0 {
		o.ExecTimeout = config.AlertExecTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log, _ = OpenLog("", 0)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine{o: o, ctx: ctx, cancel: cancel, tapes: map[string]*tapeState{}, scanAt: map[string]time.Time{}}
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
// evaluated. Replies before it are not.
func (e *Engine) Listen() {
	e.mu.Lock()
	if e.started {
		e.mu.Unlock()
		return
	}
	e.started = true
	e.mu.Unlock()
	e.o.Monitor.Observe(e.observe)
}

// Fetch wants the rules' own feed. A screen calls it once its own feeds
// are wanted, so that the first run does not fetch what the screen is
// about to. Calling it again does nothing.
func (e *Engine) Fetch() {
	e.mu.Lock()
	if e.sub != nil || e.ctx.Err() != nil {
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	sub := e.o.Monitor.Subscribe()
	e.mu.Lock()
	e.sub = sub
	e.mu.Unlock()
	e.want()
	// The engine reads nothing from its own mailbox (it observes every
	// reply), but what is posted to every subscriber lands there too.
	go func() {
		for {
			if _, ok := sub.Next(e.ctx); !ok {
				return
			}
		}
	}()
}

// want tells the monitor the engine's feed: a job that runs every Every
// while a rule is on. Nobody watches it (it does not speed the screen's
// feeds up), and its cost counts as points spent on purpose.
func (e *Engine) want() {
	e.mu.Lock()
	sub, on := e.sub, false
	for _, rs := range e.rules {
		on = on || rs.Enabled
	}
	e.mu.Unlock()
	if sub == nil {
		return
	}
	att := feed.Attention{Idle: true}
	if !on || e.o.Fetcher == nil {
		sub.Set(att)
		return
	}
	sub.Set(att, feed.Want{Feed: feed.FeedJob, Job: &feed.Job{Name: jobName, Every: e.o.Every, Mode: e.o.Mode, Run: e.run}})
}

// Close stops the engine: no more fetches, no command started.
func (e *Engine) Close() {
	e.cancel()
	e.mu.Lock()
	sub := e.sub
	e.sub = nil
	e.mu.Unlock()
	if sub != nil {
		sub.Close()
	}
	e.runner.wait()
}

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
	e.post(ChangedMsg{})
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
	e.post(ChangedMsg{})
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
	e.post(ChangedMsg{})
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
	e.mu.Lock()
	defer e.mu.Unlock()
	costs := e.costs(polled, now)
	out := make([]Status, len(e.rules))
	for i, rs := range e.rules {
		out[i] = Status{Rule: rs.Rule, Armed: rs.armed, Seen: rs.seen, Last: rs.last, LastAt: rs.lastAt,
			Fired: rs.fired, LastFired: rs.lastFired, Problem: rs.problem, Cost: costs[i]}
	}
	return out
}

// post puts msg in every subscriber's mailbox.
func (e *Engine) post(msg any) { e.o.Monitor.Post(msg) }

func (e *Engine) notice(n NoticeMsg) { e.post(n) }
