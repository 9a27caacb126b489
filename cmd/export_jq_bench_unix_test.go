//go:build unix

package cmd

import (
	"bytes"
	"syscall"
	"testing"
	"time"
)

// BenchmarkJQBlowUp runs item 6's expression (a string doubled forty
// times, 3.7 GB and 66 s before the bounds) with the real bounds, and
// reports the run's wall time and the largest child's peak RSS: run it
// alone (-run '^$'), since the peak is the largest of every child this
// test process waited for.
func BenchmarkJQBlowUp(b *testing.B) {
	for _, src := range []string{`reduce range(40) as $i ("x"; . + .) | length`, `"x" * 2000000000 | length`} {
		b.Run(src, func(b *testing.B) {
			var worst time.Duration
			for b.Loop() {
				start := time.Now()
				err := Format{kind: kindJSON, jq: src}.WriteContext(b.Context(), &bytes.Buffer{}, exportOf())
				if exitCode(err) != ExitInput {
					b.Fatal(err)
				}
				worst = max(worst, time.Since(start))
			}
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
			b.ReportMetric(float64(ru.Maxrss)/1024, "child-peak-MiB")
		})
	}
}
