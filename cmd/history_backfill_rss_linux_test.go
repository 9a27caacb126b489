package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// backfillPeakBudgetMiB is issue 43's bound on a first backfill's peak
// resident set: what it keeps is a few kilobytes a session, so holding
// every session bought (or the sandbox's simulation of it) must not show.
const backfillPeakBudgetMiB = 100

// BenchmarkBackfillPeakRSS is a first `chainwatch history backfill SPY QQQ
// --days 60 --yes` on the embedded sandbox, in a child process with an
// empty home each run, as main runs it; peak-MiB is the child's largest
// resident set (its rusage), which must stay under the budget.
//
//	go test -run '^$' -bench BackfillPeakRSS -benchtime 2x ./cmd
func BenchmarkBackfillPeakRSS(b *testing.B) {
	args := []string{"history", "backfill", "SPY", "QQQ", "--days", "60", "--yes", "--sandbox-clock", benchClock}
	var peak int64
	for b.Loop() {
		c := exec.Command(os.Args[0])
		c.Env = childEnv(b.TempDir(), args)
		var errOut bytes.Buffer
		c.Stderr = &errOut
		if err := c.Run(); err != nil || !strings.Contains(errOut.String(), "60 sessions bought") {
			b.Fatalf("backfill: %v\n%s", err, errOut.String())
		}
		ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			b.Fatal("no rusage for the child")
		}
		peak = max(peak, ru.Maxrss) // KiB on Linux
	}
	mib := float64(peak) / 1024
	b.ReportMetric(mib, "peak-MiB")
	b.ReportMetric(0, "ns/op")
	if mib > backfillPeakBudgetMiB {
		b.Errorf("the backfill peaked at %.0f MiB, over the %d MiB budget", mib, backfillPeakBudgetMiB)
	}
}
