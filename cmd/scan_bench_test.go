package cmd

import "testing"

// scanBenchClock is the open market of the measurement: a scan
// there walks a morning of every optionable symbol's day.
const scanBenchClock = "2026-11-24T10:00:00-05:00"

// BenchmarkScanHighIVEmbedded is `chainwatch scan --name "High IV" --json`
// with no credentials, so on the embedded sandbox started in the process,
// from the process's start to its exit on an open market: the first scan
// of a fresh market, which computes the scanner's rows of every symbol.
// The goal is about a second of wall time (ms/run, min-ms) on two cores;
// cpu-ms/run is what it costs the machine.
//
//	go test -run '^$' -bench ScanHighIVEmbedded -benchtime 10x ./cmd
func BenchmarkScanHighIVEmbedded(b *testing.B) {
	benchJSONChild(b, `scan --name "High IV" --json`,
		[]string{"scan", "--name", "High IV", "--json", "--sandbox-clock", scanBenchClock})
}
