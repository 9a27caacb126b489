package alert

import (
	"math"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
)

// observe evaluates the rules on msg and fires what crossed; the pool
// hands it every reply the monitor settles, on the fetch's goroutine,
// within the refresh that brought the data.
func (e *Engine) observe(msg any) {
	if e.ctx.Err() != nil {
		return // closed: the monitor may outlive it
	}
	var recs []Record
	e.mu.Lock()
	e.eval(msg, &recs)
	e.mu.Unlock()
	if len(recs) > 0 {
		e.commit(recs)
	}
}

// eval evaluates the rules a reply is about (under e.mu).
func (e *Engine) eval(msg any, recs *[]Record) {
	switch m := msg.(type) {
	case feed.ChainMsg:
		e.onChain(m.Query, m.Chain, m.Err, m.At, recs)
	case feed.TermMsg:
		e.onChain(m.Query, m.Chain, m.Err, m.At, recs)
	case feed.ContractQuoteMsg:
		e.onContract(m, recs)
	case feed.QuotesMsg:
		e.onQuotes(m, recs)
	case feed.TapeMsg:
		e.onTape(m, recs)
	case scanResult:
		e.onScan(m, recs)
	case feed.JobMsg:
		if f, ok := m.Value.(fetched); ok && m.Name == jobName {
			for _, x := range f.msgs {
				e.eval(x, recs)
			}
		}
	}
}

// today is the session q's data is of, and whether the rules watch it:
// their mode, today's session (not a past day, nor yesterday's close
// before the open).
func (e *Engine) today(q feed.Query, at time.Time) (api.Date, bool) {
	if q.Mode != e.o.Mode || q.Historical(at) {
		return 0, false
	}
	day := feed.ShownDay(q, at)
	return day, day == api.Today(at)
}

// onChain evaluates a chain snapshot: the underlying's price and IV30,
// and the contracts the rules name or scan for unusual activity.
func (e *Engine) onChain(q feed.Query, ch *api.SymbolWithOptions, err error, at time.Time, recs *[]Record) {
	day, ok := e.today(q, at)
	sr := e.idx.bySym[q.Symbol]
	if !ok || sr == nil || err != nil || ch == nil {
		return
	}
	u := &ch.Underlying
	base := Event{Symbol: q.Symbol, Time: dataTime(day, u.Timestamp), Seq: u.SeqNo.V}
	e.onUnderlying(sr, u, day, base, at, recs)
	if !sr.options() {
		return
	}
	for i := range ch.Options {
		o := &ch.Options[i]
		if rules, ok := sr.contracts[o.Option]; ok {
			for _, rs := range rules {
				e.onOption(rs, o, day, base, at, recs)
			}
		}
		if len(sr.unusual) > 0 {
			e.unusual(sr.unusual, o, day, base, at, recs)
		}
	}
}

// onUnderlying evaluates the price and IV30 rules of one underlying.
func (e *Engine) onUnderlying(sr *symRules, u *api.Underlying, day api.Date, base Event, at time.Time, recs *[]Record) {
	if !sr.quotes() {
		return
	}
	spot := u.Spot()
	for _, rs := range sr.price {
		e.level(rs, spot, base, at, recs)
	}
	for _, rs := range sr.iv30 {
		e.iv30(rs, u, day, base, at, recs)
	}
}

// onContract evaluates one contract's snapshot, and says when the
// service does not list a contract a rule names.
func (e *Engine) onContract(m feed.ContractQuoteMsg, recs *[]Record) {
	e.onChain(m.Query.Query, m.Chain, m.Err, m.At, recs)
	if _, ok := e.today(m.Query.Query, m.At); !ok || m.Err != nil && !api.IsNoData(m.Err) {
		return
	}
	if m.Chain != nil && len(m.Chain.Options) > 0 {
		return
	}
	osi := m.Query.OSI.String()
	if sr := e.idx.bySym[m.Query.Symbol]; sr != nil {
		for _, rs := range sr.contracts[osi] {
			e.problem(rs, "the service lists no contract "+osi+" of "+rs.Symbol)
		}
	}
}

