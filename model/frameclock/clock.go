// Package frameclock keeps the screen still while nothing on it changes.
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
package frameclock

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Clock is the armed tick and the frame last drawn.
type Clock struct {
	Gen uint64    // the armed tick's generation
	Due time.Time // screen time the armed tick is for; zero: none armed
	// Content and Title are the last frame drawn and its window title;
	// Renders counts the frames drawn, for the tests.
	Content, Title string
	Renders        int
}

// TickMsg is the clock's tick.
type TickMsg struct{ Gen uint64 }

// Margin puts a tick just past the boundary it waits for, so that the
// text it draws is the new one.
const Margin = 5 * time.Millisecond

// Outdated reports whether m was armed before a sooner tick outdated it:
// there is nothing to draw.
func (c *Clock) Outdated(m TickMsg) bool { return m.Gen != c.Gen }

// Ticked notes that the armed tick has come.
func (c *Clock) Ticked() { c.Due = time.Time{} }

// Arm arms the tick for the next second (seconds: a count in seconds is
// on screen) or minute after now, unless a tick at least as soon is armed
// already. The screen's clock runs speed times as fast as real time
// (--sandbox-speed); tea.Tick waits in real time.
func (c *Clock) Arm(now time.Time, seconds bool, speed float64) tea.Cmd {
	step := time.Minute
	if seconds {
		step = time.Second
	}
	next := now.Truncate(step).Add(step + Margin)
	if !c.Due.IsZero() && !next.Before(c.Due) && c.Due.After(now) {
		return nil
	}
	c.Gen++
	c.Due = next
	msg := TickMsg{Gen: c.Gen}
	wait := time.Duration(float64(next.Sub(now)) / speed)
	return tea.Tick(wait, func(time.Time) tea.Msg { return msg })
}
