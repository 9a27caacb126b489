// Package quota is the sandbox's points ledger: what each client may spend,
// what it has spent in the current period, and how many requests a second it
// may make. It mirrors the service conventions (service-conventions.md,
// "Points"): a request is charged only when it succeeds, every data
// response reports the counters after charging, and a client over its
// per-second limit or its allowance gets a 429 with Retry-After.
//
// The ledger reserves a request's cost before the handler runs and settles
// it afterwards (Commit on 200/204, Cancel otherwise), so that concurrent
// requests of one client can never spend more than the allowance between
// them, while a failed request costs nothing.
package quota

import (
	"time"

	"chainwatch/api"
)

// Plan is a points allowance. Monthly plans renew at 00:00 Eastern on the
// first of each month; a Daily plan (the trial) renews at 00:00 Eastern each
// day. Eastern because the service's day is the exchange's day.
type Plan struct {
	Name   string
	Points int64
	Daily  bool // the allowance resets each day (trial) instead of each month
}

// Plans are the conventions' three known plans, in ascending allowance. It
// is a read-only table: use PlanByName to get a copy of one.
var Plans = []Plan{
	{Name: "trial", Points: 500, Daily: true},
	{Name: "standard", Points: 1_250_000},
	{Name: "professional", Points: 4_000_000},
}

// DefaultPlan is the plan a Ledger uses when its Config names none: the
// smallest monthly plan, so that a sandbox started without a choice behaves
// like a paying client rather than refusing everything.
func DefaultPlan() Plan { return Plans[1] }

// PlanByName finds one of Plans by its exact name.
func PlanByName(name string) (Plan, bool) {
	for _, p := range Plans {
		if p.Name == name {
			return p, true
		}
	}
	return Plan{}, false
}

// PlanNames lists the names of Plans, for flag help and error messages.
func PlanNames() []string {
	names := make([]string, len(Plans))
	for i, p := range Plans {
		names[i] = p.Name
	}
	return names
}

// periodEnd is the instant the period containing now ends and the next
// allowance starts: the next 00:00 Eastern for a daily plan, 00:00 Eastern
// on the next first of a month otherwise. time.Date normalises day 32 and
// month 13, and US Eastern never skips or repeats midnight (its transitions
// are at 02:00), so the result is always a real local midnight.
func periodEnd(p Plan, now time.Time) time.Time {
	t := now.In(api.Eastern)
	y, m, d := t.Date()
	if p.Daily {
		return time.Date(y, m, d+1, 0, 0, 0, 0, api.Eastern)
	}
	return time.Date(y, m+1, 1, 0, 0, 0, 0, api.Eastern)
}

// periodWord is how messages name a plan's period.
func periodWord(p Plan) string {
	if p.Daily {
		return "daily"
	}
	return "monthly"
}

// retryAfter rounds d up to whole seconds, at least one: Retry-After is
// sent in seconds, and a client told 0 would retry at once and be refused
// again.
func retryAfter(d time.Duration) time.Duration {
	if d <= time.Second {
		return time.Second
	}
	return (d + time.Second - 1).Truncate(time.Second)
}
