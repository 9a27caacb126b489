package model

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
)

// The feed's fetches as commands: each runs off the update loop and its
// reply comes back as a message stamped with the query it was made for.

func fetchChainCmd(ctx context.Context, c *common.Common, q feed.Query, expiry api.Date) tea.Cmd {
	return func() tea.Msg { return c.Source().Chain(ctx, q, expiry) }
}

func fetchTapeCmd(ctx context.Context, c *common.Common, q feed.Query, day api.Date, from int64) tea.Cmd {
	return func() tea.Msg { return c.Source().Tape(ctx, q, day, from) }
}

func fetchCalendarCmd(ctx context.Context, c *common.Common, q feed.Query) tea.Cmd {
	return func() tea.Msg { return c.Source().Calendar(ctx, q) }
}

func fetchExchangesCmd(ctx context.Context, c *common.Common, mode api.Mode) tea.Cmd {
	return func() tea.Msg { return c.Source().Exchanges(ctx, mode) }
}
