package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
)

// tradeFilters are option-trades' parameters that pick trades out of a
// symbol's day; without them the request names the tape a replay keeps
// (its family).
var tradeFilters = []string{"min_time", "max_time", "seq_no", "limit", "min_size", "max_size", "min_price", "max_price", "exchange_id", "condition_id"}

// familyKey names the trades a request asks about, whatever its window
// and page: a tape asks from a time its clock works out and pages by
// seq_no, so a replay answers from every recorded page of the family.
// "" for other requests.
func (c *Client) familyKey(cl call) string {
	if cl.path != pathOptionTrades {
		return ""
	}
	q := cloneValues(cl.query)
	for _, k := range tradeFilters {
		q.Del(k)
	}
	return RequestKey(c.format, cl.method, cl.path, q)
}

// replayedTrades answers an option-trades request from every recorded
// page of its family at or before the replay's moment: their trades, each
// once, filtered and paged as the service would.
func (c *Client) replayedTrades(ctx context.Context, p OptionTradesParams) ([]OptionTrade, *Response, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	cl := call{method: http.MethodGet, path: pathOptionTrades, query: p.query(), mode: c.modeOr(p.Mode), endpoint: EndpointOptionTrades}
	resp := &Response{Endpoint: cl.endpoint, Mode: cl.mode, FromRecording: true, StatusCode: http.StatusOK}
	pages, err := c.replay.ReplayFamily(WithReplayMode(ctx, cl.mode), c.familyKey(cl))
	var nr *NotRecordedError
	if errors.As(err, &nr) {
		nr.What = cl.endpoint.String() + " of " + p.Symbol + " on " + p.Date
	}
	if err != nil {
		return nil, resp, err
	}
	by := map[int64]OptionTrade{}
	for _, a := range pages {
		if a.Status != http.StatusOK {
			continue
		}
		ts, err := decodeOptionTrades(a.Body, c.format)
		if err != nil {
			continue // a page that does not decode is as good as not recorded
		}
		for _, t := range ts {
			if tradeWanted(t, p) {
				by[t.SeqNo] = t
			}
		}
	}
	out := make([]OptionTrade, 0, len(by))
	for _, t := range by {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b OptionTrade) int { return int(min(max(a.SeqNo-b.SeqNo, -1), 1)) })
	limit := 100
	if p.Limit != nil {
		limit = *p.Limit
	}
	if len(out) > limit {
		out = out[:limit]
	}
	if len(out) == 0 {
		resp.StatusCode = http.StatusNoContent
		return nil, resp, ErrNoData
	}
	return out, resp, nil
}

// tradeWanted is the service's filtering of one trade by p.
func tradeWanted(t OptionTrade, p OptionTradesParams) bool {
	if lo, err := ParseTimeOfDay(p.MinTime); p.MinTime != "" && err == nil && t.Timestamp < lo {
		return false
	}
	if hi, err := ParseTimeOfDay(p.MaxTime); p.MaxTime != "" && err == nil && t.Timestamp > hi {
		return false
	}
	price, _ := t.Price.Get()
	switch {
	case p.SeqNo != nil && t.SeqNo < *p.SeqNo,
		p.MinSize != nil && t.Size < *p.MinSize,
		p.MaxSize != nil && t.Size > *p.MaxSize,
		p.MinPrice != nil && price < *p.MinPrice,
		p.MaxPrice != nil && price > *p.MaxPrice,
		p.ExchangeID != nil && int(t.ExchangeID) != *p.ExchangeID,
		p.ConditionID != nil && int(t.ConditionID) != *p.ConditionID:
		return false
	}
	return true
}
