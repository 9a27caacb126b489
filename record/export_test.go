package record

import "os"

// WithOpener replaces how a segment file is made: the full-disk test
// writes to /dev/full.
func WithOpener(open func(path string) (*os.File, error)) Option {
	return func(r *Recorder) { r.open = open }
}
