package model

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameClock keeps the screen still while nothing on it changes.
// bubbletea draws after every message, so the cost of a quiet screen is
// the messages it gets: instead of a tick every second, the screen arms
// one tick for the next moment its text can change. That is the next
// second while a count in seconds is on screen (a quote's age, the next
// refresh, an error's age), else the next minute (the pause's "in
// 13h20m"). Each tick carries a generation, so a sooner tick armed later
// (an error appeared) simply outdates the slower one.
//
// The drawn frame is kept too: a message that changed nothing (an
// outdated tick) redraws nothing, and the renderer, which compares frames
// sixty times a second, finds the same string.
type frameClock struct {
	gen uint64
	due time.Time // screen time the armed tick is for; zero: none armed
	// content is the last frame drawn; renders counts the frames drawn,
	// for the tests.
	content string
	renders int
}

// frameMsg is the frame clock's tick.
type frameMsg struct{ gen uint64 }

// flashDoneMsg redraws once flashes have faded.
type flashDoneMsg struct{}

// flashDone redraws once the flashes of a new snapshot have faded; with
// no flashes (--no-flash) there is nothing to wait for.
func (a *App) flashDone() tea.Cmd {
	if a.sh.Flash <= 0 {
		return nil
	}
	return tea.Tick(a.sh.Flash+50*time.Millisecond, func(time.Time) tea.Msg { return flashDoneMsg{} })
}

// tickMargin puts a tick just past the boundary it waits for, so that the
// text it draws is the new one.
const tickMargin = 5 * time.Millisecond

// armFrame arms the frame clock's tick for the next moment the screen's
// text can change, unless a tick at least as soon is armed already.
func (a *App) armFrame() tea.Cmd {
	now := a.sh.Now()
	step := time.Minute
	if a.countsSeconds(now) {
		step = time.Second
	}
	next := now.Truncate(step).Add(step + tickMargin)
	if f := &a.scr.frame; !f.due.IsZero() && !next.Before(f.due) && f.due.After(now) {
		return nil
	}
	a.scr.frame.gen++
	a.scr.frame.due = next
	msg := frameMsg{gen: a.scr.frame.gen}
	// The screen's clock may run faster than real time (--sandbox-speed);
	// tea.Tick waits in real time.
	wait := time.Duration(float64(next.Sub(now)) / a.cfg.ClockSpeed)
	return tea.Tick(wait, func(time.Time) tea.Msg { return msg })
}

// countsSeconds says whether the screen shows a count that moves every
// second: an age or countdown under an hour is drawn with its seconds.
func (a *App) countsSeconds(now time.Time) bool {
	if a.overlay == a.parts.scan {
		return true // its results say how long ago they ran
	}
	if onTop[watchlistPage](a) {
		if a.parts.wl.m.CountsSeconds(now) {
			return true
		}
	} else if h := a.headerData(now); h.Stale || !h.Loading && !h.Historical && !h.Closed && !h.NoData {
		return true
	}
	if err := a.lastErr(); err != nil && now.Sub(err.At) < time.Hour {
		return true // "3s ago"; from an hour on, "1h02m ago"
	}
	d := a.statusData(now)
	return d.NextFeed != ""
}

// onFrame is the tick: the screen is drawn again (the message made it
// dirty), idleness is noticed, and the next tick is armed by Update.
func (a *App) onFrame() tea.Cmd {
	a.scr.frame.due = time.Time{}
	return nil
}

// draw draws the frame after a message, for View to return: a message
// that changed nothing (an outdated tick) draws nothing, and the
// renderer finds the same string.
func (a *App) draw() {
	a.sync()
	a.scr.frame.content = a.render(a.sh.Now())
	a.scr.frame.renders++
}
