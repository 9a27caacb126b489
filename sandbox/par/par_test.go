package par

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestEachRunsEveryIndexOnce: every index is run, each once.
func TestEachRunsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 3, 1000} {
		runs := make([]atomic.Int32, n)
		Each(n, func(i int) { runs[i].Add(1) })
		for i := range runs {
			if got := runs[i].Load(); got != 1 {
				t.Fatalf("n %d: index %d run %d times", n, i, got)
			}
		}
	}
}

// TestEachCarriesAPanicToTheCaller: a worker's panic reaches the
// goroutine that called Each, where the HTTP server's recovery (or a
// test's) can take it, instead of ending the process.
func TestEachCarriesAPanicToTheCaller(t *testing.T) {
	got := func() (v any) {
		defer func() { v = recover() }()
		Each(100, func(i int) {
			if i == 7 {
				panic("contract 7 has no price")
			}
		})
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "contract 7 has no price") || !strings.Contains(s, "in a worker") {
		t.Fatalf("recovered %v, want the worker's panic with its stack", got)
	}
}
