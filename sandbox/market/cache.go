package market

import (
	"container/list"
	"sync"

	"chainwatch/api"
)

// dayCache is a bounded least-recently-used cache of built Days. A Day
// holds one float32 per second of its session, so the bound keeps
// memory flat however many symbols and dates clients ask for.
type dayCache struct {
	mu    sync.Mutex
	limit int
	ll    *list.List // front: most recently used; values are *dayEntry
	items map[dayKey]*list.Element
}

type dayKey struct {
	symbol string
	date   api.Date
}

type dayEntry struct {
	key dayKey
	day *Day
}

func newDayCache(limit int) *dayCache {
	return &dayCache{limit: max(1, limit), ll: list.New(), items: make(map[dayKey]*list.Element)}
}

// get returns a cached day and marks it recently used.
func (c *dayCache) get(k dayKey) (*Day, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*dayEntry).day, true
	}
	return nil, false
}

// put stores a day built outside the lock and returns the cached one: if
// another goroutine stored the same day meanwhile, its copy wins (both are
// identical, being deterministic), so callers share one Day.
func (c *dayCache) put(k dayKey, d *Day) *Day {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*dayEntry).day
	}
	c.items[k] = c.ll.PushFront(&dayEntry{k, d})
	for c.ll.Len() > c.limit {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*dayEntry).key)
	}
	return d
}

// len returns the number of cached days.
func (c *dayCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}
