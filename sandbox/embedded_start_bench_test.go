package sandbox

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
)

// The start of the embedded sandbox is measured in a process of its own:
// what a process makes once (the universe, the calendar, a key) would
// otherwise be paid by the first iteration only. The benchmark runs this
// test binary again with startChildEnv set, and TestMain hands that child
// to startChild instead of the tests.
const (
	startChildEnv   = "CHAINWATCH_BENCH_START_CHILD"
	startStateEnv   = "CHAINWATCH_BENCH_START_STATE"
	startProfileEnv = "CHAINWATCH_BENCH_START_PROFILE"
)

func TestMain(m *testing.M) {
	if os.Getenv(startChildEnv) != "" {
		os.Exit(startChild())
	}
	os.Exit(m.Run())
}

// BenchmarkEmbeddedStart is the embedded sandbox's start as `chainwatch`
// pays it, each iteration in a new process: Start on the one-client market
// (start-ms), then the demo client's first token by client credentials over
// loopback (token-ms, from the beginning), then its first chain, SPY's
// expiries of the next week as `chainwatch chain SPY` asks for them
// (chain-ms, from the beginning); cpu-ms is the child's CPU time, user
// and system, and min-chain-ms the fastest start's chain-ms, both of
// which other work on the machine changes less than the means. The clock is an open market. The key
// file is in one state directory for the whole run, as a user's is, made
// by a start before the timed ones.
//
//	go test -run '^$' -bench EmbeddedStart -benchtime 20x ./sandbox
//
// With -cpuprofile, each child also writes its own profile beside it
// (FILE.child-N), since the parent's holds nothing of the start; read them
// together: go tool pprof -top FILE.child-*.
func BenchmarkEmbeddedStart(b *testing.B) {
	state := b.TempDir()
	prof := ""
	if f := flag.Lookup("test.cpuprofile"); f != nil && f.Value.String() != "" {
		prof = f.Value.String()
		if !filepath.IsAbs(prof) {
			if dir := flag.Lookup("test.outputdir"); dir != nil && dir.Value.String() != "" {
				prof = filepath.Join(dir.Value.String(), prof)
			}
		}
	}
	var sums [3]float64
	var cpu time.Duration
	fastest := math.Inf(1)
	start := func(i int) {
		before := sums[2]
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), startChildEnv+"=1", startStateEnv+"="+state)
		if prof != "" && i > 0 {
			cmd.Env = append(cmd.Env, startProfileEnv+"="+prof+".child-"+strconv.Itoa(i))
		}
		var errOut strings.Builder
		cmd.Stderr = &errOut
		out, err := cmd.Output()
		f := strings.Fields(string(out))
		if err != nil || len(f) != 3 {
			b.Fatalf("child: %v, said %q, stderr %q", err, out, errOut.String())
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		for k := range sums {
			v, err := strconv.ParseFloat(f[k], 64)
			if err != nil {
				b.Fatalf("child said %q", out)
			}
			sums[k] += v
		}
		if i > 0 {
			fastest = min(fastest, sums[2]-before)
		}
	}
	start(0)
	sums, cpu = [3]float64{}, 0
	i := 0
	for b.Loop() {
		i++
		start(i)
	}
	for k, unit := range []string{"start-ms", "token-ms", "chain-ms"} {
		b.ReportMetric(sums[k]/float64(b.N), unit)
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms")
	b.ReportMetric(fastest, "min-chain-ms")
	b.ReportMetric(0, "ns/op")
}

// startChild is one start of BenchmarkEmbeddedStart: it prints the three
// times in milliseconds on one line, or says what failed on stderr.
func startChild() int {
	if p := os.Getenv(startProfileEnv); p != "" {
		f, err := os.Create(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	began := time.Now()
	ms := func() float64 { return float64(time.Since(began)) / float64(time.Millisecond) }
	now := Clock(time.Date(2026, 11, 24, 11, 0, 0, 0, api.Eastern), 1)
	sb, err := Start(Config{Now: now, Market: OneClientMarket(now, ""), Logger: slog.New(slog.DiscardHandler),
		KeyFile: filepath.Join(os.Getenv(startStateEnv), "sandbox-keys.pem")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer sb.Close()
	start := ms()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: sb.AuthURL, ClientID: DemoClientID, ClientSecret: sb.DemoSecret})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	if _, err := ts.Token(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	token := ms()
	client, err := api.NewClient(api.WithBaseURL(sb.BaseURL), api.WithTokenSource(ts), api.WithClock(now))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	day := api.DateOf(now())
	ch, _, err := client.OptionAndUnderlyingQuotes(ctx, api.OptionQuotesParams{Symbol: "SPY", Date: day.String(),
		MinExpiry: day.String(), MaxExpiry: day.AddDays(7).String()})
	if err != nil || len(ch.Options) == 0 {
		fmt.Fprintln(os.Stderr, "the SPY chain:", err)
		return 1
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "%.3f %.3f %.3f\n", start, token, ms())
	return errorCode(w.Flush())
}

func errorCode(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
