package cmd

import (
	"runtime/debug"
	"sync"
)

// oneShotLimit is the heap a one-shot command runs to without a
// collection (oneShotGC); past it the runtime collects as usual.
const oneShotLimit = 128 << 20

// oneShot is the collector's setting before the first one-shot command
// of those running in this process, and how many run. The setting is
// the process's, so commands that run side by side (the tests, which run
// many in one process) share it, and the last to end restores it.
var oneShot struct {
	sync.Mutex
	n       int
	percent int
	limit   int64
}

// oneShotGC runs a one-shot headless command (chain, quotes, gex, ...
// without --watch) with the collector off below a soft memory limit. It
// is short-lived and nearly everything it allocates is live until it
// prints, so the collections made while its heap grows from nothing to
// its working size, one at each doubling, are CPU spent for nothing. The
// limit bounds it: the lower of oneShotLimit and a limit already set by
// other work in the process (the command's own embedded sandbox sets
// none: serviceFlags.oneShot). GOGC or GOMEMLIMIT in the environment is
// the user's choice and wins. Never for a served command: serve's process
// is shared by the desk.
func oneShotGC(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	oneShot.Lock()
	defer oneShot.Unlock()
	if oneShot.n == 0 {
		oneShot.limit = debug.SetMemoryLimit(-1) // a negative limit reads it
		debug.SetMemoryLimit(min(oneShot.limit, oneShotLimit))
		oneShot.percent = debug.SetGCPercent(-1)
	}
	oneShot.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			oneShot.Lock()
			defer oneShot.Unlock()
			if oneShot.n--; oneShot.n == 0 {
				debug.SetGCPercent(oneShot.percent)
				debug.SetMemoryLimit(oneShot.limit)
			}
		})
	}
}
