package history

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"chainwatch/api"
)

// requestTimeout bounds one day's request, which a Ctrl-C does not cut.
const requestTimeout = time.Minute

// underlyingQuotesFrom is the service's first day of underlying quotes.
var underlyingQuotesFrom = api.NewDate(2011, 1, 3)

// Plan is what a backfill has to buy: the sessions whose quotes of one
// or more of the symbols are not stored, newest first, one
// underlying-quotes request each (3 points for a past day, however many
// symbols).
type Plan struct {
	Symbols []string
	Mode    api.Mode
	Days    []api.Date            // every session asked for, oldest first
	Missing []api.Date            // those to buy, newest first
	Lacking map[api.Date][]string // the symbols each lacks
}

// Requests is the number of requests the plan sends.
func (p Plan) Requests() int { return len(p.Missing) }

// Points is what the plan costs.
func (p Plan) Points() int {
	return len(p.Missing) * api.Cost(api.EndpointUnderlyingQuotes, p.Mode, true)
}

// PlanBackfill is the plan for the n sessions before today (the service's
// today: a day that is not over is never history).
func (s *Store) PlanBackfill(ctx context.Context, symbols []string, today api.Date, n int, mode api.Mode) (Plan, error) {
	p := Plan{Symbols: symbols, Mode: mode}
	for _, d := range SessionsBefore(today, n) {
		if d >= underlyingQuotesFrom {
			p.Days = append(p.Days, d)
		}
	}
	lacking, err := s.Missing(ctx, p.Days, symbols)
	if err != nil {
		return p, fmt.Errorf("history: %s: %w", s.path, err)
	}
	p.Lacking = lacking
	for i := len(p.Days) - 1; i >= 0; i-- {
		if len(lacking[p.Days[i]]) > 0 {
			p.Missing = append(p.Missing, p.Days[i])
		}
	}
	return p, nil
}

// Step is one day of a backfill done: what it cost and what is left.
type Step struct {
	Day         api.Date
	Done, Of    int // days done (this one included) of the plan's
	Cost        int // this day's points (0: another process had bought it)
	Spent       int // the backfill's points so far
	PointsLeft  api.Int
	FromHistory bool
	// Unlisted are the symbols asked for that the answer does not list:
	// on the newest session, symbols the service does not know.
	Unlisted []string
}

// Backfill buys the plan's days, newest first, one request a day through
// client (whose store is s: each answer is kept as it arrives, in its own
// transaction, so a Ctrl-C or a failure loses nothing already paid for
// and the next run buys only what is still missing). step is told after
// each day. It returns the points spent.
func Backfill(ctx context.Context, client *api.Client, s *Store, p Plan, step func(Step)) (int, error) {
	spent := 0
	for i, day := range p.Missing {
		if err := ctx.Err(); err != nil {
			return spent, err
		}
		syms := p.Lacking[day]
		// A request once sent is let finish even after a Ctrl-C: the
		// service charges it, so its answer must reach the store.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), requestTimeout)
		quotes, resp, err := client.UnderlyingQuotes(rctx, api.UnderlyingQuotesParams{Symbols: syms, Date: day.String(), Mode: p.Mode})
		cancel()
		st := Step{Day: day, Done: i + 1, Of: len(p.Missing), Unlisted: unlisted(syms, quotes)}
		if resp != nil {
			st.Cost, st.PointsLeft, st.FromHistory = resp.Cost, resp.PointsLeft, resp.FromHistory
			spent += resp.Cost
		}
		st.Spent = spent
		if err != nil && !api.IsNoData(err) {
			return spent, fmt.Errorf("history: backfill of %s: %w", day, err)
		}
		if err := settle(ctx, s); err != nil {
			// The store cannot save: what is bought now waits in memory,
			// and a Ctrl-C would lose it. Stop buying; Close saves what it
			// can, and the next run buys only what is missing.
			return spent, err
		}
		if step != nil {
			step(st)
		}
	}
	return spent, nil
}

// settleTries bounds settle's wait for another process's hold on the
// file: tries of settleEvery each.
const (
	settleTries = 600
	settleEvery = 100 * time.Millisecond
)

// settle waits until the day just bought is saved. A backfill has no
// hurry, so it waits out another process's hold on the file (a screen
// writing), but stops at a failure that waiting does not clear (a full
// disk, an I/O error) or once the store turns saving off.
func settle(ctx context.Context, s *Store) error {
	for range settleTries {
		err := s.Unsaved()
		switch {
		case err == nil:
			return nil
		case s.Off() != nil:
			return errors.New(s.Notice())
		case !Contended(err):
			return fmt.Errorf("history: the store cannot save (%v)", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(settleEvery):
		}
	}
	return fmt.Errorf("history: the store is still held by another process (%v)", s.Unsaved())
}

// unlisted are the symbols of asked that quotes do not hold.
func unlisted(asked []string, quotes []api.Symbol) []string {
	var out []string
	for _, s := range asked {
		if !slices.ContainsFunc(quotes, func(q api.Symbol) bool { return strings.EqualFold(q.Symbol, s) }) {
			out = append(out, s)
		}
	}
	return out
}
