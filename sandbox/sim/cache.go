package sim

import (
	"container/list"
	"hash/fnv"
	"math/rand/v2"
	"sync"

	"chainwatch/api"
)

// lru is a bounded least-recently-used cache whose misses are computed once:
// concurrent requests for a key being computed wait for that computation
// instead of repeating it (the chain of a busy tick is asked for by every
// client at once). It is bounded by entries and, when costOf is set, by the
// total cost of its values, so a few large values cannot hold unbounded
// memory; the newest value is kept even when it alone exceeds the cost.
type lru[K comparable, V any] struct {
	mu         sync.Mutex
	maxEntries int
	maxCost    int64
	costOf     func(V) int64
	cost       int64
	items      map[K]*list.Element
	order      *list.List // front: most recently used
}

type lruEntry[K comparable, V any] struct {
	key   K
	ready chan struct{} // closed when val and ok are set
	val   V
	ok    bool
	cost  int64
}

func newLRU[K comparable, V any](maxEntries int, maxCost int64, costOf func(V) int64) *lru[K, V] {
	return &lru[K, V]{
		maxEntries: max(maxEntries, 1),
		maxCost:    maxCost,
		costOf:     costOf,
		items:      make(map[K]*list.Element),
		order:      list.New(),
	}
}

// get returns the cached value of k, computing it with compute on a miss.
// A computation that reports !ok (or panics) is not kept, so a later
// request tries again.
func (c *lru[K, V]) get(k K, compute func() (V, bool)) (V, bool) {
	c.mu.Lock()
	if el, hit := c.items[k]; hit {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		e := el.Value.(*lruEntry[K, V])
		<-e.ready
		return e.val, e.ok
	}
	e := &lruEntry[K, V]{key: k, ready: make(chan struct{})}
	el := c.order.PushFront(e)
	c.items[k] = el
	c.mu.Unlock()

	done := false
	defer func() {
		if !done { // compute panicked: forget the entry, release waiters
			c.remove(k, el)
			close(e.ready)
		}
	}()
	v, ok := compute()
	done = true
	e.val, e.ok = v, ok
	close(e.ready)

	if !ok {
		c.remove(k, el)
		return v, ok
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items[k] == el {
		if c.costOf != nil {
			e.cost = c.costOf(v)
			c.cost += e.cost
		}
		c.evict(el)
	}
	return v, ok
}

// peek returns the value of k if it is cached and computed, without
// computing it or changing its recency.
func (c *lru[K, V]) peek(k K) (V, bool) {
	c.mu.Lock()
	el, hit := c.items[k]
	c.mu.Unlock()
	var zero V
	if !hit {
		return zero, false
	}
	e := el.Value.(*lruEntry[K, V])
	select {
	case <-e.ready:
		return e.val, e.ok
	default:
		return zero, false
	}
}

// forget drops k's value if it is computed and stale says it no longer
// serves, so that the next get computes it again.
func (c *lru[K, V]) forget(k K, stale func(V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, hit := c.items[k]
	if !hit {
		return
	}
	e := el.Value.(*lruEntry[K, V])
	select {
	case <-e.ready:
		if e.ok && stale(e.val) {
			c.drop(el)
		}
	default: // being computed: it is the new value
	}
}

// remove drops k if it still maps to el.
func (c *lru[K, V]) remove(k K, el *list.Element) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items[k] == el {
		c.drop(el)
	}
}

func (c *lru[K, V]) drop(el *list.Element) {
	e := el.Value.(*lruEntry[K, V])
	delete(c.items, e.key)
	c.order.Remove(el)
	c.cost -= e.cost
}

// evict drops least recently used entries until the bounds hold, never the
// entry keep that was just stored.
func (c *lru[K, V]) evict(keep *list.Element) {
	for c.order.Len() > 1 && (c.order.Len() > c.maxEntries || c.maxCost > 0 && c.cost > c.maxCost) {
		el := c.order.Back()
		if el == keep {
			el = el.Prev()
		}
		c.drop(el)
	}
}

// seed is a deterministic 64-bit seed for one purpose of one symbol's day:
// FNV-1a, which (unlike maphash) gives the same value in every process, so
// a historical day is the same in every run.
func seed(sym string, date api.Date, purpose string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(sym))
	h.Write([]byte{0, byte(date >> 24), byte(date >> 16), byte(date >> 8), byte(date), 0})
	h.Write([]byte(purpose))
	return h.Sum64()
}

// newRand is a PCG generator for one purpose of one symbol's day.
func newRand(sym string, date api.Date, purpose string) *rand.Rand {
	s := seed(sym, date, purpose)
	return rand.New(rand.NewPCG(s, mix(s)))
}

// mix is the splitmix64 finalizer: a cheap, well-spread hash of a 64-bit
// value, for per-contract and per-tick draws that need no generator state
// (the sizes of a quote at a second must be the same whoever asks first).
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }
