package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chainwatch/record"
	"chainwatch/sandbox"
)

// screenRecordWindow is how long each screen of BenchmarkScreenRecordSPY
// runs after its first chain: a few dozen chain refreshes and tape pages.
const screenRecordWindow = 30 * time.Second

// BenchmarkScreenRecordSPY is issue 46's bound: an open SPY screen with
// the flight recorder and without it (--no-record). A standalone sandbox
// runs in this process on an open market at real speed, and the screen
// (160x48, drawn into nothing, as main runs it) in a child process with
// the sandbox's credentials, as against the service: the child's CPU
// (user and system, from the start to screenRecordWindow after its first
// chain) is the screen's alone. Each iteration runs the two screens in
// turn; it reports each one's CPU a second and the recorder's share
// above the screen without it.
//
//	go test -run '^$' -bench ScreenRecordSPY -benchtime 3x ./cmd
func BenchmarkScreenRecordSPY(b *testing.B) {
	open := time.Date(2026, 11, 24, 10, 0, 0, 0, time.FixedZone("EST", -5*3600))
	start := time.Now()
	sb, err := sandbox.Start(sandbox.Config{Now: func() time.Time { return open.Add(time.Since(start)) }, PerSecond: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sb.Close() })
	service := []string{"CHAINWATCH_BASE_URL=" + sb.BaseURL, "CHAINWATCH_AUTH_URL=" + sb.AuthURL,
		"CHAINWATCH_CLIENT_ID=" + sandbox.DemoClientID, "CHAINWATCH_CLIENT_SECRET=" + sb.DemoSecret}
	var with, without float64
	var kept int64
	for b.Loop() {
		without += screenCPU(b, service, "", "--no-record")
		rec := filepath.Join(b.TempDir(), "record")
		with += screenCPU(b, service, rec)
		if kept = recordedBytes(b, rec); kept == 0 {
			b.Fatal("the screen with the recorder recorded nothing")
		}
	}
	n := float64(b.N)
	b.ReportMetric(without/n, "cpu-ms/s-no-record")
	b.ReportMetric(with/n, "cpu-ms/s-record")
	b.ReportMetric(100*(with-without)/without, "%-more")
	b.ReportMetric(float64(kept)/1e6, "MB-recorded")
	b.ReportMetric(0, "ns/op")
}

// screenCPU runs the SPY screen in a child process with the service in
// env, its recording in rec (if not ""), and args, and returns its CPU a
// second over its whole run.
func screenCPU(b *testing.B, service []string, rec string, args ...string) float64 {
	env := append(childEnv(b.TempDir(), append([]string{"SPY", "--no-history"}, args...)), service...)
	if rec != "" {
		env = append(env, "CHAINWATCH_RECORD="+rec)
	}
	c := exec.Command(os.Args[0])
	c.Env = append(env, childHoldEnv+"="+screenRecordWindow.String())
	var out, errOut syncBuffer
	c.Stdout, c.Stderr = &out, &errOut
	t0 := time.Now()
	if err := c.Run(); err != nil || !strings.HasPrefix(out.String(), "rss ") {
		b.Fatalf("chainwatch SPY %v: %v; stdout %q; stderr %q", args, err, out.String(), errOut.String())
	}
	wall := time.Since(t0)
	cpu := c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	return float64(cpu) / float64(time.Millisecond) / wall.Seconds()
}

// recordedBytes is the size of the recording under dir, as record list
// says it.
func recordedBytes(b *testing.B, dir string) int64 {
	days, err := record.List(dir)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, d := range days {
		n += d.Bytes
	}
	return n
}
