package cmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/scan"
)

// costPlan is what one run of a headless command asks of the service, so
// that --cost can say what it would spend without spending it, from the
// same price table (api.Cost) the budget uses.
type costPlan struct {
	parts []costPart
	// note says when a run may spend other than the sum (a chain by
	// --dte that has to look further out).
	note string
	// extra is what a run may spend beyond points() (that chain's second
	// request): a hard cap (mcp's --max-points) holds it too, so that no
	// run can pass the cap it was let in under.
	extra int
}

// costPart is Count requests to one endpoint.
type costPart struct {
	Endpoint   api.Endpoint
	Mode       api.Mode
	Historical bool
	Count      int
	// Stored asks whether the store of past days holds this part's answer
	// (nil: a part it never holds); Held is its answer for this run.
	Stored func(ctx context.Context, c *api.Client) bool
	Held   bool
}

// planOf is a plan of one request.
func planOf(e api.Endpoint, m api.Mode, historical bool) costPlan {
	return costPlan{parts: []costPart{{Endpoint: e, Mode: m, Historical: historical, Count: 1}}}
}

// points is what a run costs.
func (p costPlan) points() int {
	n := 0
	for _, c := range p.parts {
		if !c.Held {
			n += c.Count * api.Cost(c.Endpoint, c.Mode, c.Historical)
		}
	}
	return n
}

// most is the most a run may spend.
func (p costPlan) most() int { return p.points() + p.extra }

// probes reports whether a part may be answered from the store.
func (p costPlan) probes() bool {
	for _, c := range p.parts {
		if c.Stored != nil {
			return true
		}
	}
	return false
}

// probe asks the store about each part that it may hold.
func (p *costPlan) probe(ctx context.Context, c *api.Client) {
	if ctx == nil {
		ctx = context.Background()
	}
	for i := range p.parts {
		if s := p.parts[i].Stored; s != nil && c.History() != nil {
			p.parts[i].Held = s(ctx, c)
		}
	}
}

// describe is --cost's answer: the points, the requests behind them and,
// with --watch, what an hour and a session of runs would spend.
func (p costPlan) describe(watch time.Duration) string {
	var reqs []string
	for _, c := range p.parts {
		kind := string(c.Mode)
		if c.Historical {
			kind = "historical"
		}
		plural := ""
		if c.Count != 1 {
			plural = "s"
		}
		if c.Held {
			reqs = append(reqs, fmt.Sprintf("%d %s answer%s from history (0 points)", c.Count, c.Endpoint, plural))
			continue
		}
		reqs = append(reqs, fmt.Sprintf("%d %s request%s (%s, %d points each)", c.Count, c.Endpoint, plural, kind, api.Cost(c.Endpoint, c.Mode, c.Historical)))
	}
	s := fmt.Sprintf("%s points: %s", scan.GroupDigits(int64(p.points())), strings.Join(reqs, ", "))
	if p.note != "" {
		s += "; " + p.note
	}
	if watch > 0 {
		perHour := float64(p.points()) * float64(time.Hour) / float64(watch)
		s += fmt.Sprintf("\nwith --watch %s: up to %s points an hour, %s a %g-hour session (less when the budget stretches the interval; nothing while the market is closed)",
			watch, scan.GroupDigits(int64(perHour+0.5)), scan.GroupDigits(int64(perHour*feed.RegularSessionHours+0.5)), feed.RegularSessionHours)
	}
	return s
}
