package bus_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/serve/bus"
)

// fanoutHosts is how many hosts BenchmarkFanoutSPX serves: the issue's
// desk spread over ten boxes.
const fanoutHosts = 10

// BenchmarkFanoutSPX is one SPX chain answer, as the sandbox sends it,
// going from the source to ten hosts over the embedded bus: each
// iteration the source records a new answer (a new moment, the same
// body), and it ends when every host's Replay returns it. It reports the
// latency from Record to a host having the answer (p50 and p99 over every
// host and iteration), the answer's bytes as received from the service,
// and the bytes each host received for it over the bus (the compressed
// parts, the manifest and NATS's framing).
//
//	go test -run '^$' -bench FanoutSPX -benchtime 20x ./serve/bus
func BenchmarkFanoutSPX(b *testing.B) {
	answer := spxAnswer(b)
	srv, err := bus.StartServer(bus.ServerOptions{Listen: "127.0.0.1:0", StoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	snc, err := bus.Connect("", "source", bus.Creds{}, false, nil, srv.SourceOptions()...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(snc.Close)
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	src, err := bus.OpenSource(ctx, snc, bus.SourceOptions{Host: "source"})
	stop()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(src.Close)
	hosts, conns := make([]*bus.Host, fanoutHosts), make([]*nats.Conn, fanoutHosts)
	for i := range hosts {
		name := "host" + string(rune('a'+i))
		nc, err := bus.Connect(srv.URL(), name, bus.Creds{}, true, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		h, err := bus.OpenHost(nc, bus.HostOptions{Name: name})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(h.Close)
		hosts[i], conns[i] = h, nc
	}
	// The first answer, outside the measure: every host's mirror is up.
	at := time.Now().UTC().Truncate(time.Second)
	answer.At = at
	src.Record(answer)
	if lat := awaitAll(b, hosts, answer); lat == nil {
		b.Fatal("the hosts never had the first answer")
	}
	in0 := inBytes(conns)
	var lats []time.Duration
	n := 0
	for b.Loop() {
		n++
		answer.At = at.Add(time.Duration(n) * time.Second)
		src.Record(answer)
		lat := awaitAll(b, hosts, answer)
		if lat == nil {
			b.Fatalf("iteration %d: some host never had the answer within 30 s", n)
		}
		lats = append(lats, lat...)
	}
	slices.Sort(lats)
	ms := func(q float64) float64 {
		return float64(lats[min(len(lats)-1, int(q*float64(len(lats))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(float64(len(answer.Body))/1e6, "MB-answer")
	b.ReportMetric(float64(inBytes(conns)-in0)/float64(n)/fanoutHosts/1e6, "MB-bus/host")
}

// spxAnswer is the sandbox's whole SPX chain at the tests' moment, as
// its client received it.
func spxAnswer(b *testing.B) api.Answer {
	var (
		mu  sync.Mutex
		got api.Answer
	)
	rec := recorderFunc(func(a api.Answer) {
		mu.Lock()
		defer mu.Unlock()
		if a.Endpoint == api.EndpointOptionQuotes {
			got = a
		}
	})
	c := modeltest.StartSandbox(b, sandbox.Config{}, api.WithRecorder(rec))
	if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPX", Date: api.Today(modeltest.Now).String()}); err != nil {
		b.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got.Body) == 0 {
		b.Fatal("the client recorded no SPX chain")
	}
	got.Body = append([]byte(nil), got.Body...)
	return got
}

// recorderFunc is an api.Recorder of a function.
type recorderFunc func(api.Answer)

func (f recorderFunc) Record(a api.Answer) { f(a) }

// awaitAll waits until every host replays a (its moment), at most 30 s,
// and returns how long each took from now; nil when one never did.
func awaitAll(b *testing.B, hosts []*bus.Host, a api.Answer) []time.Duration {
	start := time.Now()
	lats := make([]time.Duration, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			for end := start.Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Microsecond) {
				ctx, stop := context.WithTimeout(context.Background(), time.Second)
				got, err := h.Replay(ctx, []string{a.Key})
				stop()
				if err == nil && got.At.Equal(a.At) {
					lats[i] = time.Since(start)
					return
				}
			}
			lats[i] = -1
		})
	}
	wg.Wait()
	if slices.Contains(lats, -1) {
		return nil
	}
	return lats
}

// inBytes is what the connections have received in all.
func inBytes(conns []*nats.Conn) uint64 {
	var n uint64
	for _, c := range conns {
		n += c.Stats().InBytes
	}
	return n
}
