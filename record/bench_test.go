package record_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// capture keeps the bodies a client receives (an api.Recorder).
type capture struct{ bodies [][]byte }

func (c *capture) Record(a api.Answer) { c.bodies = append(c.bodies, append([]byte(nil), a.Body...)) }

// spyBodies are n SPY chains as the sandbox answers them, two seconds
// apart: every quote moves from one to the next.
func spyBodies(b *testing.B, n int) [][]byte {
	cap := &capture{}
	clock := &moving{t: modeltest.Now}
	c := modeltest.StartSandbox(b, sandbox.Config{Now: clock.now}, api.WithRecorder(cap))
	for i := range n {
		clock.t = modeltest.Now.Add(time.Duration(i) * 2 * time.Second)
		if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
			b.Fatal(err)
		}
	}
	return cap.bodies
}

// BenchmarkSPYRefresh is what an open SPY screen does on each chain
// refresh on the client's side (receive and decode the whole chain, from
// a loopback server of recorded sandbox chains), without and with the
// recorder; cpu-ns/op is the process's CPU time (user and system, the
// recorder's goroutine included) per refresh, disk-B/op what the
// recording grew by a refresh. The bound: with is at most 5 %
// above without.
func BenchmarkSPYRefresh(b *testing.B) {
	bodies := spyBodies(b, 16)
	var next atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The bodies come round again; each answer gets a seq_no of its
		// own, so none is one the recorder already keeps (an open market
		// answers a new chain every time).
		n := next.Add(1)
		body := bodies[int(n)%len(bodies)]
		at := bytes.Index(body, []byte(`"seq_no":`)) + len(`"seq_no":`)
		end := at + bytes.IndexAny(body[at:], ",}")
		seq := []byte(strconv.FormatInt(1e9+n, 10))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)-(end-at)+len(seq)))
		w.Header().Set("Date", time.Now().UTC().Format(http.TimeFormat))
		for _, part := range [][]byte{body[:at], seq, body[end:]} {
			_, _ = w.Write(part)
		}
	}))
	defer srv.Close()
	for _, recording := range []bool{false, true} {
		name := "without"
		if recording {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			opts := []api.Option{api.WithBaseURL(srv.URL)}
			var rec *record.Recorder
			dir := b.TempDir()
			if recording {
				var err error
				if rec, err = record.Open(dir); err != nil {
					b.Fatal(err)
				}
				opts = append(opts, api.WithRecorder(rec))
			}
			c, err := api.NewClient(opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(bodies[0])))
			start := cpuTime()
			n := 0
			for b.Loop() {
				if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if rec != nil {
				rec.Close() // what is queued is written inside the measure
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
			b.ReportMetric(float64(dirBytes(b, dir))/float64(n), "disk-B/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSeekSPY is a replay's seek on a recorded SPY day: the chain as
// at a moment picked across the day, read from the recording, checked,
// decompressed and decoded (what the screen gets before it paints; the
// ladder's apply and frame have benchmarks of their own in model/). The
// issue's bound for a seek that paints: 300 ms.
func BenchmarkSeekSPY(b *testing.B) {
	dir := b.TempDir()
	rec, err := record.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	clock := &moving{t: modeltest.Now}
	c := modeltest.StartSandbox(b, sandbox.Config{Now: clock.now}, api.WithRecorder(rec))
	const answers = 60
	for i := range answers {
		clock.t = modeltest.Now.Add(time.Duration(i) * 10 * time.Second)
		if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
			b.Fatal(err)
		}
	}
	rec.Close()
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		b.Fatal(err)
	}
	defer day.Close()
	var at time.Time
	rc, err := api.NewClient(api.WithBaseURL("http://127.0.0.1:1"), api.WithReplay(day.At(func() time.Time { return at })))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at = modeltest.Now.Add(time.Duration(i*7919%(answers*10)) * time.Second)
		ch, resp, err := rc.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"})
		if err != nil || !resp.FromRecording || len(ch.Options) == 0 {
			b.Fatal(err)
		}
	}
}
