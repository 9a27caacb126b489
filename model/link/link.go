// Package link is a TUI's subscription to the data monitor
// (feed.Monitor): it subscribes once, takes what the monitor posts
// through one command that re-arms itself (Listen), tells the monitor
// what the screen wants, and keeps the monitor's snapshot for drawing,
// so that View reads and changes nothing. The monitor books and paces
// every fetch; what it posts arrives already booked.
package link

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
)

// Link is one screen's subscription.
type Link struct {
	Mon  *feed.Monitor
	own  bool // the screen made the monitor, and closes it when it quits
	Sub  *feed.Subscription
	Snap feed.Snapshot // taken after every Set, for drawing
}

// Msg is something the monitor posted to the screen.
type Msg struct{ Msg any }

// New subscribes to mon, or with mon nil to a monitor of its own on opt.
func New(mon *feed.Monitor, opt feed.MonitorOptions, now time.Time) Link {
	l := Link{Mon: mon}
	if l.Mon == nil {
		l.own = true
		l.Mon = feed.NewMonitor(opt)
	}
	l.Sub = l.Mon.Subscribe()
	l.Snap = l.Sub.Snapshot(now) // the budget is known before any message
	return l
}

// Listen waits for the monitor's next message to the screen.
func (l *Link) Listen(ctx context.Context) tea.Cmd {
	sub := l.Sub
	return func() tea.Msg {
		msg, ok := sub.Next(ctx)
		if !ok {
			return nil
		}
		return Msg{msg}
	}
}

// Set tells the monitor what the screen wants now and takes its snapshot.
func (l *Link) Set(now time.Time, att feed.Attention, ws ...feed.Want) {
	l.Sub.Set(att, ws...)
	l.Snap = l.Sub.Snapshot(now)
}

// Close leaves the monitor (and closes it if it is the screen's).
func (l *Link) Close() {
	l.Sub.Close()
	if l.own {
		l.Mon.Close()
	}
}
