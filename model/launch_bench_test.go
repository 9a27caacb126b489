package model

import (
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
)

// BenchmarkLaunchToFirstLadder is `chainwatch SPX` from the program's
// start to its first ladder: the chain's first reply handled (the frame
// that shows it is drawn in the same Update), on the in-process sandbox
// (already up) at an open market. Each iteration is one launch.
//
//	go test -run '^$' -bench LaunchToFirstLadder -benchtime 5x ./model
func BenchmarkLaunchToFirstLadder(b *testing.B) {
	var total time.Duration
	for range b.N {
		lp := startProgram(b, "SPX", openMorning, colorprofile.ANSI256)
		start := time.Now()
		select {
		case <-lp.chain:
		case <-time.After(60 * time.Second):
			b.Fatal("no chain in 60 s")
		}
		total += time.Since(start)
		lp.p.Quit()
		<-lp.done
	}
	b.ReportMetric(float64(total)/float64(time.Millisecond)/float64(b.N), "ms/launch")
	b.ReportMetric(0, "ns/op")
}
