package record

import (
	"os"
	"time"
)

// WithOpener replaces how a segment file is made: the full-disk test
// writes to /dev/full.
func WithOpener(open func(path string) (*os.File, error)) Option {
	return func(r *Recorder) { r.open = open }
}

// WithKeyEvery writes every n-th body of a request whole: a test sees
// the whole bodies and the deltas of a few answers.
func WithKeyEvery(n int) Option {
	return func(r *Recorder) { r.keyEvery = n }
}

// WithWriteBehind sets how long an answer waits before it is written.
func WithWriteBehind(d time.Duration) Option {
	return func(r *Recorder) { r.behind = d }
}
