package cmd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/scan"
)

// minWatch is the shortest --watch: the service's snapshots change about
// once a second, and a shorter interval would only spend points.
const minWatch = time.Second

// checkWatch refuses a --watch that cannot mean anything, before the
// session is opened.
func (h *headless) checkWatch(j job) error {
	switch {
	case h.Watch == 0:
		return nil
	case h.Watch < 0:
		return badInput(fmt.Errorf("--watch %s: want a positive interval, e.g. 30s or 5m", h.Watch))
	case h.Watch < minWatch:
		return badInput(fmt.Errorf("--watch %s: the shortest interval is %s", h.Watch, minWatch))
	case j.historical:
		return badInput(errors.New("--watch: a past day's data never changes; drop --watch or --date"))
	}
	return nil
}

// watch runs j every h.Watch until the context ends (Ctrl-C: exit status
// 0). For a terminal the table is redrawn in place under a title line, as
// watch(1) does; for a log each run is appended: JSON one document a line,
// CSV with its header once. A failed run is a line on stderr and the next
// run comes on time (or after the service's Retry-After): a log must keep
// going through a hiccup. Only a mistake of the caller's stops it. The
// pace stays within the point budget (the config file's [budget], as the
// watch screen's): an interval that would spend faster is stretched, and
// said so. While the market is closed the data does not change, so after
// the first run (the last data, at once) the runs pause until it opens.
func (h *headless) watch(client *api.Client, mode api.Mode, format Format, fc config.File, j job) error {
	tty := format.kind == kindTable && isTerminal(h.Out)
	format.lines = true
	sched := feed.NewScheduler(budgetOf(fc))
	every := h.Watch
	for run := 0; ; run++ {
		if run > 0 && !sleepCtx(h.Context, every) {
			return nil
		}
		if wait := h.closedFor(mode); run > 0 && wait > 0 {
			fmt.Fprintf(h.ErrOut, "chainwatch: %s: the market is closed; the next run is when it opens, in %s\n",
				h.Now().In(api.Eastern).Format("15:04:05"), roundWait(wait))
			if !sleepCtx(h.Context, wait) {
				return nil
			}
		}
		a, err := h.once(client, j)
		if h.Context.Err() != nil {
			return nil
		}
		stamp := h.Now().In(api.Eastern).Format("2006-01-02 15:04:05 MST")
		if err != nil {
			if exitCode(err) == ExitInput {
				return err
			}
			fmt.Fprintf(h.ErrOut, "chainwatch: %s: %v\n", stamp, err)
			var rl *api.RateLimitError
			if errors.As(err, &rl) && rl.RetryAfter > every {
				sleepCtx(h.Context, rl.RetryAfter-every)
			}
			continue
		}
		b, err := format.bytes(a.Export)
		if err != nil {
			return err
		}
		if format.kind == kindCSV && run > 0 {
			b = dropFirstLine(b)
		}
		switch {
		case tty:
			// Home, clear: the new table replaces the old one.
			b = append([]byte(fmt.Sprintf("\x1b[H\x1b[2JEvery %s: %s\n\n", every, stamp)), b...)
		case format.kind == kindTable:
			// A log of tables: each run under its time, a blank line apart.
			b = append([]byte(fmt.Sprintf("%s# %s\n", blankAfterFirst(run), stamp)), b...)
		}
		if _, err := h.Out.Write(b); err != nil {
			return err
		}
		fmt.Fprintln(h.ErrOut, a.summary())
		for _, r := range a.Resps {
			sched.Outside(r)
		}
		// The interval follows the budget both ways: stretched when the
		// balance shrinks, back to the asked one when it allows.
		if d := paced(a.cost(), h.Watch, sched.BudgetPerHour(h.Now())); d != every {
			if d > h.Watch {
				fmt.Fprintf(h.ErrOut, "chainwatch: --watch %s would spend %s points an hour, more than the budget allows; running every %s\n",
					h.Watch, scan.GroupDigits(int64(float64(a.cost())*float64(time.Hour)/float64(h.Watch))), roundWait(d))
			}
			every = d
		}
	}
}

// paced is the interval at which cost points a run stay within perHour:
// the asked interval, or a longer one.
func paced(cost int, asked time.Duration, perHour float64) time.Duration {
	if cost <= 0 || perHour <= 0 || math.IsInf(perHour, 0) {
		return asked
	}
	need := time.Duration(float64(cost) / perHour * float64(time.Hour))
	return max(asked, need.Round(time.Second))
}

// closedFor is how long until the data changes again when the market is
// closed for this mode; 0 when it is open.
func (h *headless) closedFor(mode api.Mode) time.Duration {
	now := h.Now()
	if feed.SessionLive(now, mode) {
		return 0
	}
	return max(feed.NextOpen(now, mode).Sub(now), 0)
}

// budgetOf is the config file's [budget], else the default share.
func budgetOf(fc config.File) feed.Budget {
	b := feed.DefaultBudget()
	if p := fc.Budget.PointsPerDay; p != nil && *p > 0 {
		b.PerDay = *p
	}
	if s := fc.Budget.Share; s != nil {
		b.Share = *s
	}
	return b
}

// sleepCtx waits d, or until ctx ends (false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func roundWait(d time.Duration) time.Duration {
	if d > time.Minute {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

func blankAfterFirst(run int) string {
	if run == 0 {
		return ""
	}
	return "\n"
}

func dropFirstLine(b []byte) []byte {
	for i, c := range b {
		if c == '\n' {
			return b[i+1:]
		}
	}
	return nil
}

// isTerminal reports whether w is a terminal (redraw in place) rather
// than a file or a pipe (append).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
