package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/scan"
)

// minWatch is the shortest --watch: the service's snapshots change about
// once a second, and a shorter interval would only spend points.
const minWatch = time.Second

// checkWatch refuses a --watch that cannot mean anything, before the
// session is opened.
func (h *headless) checkWatch(j job) error {
	switch {
	case h.Watch == 0 && !h.WatchSet:
		return nil
	case h.Watch <= 0:
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
// going through a hiccup. Only a mistake of the caller's stops it.
//
// The runs are a job of the data monitor, as the screen's feeds are: it
// paces them within the point budget (the config file's [budget], as the
// watch screen's): an interval that would spend faster is stretched, and
// said so. While the market is closed the data does not change, so after
// the first run (the last data, at once) the runs pause until it opens.
func (h *headless) watch(client *api.Client, mode api.Mode, format Format, fc config.File, j job) error {
	tty := format.kind == kindTable && isTerminal(h.Out)
	format.lines = true
	mon, name := h.served.monitor(), "watch "+h.served.commandLine()
	if mon == nil {
		mon = feed.NewMonitor(feed.MonitorOptions{Fetcher: feed.Source{Client: client, Now: h.Now},
			Clock: feed.RealClock{NowFunc: h.Now}, Budget: budgetOf(fc)})
		defer mon.Close()
	}
	sub := mon.Subscribe()
	defer sub.Close()
	sub.Set(feed.Attention{Focused: true}, feed.Want{Feed: feed.FeedJob, Job: &feed.Job{
		Name: name, Every: h.Watch, Mode: mode,
		Run: func(context.Context) feed.JobResult {
			a, err := h.once(client, j)
			return feed.JobResult{Value: a, Resps: a.Resps, Err: err}
		},
	}})
	every := h.Watch
	for {
		msg, ok := sub.Next(h.Context)
		if !ok || h.Context.Err() != nil {
			return nil
		}
		r, ok := msg.(feed.JobMsg)
		if !ok {
			continue
		}
		if err := h.printRun(r, format, tty, every); err != nil {
			return err
		}
		// The interval follows the budget both ways: stretched when the
		// balance shrinks, back to the asked one when it allows.
		if r.Every != every {
			if r.Every > h.Watch {
				cost := r.Value.(answer).cost()
				fmt.Fprintf(h.ErrOut, "chainwatch: --watch %s would spend %s points an hour, more than the budget allows; running every %s\n",
					h.Watch, scan.GroupDigits(int64(float64(cost)*float64(time.Hour)/float64(h.Watch))), roundWait(r.Every))
			}
			every = r.Every
		}
		if wait := r.Next.Sub(h.Now()); h.closedFor(mode) > 0 && wait > every {
			fmt.Fprintf(h.ErrOut, "chainwatch: %s\n", closedText(h.Now(), mode, "the runs are"))
		}
	}
}

// printRun writes one run: its table, or its failure on stderr. Only a
// mistake of the caller's (bad input) is returned, which stops the runs.
func (h *headless) printRun(r feed.JobMsg, format Format, tty bool, every time.Duration) error {
	stamp := r.At.In(api.Eastern).Format("2006-01-02 15:04:05 MST")
	if r.Err != nil {
		if exitCode(r.Err) == ExitInput {
			return r.Err
		}
		fmt.Fprintf(h.ErrOut, "chainwatch: %s: %v\n", stamp, r.Err)
		return nil
	}
	a := r.Value.(answer)
	b, err := format.bytes(h.Context, a.Export)
	if err != nil {
		return err
	}
	if format.kind == kindCSV && r.Run > 0 {
		b = dropFirstLine(b)
	}
	switch {
	case tty:
		// Home, clear: the new table replaces the old one.
		b = append([]byte(fmt.Sprintf("\x1b[H\x1b[2JEvery %s: %s\n\n", every, stamp)), b...)
	case format.kind == kindTable:
		// A log of tables: each run under its time, a blank line apart.
		b = append([]byte(fmt.Sprintf("%s# %s\n", blankAfterFirst(r.Run), stamp)), b...)
	}
	if _, err := h.Out.Write(b); err != nil {
		return err
	}
	fmt.Fprintln(h.ErrOut, a.summary())
	return nil
}

// closedFor is how long until the data changes again when the market is
// closed for this mode; 0 when it is open.
func (h *headless) closedFor(mode api.Mode) time.Duration {
	now := h.Now()
	if market.SessionLive(now, mode) {
		return 0
	}
	return max(market.NextOpen(now, mode).Sub(now), 0)
}

// closedText is the line said when a --watch pauses for a closed market:
// "16:05:00 ET: the market is closed; the runs are paused until Mon 09:30
// ET (in 2d17h)", the time zone named and the wait in the screen's words.
func closedText(now time.Time, mode api.Mode, what string) string {
	return now.In(api.Eastern).Format("15:04:05") + " ET: the market is closed; " + what + " " + market.PauseText(now, mode)
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
