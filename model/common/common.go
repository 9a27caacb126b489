// Package common is what every part of the TUI shares: the Common struct
// handed to each part (styles, keys, client, clock), the contracts a pane,
// a page and an overlay meet, and the Actions an overlay returns for the
// root to carry out. Parts import common, never each other.
package common

import (
	"time"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/theme"
)

// Common is what every part is handed by the root: one struct instead of
// globals, so tests build parts with their own clock and styles. It is
// shared by pointer, so a theme change (the terminal's background
// arriving) reaches every part at once.
type Common struct {
	Styles *theme.Styles
	Keys   keymap.KeyMap
	Prompt keymap.PromptKeys
	Replay keymap.ReplayKeys // `chainwatch replay`'s clock keys
	Client *api.Client
	Now    func() time.Time
	// Flash is how long a changed cell stays highlighted; 0: it is not
	// (--no-flash).
	Flash time.Duration
}

// Source is the feed's fetches on this Common's client and clock.
func (c *Common) Source() feed.Source { return feed.Source{Client: c.Client, Now: c.Now} }
