package serve

import (
	"fmt"
	"math"
	"sync"
	"time"

	"chainwatch/api"
	"chainwatch/scan"
)

// Ledger is the desk's one point budget as its one-shot commands draw on
// it: a command is charged what it will cost before it is sent, against
// what the whole desk spent today (screens, alert rules, --watch jobs and
// commands, all on one monitor) and against its key's share of the day,
// and refused when either would pass. The screens' polling keeps its
// pace (the budget per hour): it is the desk's spending that a command
// finds already made, never one that a command stops.
type Ledger struct {
	// Desk is the points the desk booked on now's trading day and the
	// day's budget.
	Desk func(now time.Time) (spent, budget int)
	// Share is each key's share of the day's budget, in (0,1]; 0 splits
	// the day evenly among the keys of the authorized_keys file.
	Share float64
	Now   func() time.Time

	mu   sync.Mutex
	day  api.Date
	keys map[string]int // by fingerprint: what the key's commands spent today, or hold
	held int            // charged to commands still running: not yet in Desk's spent
}

// BudgetError is a command the budget refuses, with the figures.
type BudgetError struct {
	Cost                  int
	DeskSpent, DeskBudget int
	KeySpent, KeyShare    int
	Key                   bool // the key's share refused it (else the desk's budget)
}

func (e *BudgetError) Error() string {
	g := func(n int) string { return scan.GroupDigits(int64(n)) }
	which := "the desk's budget"
	if e.Key {
		which = "this key's share of it"
	}
	return fmt.Sprintf("this command would spend %s points, past %s: the desk has spent %s of its %s points today (%s left), this key %s of its %s (%s left); nothing was sent",
		g(e.Cost), which, g(e.DeskSpent), g(e.DeskBudget), g(max(e.DeskBudget-e.DeskSpent, 0)),
		g(e.KeySpent), g(e.KeyShare), g(max(e.KeyShare-e.KeySpent, 0)))
}

// Charge books cost points to u before its command is sent, or refuses
// it with a *BudgetError. settle is to be called with what the command
// spent once that is booked on the desk's monitor: the key is charged
// that, and the hold is let go.
func (l *Ledger) Charge(u User, cost int) (settle func(spent int), err error) {
	now := l.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := api.Today(now); d != l.day || l.keys == nil {
		l.day, l.keys = d, map[string]int{}
	}
	spent, budget := l.Desk(now)
	e := &BudgetError{Cost: cost, DeskSpent: spent + l.held, DeskBudget: budget,
		KeySpent: l.keys[u.Fingerprint], KeyShare: l.share(u, budget)}
	if cost > 0 {
		// Past both, the desk's budget is the one said: no share helps.
		deskOver := e.DeskSpent+cost > budget
		e.Key = !deskOver && e.KeySpent+cost > e.KeyShare
		if deskOver || e.Key {
			return nil, e
		}
	}
	l.held += cost
	l.keys[u.Fingerprint] += cost
	day := l.day
	var once sync.Once
	return func(actual int) {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.held -= cost
			if l.day == day {
				l.keys[u.Fingerprint] += actual - cost
			}
		})
	}, nil
}

// share is a key's points of the day.
func (l *Ledger) share(u User, budget int) int {
	if l.Share > 0 {
		return int(math.Floor(l.Share * float64(budget)))
	}
	return budget / max(u.Keys, 1)
}
