package sandbox

import (
	"sync"
	"weak"

	"chainwatch/api"
	"chainwatch/sandbox/wire"
)

// chainBodies keeps the encoded contracts of the last few whole chains.
// Every request of a tick gets the same contracts (the market caches the
// chain per tick, and one slice of it is shared), and they are almost all
// of the answer. Encoding them once per tick, not once per request, is
// what lets twenty clients polling SPX cost the sandbox one encoding a
// second and a head and tail each, instead of a chain-sized buffer each
// in flight.
//
// An entry is keyed by the contracts' slice itself (its first element and
// length) and the format: a chain rebuilt after the market's cache let it
// go is a new slice, so a stale encoding is never served. The first
// element is held by a weak pointer, which keeps its identity even if the
// memory is reused but does not keep the chain alive after the market let
// it go. Requests that arrive while an entry is being
// encoded wait for it instead of encoding it again.
//
// The entries are weak: an encoding lives while a request is writing it
// (the reply holds it) and until the next collection after that. Twenty
// clients of one tick overlap and share it; the embedded sandbox's one
// client, which asks once a tick, does not keep an encoding alive for nothing.
type chainBodies struct {
	mu      sync.Mutex
	entries [chainBodiesKept]weakBody // most recent first
}

type weakBody struct {
	key chainBodyKey
	p   weak.Pointer[chainBody]
}

// chainBodiesKept is how many encodings are kept: the live tick's and the
// one before it, or the live and the delayed chain.
const chainBodiesKept = 2

// sharedContractsMin is the fewest contracts worth sharing: below it an
// encoding costs less than the bookkeeping, and a per-expiry poll would
// only push the whole chains out.
const sharedContractsMin = 4096

type chainBodyKey struct {
	first  weak.Pointer[api.OptionData]
	n      int
	format api.Format
}

type chainBody struct {
	key   chainBodyKey
	once  sync.Once
	parts [][]byte // wire.EncodeContracts'
}

// get returns the encoded contracts of options in f, encoding them if no
// entry holds them. The bytes are shared: write them, never change them,
// and keep the entry until they are written.
func (c *chainBodies) get(f api.Format, options []api.OptionData) *chainBody {
	key := chainBodyKey{weak.Make(&options[0]), len(options), f}
	c.mu.Lock()
	e := c.lookup(key)
	c.mu.Unlock()
	e.once.Do(func() { e.parts = wire.EncodeContracts(f, options) })
	return e
}

// lookup finds key's entry, or makes one, and puts it first.
func (c *chainBodies) lookup(key chainBodyKey) *chainBody {
	i := 0
	for i < len(c.entries)-1 && c.entries[i].key != key {
		i++
	}
	e := c.entries[i].p.Value()
	if e == nil || c.entries[i].key != key {
		e = &chainBody{key: key} // the last entry, if any, is let go
	}
	copy(c.entries[1:i+1], c.entries[:i])
	c.entries[0] = weakBody{key, weak.Make(e)}
	return e
}