// onQuotes evaluates underlying-quotes: each symbol's price and IV30.
func (e *Engine) onQuotes(m feed.QuotesMsg, recs *[]Record) {
	day, ok := e.today(m.Query, m.At)
	if !ok || m.Err != nil && !api.IsNoData(m.Err) {
		return
	}
	for i := range m.Quotes {
		u := &m.Quotes[i].Underlying
		if sr := e.idx.bySym[u.Symbol]; sr != nil {
			e.onUnderlying(sr, u, day, Event{Symbol: u.Symbol, Time: dataTime(day, u.Timestamp), Seq: u.SeqNo.V}, m.At, recs)
		}
	}
	for _, sym := range m.Symbols {
		sr := e.idx.bySym[sym]
		if sr == nil || !sr.quotes() || quoted(m.Quotes, sym) {
			continue
		}
		for _, rs := range sr.price {
			e.problem(rs, config.NoSuchSymbol(sym, nil))
		}
		for _, rs := range sr.iv30 {
			e.problem(rs, config.NoSuchSymbol(sym, nil))
		}
	}
}

// quoted reports whether quotes has sym's.
func quoted(quotes []api.Symbol, sym string) bool {
	for i := range quotes {
		if strings.EqualFold(quotes[i].Symbol, sym) {
			return true
		}
	}
	return false
}

// problem notes why a rule's data is not coming, said once.
func (e *Engine) problem(rs *ruleState, why string) {
	if rs.problem == why {
		return
	}
	rs.problem = why
	where := ""
	if rs.Where != "" {
		where = " (" + rs.Where + ")"
	}
	e.notice(NoticeMsg{Text: "alert " + rs.Name + where + ": " + why, Warn: true})
}

// onOption evaluates one rule of contract o.
func (e *Engine) onOption(rs *ruleState, o *api.OptionData, day api.Date, base Event, at time.Time, recs *[]Record) {
	base.Contract = o.Option
	if o.Timestamp != 0 {
		base.Time = dataTime(day, o.Timestamp)
	}
	switch rs.Kind {
	case KindBid:
		e.level(rs, api.OrNaN(o.Bid), base, at, recs)
	case KindAsk:
		e.level(rs, api.OrNaN(o.Ask), base, at, recs)
	case KindMid:
		mid := api.OrNaN(o.Mid)
		if math.IsNaN(mid) && o.Bid.Valid && o.Ask.Valid {
			mid = (o.Bid.V + o.Ask.V) / 2
		}
		e.level(rs, mid, base, at, recs)
	case KindIV:
		e.level(rs, api.OrNaN(o.IV), base, at, recs)
	case KindUnusual:
		e.unusual([]*ruleState{rs}, o, day, base, at, recs)
	}
}

// level fires rs when v crosses its level while armed, and re-arms it
// once v is back past the level by the margin: one event a crossing, and
// a price that sits on the level fires once.
func (e *Engine) level(rs *ruleState, v float64, ev Event, at time.Time, recs *[]Record) {
	if math.IsNaN(v) {
		return
	}
	rs.seen, rs.last, rs.lastAt, rs.problem = true, v, ev.Time, ""
	beyond, back := v >= rs.Level, v < rs.Level-rs.Margin
	ev.Direction = "above"
	if !rs.Above {
		beyond, back = v <= rs.Level, v > rs.Level+rs.Margin
		ev.Direction = "below"
	}
	ev.Value, ev.Level = v, rs.Level
	switch {
	case rs.armed && beyond:
		rs.armed = false
		e.fire(rs, ev, at, recs)
	case !rs.armed && back:
		rs.armed = true
		e.rearm(rs, ev, at, recs)
	}
}

