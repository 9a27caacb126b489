package common

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/keymap"
)

// Replay is a replay's clock as the screen drives it.
type Replay interface {
	TogglePause()
	Scale(factor float64) // the speed times factor, within the clock's bounds
	Jump(d time.Duration) // within the recorded day
	// State is the badge's text: "REPLAY 10:00:05 x2", "REPLAY ⏸ 10:00:05".
	State() string
}

// ReplayKey drives r by k: pause, half or twice the speed, a minute back
// or on. It returns the status bar's notice (the clock's state) and,
// after a jump, every feed, to be asked again at once so the screen
// paints the new moment without waiting; ok is false for a key that is
// not the replay's.
func ReplayKey(r Replay, keys keymap.ReplayKeys, k tea.KeyPressMsg) (n Notice, again []feed.Feed, ok bool) {
	switch {
	case key.Matches(k, keys.Pause):
		r.TogglePause()
	case key.Matches(k, keys.Slower):
		r.Scale(0.5)
	case key.Matches(k, keys.Faster):
		r.Scale(2)
	case key.Matches(k, keys.Back), key.Matches(k, keys.Forward):
		d := time.Minute
		if key.Matches(k, keys.Back) {
			d = -d
		}
		r.Jump(d)
		again = make([]feed.Feed, feed.NumFeeds)
		for i := range again {
			again[i] = feed.Feed(i)
		}
	default:
		return Notice{}, nil, false
	}
	return Notice{Text: r.State()}, again, true
}
