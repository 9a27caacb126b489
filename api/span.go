package api

// Span is what a chain request for some contracts (a strategy's or a
// position's legs) is narrowed to: their expiries and strikes. The
// option-quotes endpoint charges the same whatever it is narrowed to, so
// one narrowed request marks every leg on an underlying. It is here, with
// the request it narrows, so that the figures that work it out (strategy)
// and the feed that asks with it share it without importing each other.
type Span struct {
	MinExpiry, MaxExpiry Date // zero: not narrowed
	MinStrike, MaxStrike float64
	Key                  string // the legs, for a job's name
}

// Narrow narrows p to s; a zero Span leaves p whole.
func (s Span) Narrow(p *OptionQuotesParams) {
	if s.MinExpiry == 0 {
		return
	}
	p.MinExpiry, p.MaxExpiry = s.MinExpiry.String(), s.MaxExpiry.String()
	p.MinStrike, p.MaxStrike = &s.MinStrike, &s.MaxStrike
}
