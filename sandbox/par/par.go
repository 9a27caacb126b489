// Package par runs the sandbox's independent pieces of work on every core:
// the series of a listing, the contracts of a chain, the trades of a day.
// It is its own package so that the universe (sandbox/market) and the
// simulated market (sandbox/sim) share one way of doing it.
package par

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Each runs f(0) .. f(n-1) on up to GOMAXPROCS goroutines, handing out
// indices one at a time so that uneven pieces (a LEAPS series beside a
// weekly) balance; f must write only its own results. A panic in f is
// raised again on the caller's goroutine once every worker stopped: the
// HTTP server recovers a handler's panic (the request fails, logged), but
// nothing recovers a worker's, and in the embedded sandbox it would take
// the screen down with it.
func Each(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[workerPanic]
	for range min(runtime.GOMAXPROCS(0), 8, n) {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					failed.CompareAndSwap(nil, &workerPanic{v, debug.Stack()})
					next.Store(int64(n)) // the others stop at their next index
				}
			}()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		panic(fmt.Sprintf("%v\n\nin a worker:\n%s", p.v, p.stack))
	}
}

// workerPanic is what a worker of Each panicked with, and where.
type workerPanic struct {
	v     any
	stack []byte
}
