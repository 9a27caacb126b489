package cmd

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"chainwatch/feed"
)

// panicFetcher is a service whose calendar fetch panics (the others are
// not asked).
type panicFetcher struct{ feed.Fetcher }

func (panicFetcher) Calendar(context.Context, feed.Query) feed.CalendarMsg {
	panic("the calendar broke")
}

// A panic in the monitor's fetch goroutine is recovered through the relay
// (guardMonitor) and, in serve, logged with its stack (logPanics); the
// process goes on.
func TestMonitorPanicIsRecoveredAndLogged(t *testing.T) {
	log := &syncBuffer{}
	w := &WatchOptions{}
	logPanics(w, slog.New(slog.NewTextHandler(log, nil)))
	mon := feed.NewMonitor(guardMonitor(feed.MonitorOptions{Fetcher: panicFetcher{}}, w.Panics))
	defer mon.Close()
	sub := mon.Subscribe()
	defer sub.Close()
	sub.Set(feed.Attention{Focused: true}, feed.Want{Feed: feed.FeedCalendar, Query: feed.Query{Symbol: "SPY"}})
	for range 500 {
		if strings.Contains(log.String(), "the calendar broke") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	l := log.String()
	for _, want := range []string{"level=ERROR", `msg="the data monitor panicked"`, `in="the data monitor"`, `panic="the calendar broke"`, "cmd.panicFetcher.Calendar"} {
		if !strings.Contains(l, want) {
			t.Errorf("the log lacks %q: %s", want, l)
		}
	}
}