// iv30 fires rs when IV30 has moved its points from the baseline (the
// previous close, the first value of the session seen, or the first seen
// since armed), and re-arms once the move is back under them by the
// margin. IV30 is in points on the wire; the event says it as a fraction.
func (e *Engine) iv30(rs *ruleState, u *api.Underlying, day api.Date, ev Event, at time.Time, recs *[]Record) {
	v, ok := u.IV30.Get()
	if !ok {
		return
	}
	switch {
	case rs.From == "close":
		chg, ok := u.IV30Change.Get()
		if !ok {
			return
		}
		rs.base, rs.baseSet = v-chg, true
	case !rs.baseSet || rs.From == "open" && rs.baseDay != day:
		rs.base, rs.baseDay, rs.baseSet = v, day, true
	}
	rs.seen, rs.last, rs.lastAt, rs.problem = true, v/100, ev.Time, ""
	d := v - rs.base
	ev.Value, ev.Level, ev.Direction = v/100, (rs.base+rs.Move)/100, "above"
	if d < 0 {
		ev.Level, ev.Direction = (rs.base-rs.Move)/100, "below"
	}
	switch {
	case rs.armed && math.Abs(d) >= rs.Move:
		rs.armed = false
		e.fire(rs, ev, at, recs)
	case !rs.armed && math.Abs(d) < rs.Move-rs.Margin:
		rs.armed = true
		e.rearm(rs, ev, at, recs)
	}
}

// unusual fires each rule of rules (by MinVolume) whose volume and
// volume/OI contract o reaches, once a day per contract. An open
// interest of 0 counts as 1.
func (e *Engine) unusual(rules []*ruleState, o *api.OptionData, day api.Date, ev Event, at time.Time, recs *[]Record) {
	vol, ok := o.Volume.Get()
	if !ok || vol <= 0 {
		return
	}
	ratio := float64(vol) / float64(max(o.OpenInterest.V, 1))
	for _, rs := range rules {
		if rs.MinVolume > vol {
			return
		}
		if rs.Ratio > 0 && ratio < rs.Ratio {
			continue
		}
		if rs.today[o.Option] && rs.todayOf == day {
			continue // fired today
		}
		if rs.todayOf != day || rs.today == nil {
			rs.today, rs.todayOf = map[string]bool{}, day
		}
		rs.today[o.Option] = true
		ev.Contract = o.Option
		if o.Timestamp != 0 {
			ev.Time = dataTime(day, o.Timestamp)
		}
		ev.Value, ev.Level, ev.Direction, ev.Size = ratio, rs.Ratio, "at_least", vol
		e.fire(rs, ev, at, recs)
	}
}

// fire records an event of rs.
func (e *Engine) fire(rs *ruleState, ev Event, at time.Time, recs *[]Record) {
	ev.Rule, ev.Kind, ev.FiredAt = rs.Name, rs.Kind.String(), at
	ev.Text = ev.text(&rs.Rule)
	rs.fired++
	rs.lastFired = at
	r := Record{Type: Fired, Def: rs.def, Event: ev}
	r.exec = e.commands(rs)
	*recs = append(*recs, r)
}

// rearm records that rs is armed again, for a restart to know.
func (e *Engine) rearm(rs *ruleState, ev Event, at time.Time, recs *[]Record) {
	ev.Rule, ev.Kind, ev.FiredAt = rs.Name, rs.Kind.String(), at
	ev.Text = rs.Name + ": armed again at " + num(ev.Value)
	*recs = append(*recs, Record{Type: Rearmed, Def: rs.def, Event: ev})
}

// commands are what runs for an event of rs: its own, then --exec.
func (e *Engine) commands(rs *ruleState) [][]string {
	var out [][]string
	if len(rs.Exec) > 0 {
		out = append(out, rs.Exec)
	}
	if len(e.o.Exec) > 0 {
		out = append(out, e.o.Exec)
	}
	return out
}

// commit writes recs to the log (which drops the events fired already,
// before a restart or by another process), then delivers what is new:
// posted to every subscriber, and each event's commands run.
func (e *Engine) commit(recs []Record) {
	kept, err := e.o.Log.Append(recs)
	if err != nil {
		e.notice(NoticeMsg{Text: "alerts: the log was not written: " + err.Error(), Warn: true})
	}
	var fired []Event
	for i := range kept {
		if kept[i].Type != Fired {
			continue
		}
		fired = append(fired, kept[i].Event)
		for _, argv := range kept[i].exec {
			e.runner.run(kept[i].Event, argv)
		}
	}
	if len(fired) > 0 {
		e.post(FiredMsg{Events: fired, From: e})
	} else {
		e.post(ChangedMsg{From: e})
	}
}
