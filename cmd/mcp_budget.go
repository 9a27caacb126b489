package cmd

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
	"chainwatch/serve"
)

// mcpCap is an mcp session's cap on what its tool calls spend. It is kept
// in the ledger serve charges its commands to (serve.Ledger), so a call is
// charged the most it may spend before anything is sent and settled with
// what it spent: the session is the ledger's one key and the cap its
// budget, and the ledger's day is the session's start, never turning (the
// cap is the session's, not a day's). Over ssh, the desk's own ledger is
// charged as well, for the desk's day and the key's share.
type mcpCap struct {
	ledger *serve.Ledger
	limit  func(now time.Time) int
	given  bool // --max-points was given (else the limit is the default share)
	now    func() time.Time
	// desk charges the served desk's day and the key's share; nil for a
	// session of its own.
	desk func(costPlan) (func(int), error)

	mu    sync.Mutex
	spent int
}

// mcpUser is the cap's one key in its ledger.
var mcpUser = serve.User{Name: "mcp", Fingerprint: "mcp", Keys: 1}

func newMCPCap(maxPoints int, given bool, day func(now time.Time) (spent, budget int), now func() time.Time) *mcpCap {
	c := &mcpCap{given: given, now: now}
	c.limit = func(time.Time) int { return maxPoints }
	if !given {
		// A share of the day's budget as the screen works it out ([budget]
		// points_per_day, else its share of the month's points left),
		// read at each call: the balance is known after the first answer.
		c.limit = func(t time.Time) int {
			_, budget := day(t)
			return int(config.DefaultAgentShare * float64(budget))
		}
	}
	start := now()
	c.ledger = &serve.Ledger{Share: 1, Now: func() time.Time { return start },
		Desk: func(time.Time) (int, int) { return 0, c.limit(c.now()) }}
	return c
}

// dayBudget is what a desk or an mcp session's monitor booked on now's
// trading day, and the day's budget: points per day when set, else what
// the budget allows an hour, for a whole session.
func dayBudget(mon *feed.Monitor, perDay int, now time.Time) (spent, budget int) {
	st := mon.Stats(now)
	budget = perDay
	if st.Free && budget <= 0 {
		// A bus host: its answers come from the bus, and the points are
		// the source's, charged within the source's budget.
		return st.DaySpent, math.MaxInt32
	}
	if budget <= 0 {
		budget = int(st.BudgetPerHour * feed.RegularSessionHours)
	}
	return st.DaySpent, budget
}

// capError is a call the cap refuses: nothing was sent.
type capError struct {
	most, spent, limit int
	given              bool
}

func (e capError) Error() string {
	g := func(n int) string { return scan.GroupDigits(int64(n)) }
	which := fmt.Sprintf("--max-points %s", g(e.limit))
	if !e.given {
		which = fmt.Sprintf("%g of the day's budget; --max-points sets it", config.DefaultAgentShare)
	}
	return fmt.Sprintf("this call may spend %s points, past the session's cap of %s points (%s): %s spent or held, %s left; nothing was sent",
		g(e.most), g(e.limit), which, g(e.spent), g(max(e.limit-e.spent, 0)))
}

// charge is the servedClient's charge for the session's calls.
func (c *mcpCap) charge(p costPlan) (func(int), error) {
	most := p.most()
	settleCap, err := c.ledger.Charge(mcpUser, most)
	if be := (*serve.BudgetError)(nil); errors.As(err, &be) {
		return nil, capError{most: most, spent: be.KeySpent, limit: be.DeskBudget, given: c.given}
	} else if err != nil {
		return nil, err
	}
	settleDesk := func(int) {}
	if c.desk != nil {
		if settleDesk, err = c.desk(p); err != nil {
			settleCap(0)
			return nil, err
		}
	}
	var once sync.Once
	return func(spent int) {
		once.Do(func() {
			settleCap(spent)
			settleDesk(spent)
			c.mu.Lock()
			c.spent += spent
			c.mu.Unlock()
		})
	}, nil
}

// status is what the session spent and its cap now.
func (c *mcpCap) status() (spent, limit int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spent, c.limit(c.now())
}

// describe says the session's spending, after each call.
func (c *mcpCap) describe() string {
	spent, limit := c.status()
	g := func(n int) string { return scan.GroupDigits(int64(n)) }
	return fmt.Sprintf("this session: %s of its cap of %s points spent, %s left", g(spent), g(limit), g(max(limit-spent, 0)))
}
