package feed

import (
	"context"
	"slices"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
)

// The legs of strategies and positions are marked from one chain request
// per underlying, narrowed to their expiries and strikes: a request of
// the option-quotes endpoint costs the same whatever it is narrowed to,
// so a four-leg condor costs what one contract's quote does.

// LegsMsg is one underlying's contracts for the legs on it.
type LegsMsg struct {
	Symbol string
	Chain  *api.SymbolWithOptions
	Resp   *api.Response
	Err    error
	At     time.Time
}

// Legs fetches symbol's contracts within span: every expiry and strike
// when whole, so that a leg that is not listed can name the nearest
// contract that is.
func (s Source) Legs(ctx context.Context, q Query, span api.Span, whole bool) LegsMsg {
	ctx, cancel := context.WithTimeout(ctx, config.FetchTimeout)
	defer cancel()
	p := api.OptionQuotesParams{Symbol: q.Symbol, Date: ShownDay(q, s.Now()).String(), Mode: q.Mode}
	if !whole {
		span.Narrow(&p)
	}
	ch, resp, err := s.Client.OptionAndUnderlyingQuotes(ctx, p)
	return LegsMsg{Symbol: q.Symbol, Chain: ch, Resp: resp, Err: err, At: s.Now()}
}

// LegsResult is a legs job's run: each underlying's reply.
type LegsResult []LegsMsg

// LegsJob marks legs every interval, within the budget: one request per
// underlying of spans, in symbol order. Its name is made from what it
// asks, so that a page asking for the same legs again keeps the job and
// its pacing.
func LegsJob(src Source, name string, q Query, spans map[string]api.Span, every time.Duration) *Job {
	syms := make([]string, 0, len(spans))
	for s := range spans {
		syms = append(syms, s)
	}
	slices.Sort(syms)
	var key strings.Builder
	key.WriteString(name)
	for _, s := range syms {
		key.WriteString(" " + s + ":" + spans[s].Key)
	}
	return &Job{Name: key.String(), Every: every, Mode: q.Mode, Run: func(ctx context.Context) JobResult {
		var res LegsResult
		var resps []*api.Response
		var err error
		for _, s := range syms {
			sq := q
			sq.Symbol = s
			m := src.Legs(ctx, sq, spans[s], false)
			res = append(res, m)
			resps = append(resps, m.Resp)
			if m.Err != nil && err == nil {
				err = m.Err
			}
		}
		return JobResult{Value: res, Resps: resps, Err: err}
	}}
}
