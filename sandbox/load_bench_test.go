package sandbox

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chainwatch/api"
)

// urlRecorder remembers the last request a client sent, so the load can
// repeat exactly what the api package asks for a whole chain.
type urlRecorder struct {
	mu   sync.Mutex
	last *http.Request
}

func (r *urlRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.last = req.Clone(req.Context())
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// BenchmarkLoadSPXChains is the sandbox under load: b.N whole-chain SPX
// requests (about 20,000 contracts each) from 20 concurrent clients, on a
// market open and moving (the clock runs from a Tuesday at 11:30). Each
// client reads its bodies through. It reports requests a second, the
// latency's median and 99th percentile, and the process's resident
// memory after the run (the sandbox is alone in it but for the load's
// own small buffers).
//
//	go test -run '^$' -bench LoadSPXChains -benchtime 8000x ./sandbox
func BenchmarkLoadSPXChains(b *testing.B) {
	const clients = 20
	now := Clock(time.Date(2026, 11, 24, 11, 30, 0, 0, api.Eastern), 1)
	sb, err := Start(Config{Now: now, PerSecond: 1e6, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	rec := &urlRecorder{}
	client := demoClient(b, sb, now, api.WithHTTPClient(&http.Client{Transport: rec}))
	ch, _, err := client.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPX", Date: api.DateOf(now()).String()})
	if err != nil || len(ch.Options) < 15000 {
		b.Fatalf("the first SPX chain: %v", err)
	}
	url, auth := rec.last.URL.String(), rec.last.Header.Get("Authorization")

	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("Authorization", auth)
				t0 := time.Now()
				resp, err := hc.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = errors.New(resp.Status)
					}
				}
				if err != nil {
					failed.Store(err)
					return
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatalf("a request failed: %v", err)
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(rssMB(b), "rss-MB")
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	b.ReportMetric(float64(mem.HeapInuse)/(1<<20), "heap-MB")
}

// rssMB is this process's resident memory, from /proc.
func rssMB(b *testing.B) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status: ", err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// demoClient is an api client of sb's demo account over loopback, as the
// embedded chainwatch makes one, on the clock now, with opts after.
func demoClient(tb testing.TB, sb *Server, now func() time.Time, opts ...api.Option) *api.Client {
	tb.Helper()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: sb.AuthURL, ClientID: DemoClientID, ClientSecret: sb.DemoSecret})
	if err != nil {
		tb.Fatal(err)
	}
	client, err := api.NewClient(append([]api.Option{api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(now)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return client
}
