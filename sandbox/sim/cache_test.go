package sim

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestLRUComputesOnce: concurrent misses of one key compute it once.
func TestLRUComputesOnce(t *testing.T) {
	c := newLRU[int, int](4, 0, nil)
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v, ok := c.get(1, func() (int, bool) {
				calls.Add(1)
				<-release
				return 42, true
			})
			if v != 42 || !ok {
				t.Errorf("got %d %v", v, ok)
			}
		})
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("computed %d times", n)
	}
}

// TestLRUBounds: entries and cost are bounded, least recently used first
// out, failures not kept.
func TestLRUBounds(t *testing.T) {
	c := newLRU[int](3, 10, func(v int) int64 { return int64(v) })
	put := func(k, v int) { c.get(k, func() (int, bool) { return v, true }) }
	put(1, 1)
	put(2, 1)
	put(3, 1)
	c.get(1, nil) // 1 is now the most recent
	put(4, 1)     // evicts 2
	if _, ok := c.peek(2); ok {
		t.Error("2 survived past the entry bound")
	}
	if _, ok := c.peek(1); !ok {
		t.Error("1 was evicted though recently used")
	}
	put(5, 9) // cost 1+1+9 > 10: evicts down to the bound
	if c.cost > 10 || c.order.Len() > 3 {
		t.Errorf("cost %d, %d entries", c.cost, c.order.Len())
	}
	put(6, 50) // alone above the bound: kept, the rest evicted
	if v, ok := c.peek(6); !ok || v != 50 || c.order.Len() != 1 {
		t.Errorf("big value: %d %v, %d entries", v, ok, c.order.Len())
	}
	c.get(7, func() (int, bool) { return 0, false })
	if _, ok := c.peek(7); ok {
		t.Error("a failed computation was cached")
	}
}
