package alert

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/scan"
)

// The pool's job: one run fetches what its members' rules need.

// fetched is a run of the pool's job: the replies it brought, as the
// screen's feeds would have brought them, evaluated the same way.
type fetched struct{ msgs []any }

// memberScan is a scan rule's scan, by the name its member gives it.
type memberScan struct {
	e    *Engine
	name string
}

// run is the pool's job: one fetch of each need of a member's enabled
// rule that no feed being polled brings now, whoever's rules need it.
func (p *Pool) run(ctx context.Context) feed.JobResult {
	now := p.o.Now()
	polled := p.o.Monitor.Polled(now)
	p.mu.Lock()
	members := p.members
	p.mu.Unlock()
	var needs []need
	who := map[need][]*Engine{}
	var scans []memberScan
	for _, e := range members {
		if !e.wantsFetch() {
			continue
		}
		for _, n := range e.uncovered(polled, now) {
			if n.kind == needScan {
				scans = append(scans, memberScan{e, n.scan})
				continue
			}
			if who[n] == nil {
				needs = append(needs, n)
			}
			who[n] = append(who[n], e)
		}
	}
	var out fetched
	var resps []*api.Response
	var errs []error
	add := func(msg any, resp *api.Response, err error) {
		if msg != nil {
			out.msgs = append(out.msgs, msg)
		}
		resps = append(resps, resp)
		if err != nil && !api.IsNoData(err) && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	var syms []string
	for _, n := range needs {
		switch n.kind {
		case needQuote:
			syms = append(syms, n.symbol)
		case needContract:
			o, _ := api.ParseOSI(n.contract)
			r := p.o.Fetcher.ContractQuote(ctx, feed.ContractQuery{Query: feed.Query{Symbol: n.symbol, Mode: p.o.Mode}, OSI: o})
			add(r, r.Resp, r.Err)
		case needChain:
			r := p.o.Fetcher.Chain(ctx, feed.Query{Symbol: n.symbol, Mode: p.o.Mode}, 0)
			add(r, r.Resp, r.Err)
		case needTape:
			p.runTape(ctx, who[n], n.symbol, now, add)
		}
	}
	p.runScans(ctx, scans, now, add)
	if len(syms) > 0 {
		r := p.o.Fetcher.Quotes(ctx, feed.Query{Mode: p.o.Mode}, syms)
		add(r, r.Resp, r.Err)
	}
	return feed.JobResult{Value: out, Resps: resps, Err: errors.Join(errs...)}
}

// tapePages bounds the pages of one symbol's tape a run fetches: a
// backlog beyond it is fetched at the next run.
const tapePages = 4

// runTape fetches the symbol's trades from one past the last that every
// member watching it has seen (the latest window the first time), page
// after full page, each evaluated by them at once so that the next page
// starts past it.
func (p *Pool) runTape(ctx context.Context, members []*Engine, sym string, now time.Time, add func(any, *api.Response, error)) {
	q := feed.Query{Symbol: sym, Mode: p.o.Mode}
	day := feed.ShownDay(q, now)
	for range tapePages {
		r := p.o.Fetcher.Tape(ctx, q, day, tapeFrom(members, sym, day))
		r.Day, r.Over = day, day != api.Today(now) || !market.SessionLive(now, q.Mode)
		add(nil, r.Resp, r.Err)
		for _, e := range members {
			e.observe(r)
		}
		if r.Err != nil || len(r.Trades) < config.TapePageLimit {
			return
		}
	}
}

// tapeFrom is the sequence number the members' next page of sym's tape
// starts at: one past the least they have all seen; 0 when none has seen
// any today.
func tapeFrom(members []*Engine, sym string, day api.Date) int64 {
	from := int64(-1)
	for _, e := range members {
		e.mu.Lock()
		if ts := e.tapes[sym]; ts != nil && ts.day == day && ts.seen >= 0 && (from < 0 || ts.seen+1 < from) {
			from = ts.seen + 1
		}
		e.mu.Unlock()
	}
	return max(from, 0)
}

// runScans runs each scan the members' scan rules name, at most every
// AlertScanEvery: a request two members' scans make alike (a preset, the
// same formulas under two names) is run once and handed to both.
func (p *Pool) runScans(ctx context.Context, list []memberScan, now time.Time, add func(any, *api.Response, error)) {
	type run struct {
		s  scan.Scan
		to []memberScan
	}
	var keys []string
	runs := map[string]*run{}
	for _, ms := range list {
		s, ok := scan.Find(ms.e.o.Scans, ms.name)
		if !ok {
			continue
		}
		b, _ := json.Marshal(s.Params(p.o.Mode))
		k := string(b)
		if runs[k] == nil {
			keys = append(keys, k)
			runs[k] = &run{s: s}
		}
		runs[k].to = append(runs[k].to, ms)
	}
	for _, k := range keys {
		p.mu.Lock()
		last := p.scanAt[k]
		due := last.IsZero() || now.Sub(last) >= max(p.o.Every, config.AlertScanEvery)
		if due {
			p.scanAt[k] = now
		}
		p.mu.Unlock()
		if !due || p.o.RunScan == nil {
			continue
		}
		out, err := p.o.RunScan(ctx, runs[k].s)
		add(nil, out.Resp, err)
		for _, ms := range runs[k].to {
			ms.e.observe(scanResult{name: ms.name, out: out, err: err, at: now})
		}
	}
}
