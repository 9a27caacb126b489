package crash

import "sync"

// Relay recovers the panics of goroutines that feed the screen from
// outside its program: the data monitor's fetches (its Spawn) and timers
// (its Clock's AfterFunc). A panic in one of them would otherwise end the
// process with the terminal still raw, or, in chainwatch serve, end every
// session at once. Each is handed to the handler: the screen's Guard.Fail
// on a terminal, the server's log in serve. Until a handler is set they
// are kept (the first few) and handed over when it is.
type Relay struct {
	Name string // where the goroutines are, for the report: "the data monitor"

	mu      sync.Mutex
	handle  func(Panic)
	pending []Panic
}

// maxPending bounds the panics kept before a handler is set.
const maxPending = 4

// Handle sets where the panics go from now on, and hands it those kept;
// nil keeps them again.
func (r *Relay) Handle(h func(Panic)) {
	r.mu.Lock()
	r.handle = h
	kept := r.pending
	r.pending = nil
	r.mu.Unlock()
	if h == nil {
		return
	}
	for _, p := range kept {
		h(p)
	}
}

// Go runs f in a goroutine of its own, recovering its panic: a monitor's
// Spawn.
func (r *Relay) Go(f func()) { go r.Wrap(f)() }

// Wrap returns f recovering its panic, for a goroutine someone else starts
// (time.AfterFunc).
func (r *Relay) Wrap(f func()) func() {
	return func() {
		defer func() {
			if v := recover(); v != nil {
				r.pass(Recovered(r.Name, v))
			}
		}()
		f()
	}
}

func (r *Relay) pass(p Panic) {
	r.mu.Lock()
	h := r.handle
	if h == nil && len(r.pending) < maxPending {
		r.pending = append(r.pending, p)
	}
	r.mu.Unlock()
	if h != nil {
		h(p)
	}
}
