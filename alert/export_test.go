package alert

// What the benchmarks of package alert_test reach inside an engine.

// Observe is the monitor's call of the engine with a reply.
func (e *Engine) Observe(msg any) { e.observe(msg) }

// RewindTape makes the engine see sym's tape afresh: a benchmark hands it
// the same page again as a new one.
func (e *Engine) RewindTape(sym string) {
	if ts := e.tapes[sym]; ts != nil {
		ts.seen, ts.sweptTo, ts.carry = -1, -1, ts.carry[:0]
	}
}

// Observe is the monitor's call of the pool with a reply.
func (p *Pool) Observe(msg any) { p.observe(msg) }
