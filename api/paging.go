package api

import (
	"context"
	"errors"
	"fmt"
	"iter"
)

// Largest page each trade endpoint serves (its limit range).
const (
	maxOptionTradesPage = 10000
	maxTAQPage          = 10000
	maxGreeksPage       = 100000
)

// Pages follow the conventions: a sequence-number parameter is the first
// number returned (inclusive) and numbers rise through the day, so the next
// page starts at the last number + 1. Every page costs points, so each
// request asks for as much as the caller still wants (up to the endpoint's
// largest page, or p.Limit when set), and paging stops at max items, at a
// short page, at a 204, or at the first error (yielded once, last). onPage,
// when not nil, sees each page's Response, so callers can count points.

// OptionTradesAll iterates option trades from p.SeqNo on, at most max.
func (c *Client) OptionTradesAll(ctx context.Context, p OptionTradesParams, max int, onPage func(*Response)) iter.Seq2[OptionTrade, error] {
	start := derefOr(p.SeqNo, 0)
	return pages(max, pageSize(p.Limit, maxOptionTradesPage), start, onPage,
		func(next int64, limit int) ([]OptionTrade, *Response, error) {
			p.SeqNo, p.Limit = &next, &limit
			return c.OptionTrades(ctx, p)
		},
		func(t OptionTrade) int64 { return t.SeqNo })
}

// TradesAndQuotesAll iterates trades-and-quotes records in ascending order
// from p.StartSequenceNumber on, at most max.
func (c *Client) TradesAndQuotesAll(ctx context.Context, p TradesAndQuotesParams, max int, onPage func(*Response)) iter.Seq2[TAQRecord, error] {
	if p.OrderByTime == Descending {
		return failed[TAQRecord](errDescendingPages)
	}
	return pages(max, pageSize(p.Limit, maxTAQPage), derefOr(p.StartSequenceNumber, 0), onPage,
		func(next int64, limit int) ([]TAQRecord, *Response, error) {
			p.StartSequenceNumber, p.Limit = &next, &limit
			return c.TradesAndQuotes(ctx, p)
		},
		TAQRecord.SequenceNumber)
}

// OptionTradesWithGreeksAll iterates an option's trades with greeks in
// ascending order from p.StartSequenceNumber on, at most max.
func (c *Client) OptionTradesWithGreeksAll(ctx context.Context, p OptionTradesWithGreeksParams, max int, onPage func(*Response)) iter.Seq2[OptionTradeWithGreeks, error] {
	if p.OrderByTime == Descending {
		return failed[OptionTradeWithGreeks](errDescendingPages)
	}
	return pages(max, pageSize(p.Limit, maxGreeksPage), derefOr(p.StartSequenceNumber, 0), onPage,
		func(next int64, limit int) ([]OptionTradeWithGreeks, *Response, error) {
			p.StartSequenceNumber, p.Limit = &next, &limit
			return c.OptionTradesWithGreeks(ctx, p)
		},
		func(t OptionTradeWithGreeks) int64 { return t.SequenceNumber })
}

// errDescendingPages: a start sequence number pages forward only.
var errDescendingPages = errors.New("api: paging follows rising sequence numbers; order_by_time must be ASC")

func pageSize(limit *int, largest int) int {
	if limit != nil && *limit > 0 && *limit < largest {
		return *limit
	}
	return largest
}

func derefOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func failed[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}

// pages is the paging loop shared by the three iterators.
func pages[T any](max, size int, start int64, onPage func(*Response),
	fetch func(next int64, limit int) ([]T, *Response, error), seq func(T) int64) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if max <= 0 {
			yield(zero, fmt.Errorf("api: paging needs a positive maximum, not %d", max))
			return
		}
		got, next := 0, start
		for got < max {
			limit := min(size, max-got)
			batch, resp, err := fetch(next, limit)
			if onPage != nil && resp != nil {
				onPage(resp)
			}
			if errors.Is(err, ErrNoData) {
				return
			}
			if err != nil {
				yield(zero, err)
				return
			}
			// A page must start at or after what was asked and rise; one that
			// does not would repeat records and never end, so it is refused
			// before any of it is yielded.
			if len(batch) > 0 {
				first, last := seq(batch[0]), seq(batch[len(batch)-1])
				if first < next || last < first {
					yield(zero, fmt.Errorf("api: sequence numbers went back (asked from %d, page ran %d to %d); paging stopped", next, first, last))
					return
				}
				next = last + 1
			}
			for _, t := range batch {
				if got >= max || !yield(t, nil) {
					return
				}
				got++
			}
			if len(batch) < limit {
				return
			}
		}
	}
}
