package record_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// moving is a sandbox clock that a test moves by hand, so successive
// answers carry successive Date headers.
type moving struct{ t time.Time }

func (m *moving) now() time.Time { return m.t }

// recordSession asks the sandbox for SPY's chain n times, a second apart
// on the sandbox's clock, with a recorder under dir, and returns the
// chains as received.
func recordSession(t *testing.T, dir string, n int, opts ...record.Option) ([]*api.SymbolWithOptions, []time.Time) {
	t.Helper()
	rec, err := record.Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	clock := &moving{t: modeltest.Now}
	c := modeltest.StartSandbox(t, sandbox.Config{Now: clock.now}, api.WithRecorder(rec))
	var chains []*api.SymbolWithOptions
	var moments []time.Time
	day := api.Today(clock.t).String()
	for i := range n {
		clock.t = modeltest.Now.Add(time.Duration(i) * 2 * time.Second)
		ch, resp, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: day})
		if err != nil {
			t.Fatal(err)
		}
		if resp.FromRecording {
			t.Fatal("a live answer said it came from the recording")
		}
		chains = append(chains, ch)
		moments = append(moments, clock.t.Truncate(time.Second))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if n := rec.Notice(); n != "" {
		t.Fatalf("notice %q", n)
	}
	return chains, moments
}

// TestRecordsEveryAnswerAndReplaysIt: every answer is kept by day, the
// list says so, and a replay client gets at each moment the chain the
// live one got, for 0 points, narrowed as a headless command asks.
func TestRecordsEveryAnswerAndReplaysIt(t *testing.T) {
	dir := t.TempDir()
	chains, moments := recordSession(t, dir, 4)
	days, err := record.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 1 || days[0].Date != "2026-11-20" || days[0].Answers < 4 || len(days[0].Symbols) != 1 || days[0].Symbols[0] != "SPY" {
		t.Fatalf("list %+v", days)
	}
	if !days[0].First.Equal(moments[0]) && days[0].First.After(moments[0]) {
		t.Fatalf("first %v, want at most %v", days[0].First, moments[0])
	}
	if len(days[0].Problems) != 0 {
		t.Fatalf("problems %v", days[0].Problems)
	}
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		t.Fatal(err)
	}
	defer day.Close()
	for i, at := range moments {
		c := replayClient(t, day, at.Add(time.Second))
		ch, resp, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.FromRecording || resp.Cost != 0 {
			t.Fatalf("replayed answer %+v", resp)
		}
		if len(ch.Options) != len(chains[i].Options) || ch.Timestamp != chains[i].Timestamp || ch.Options[0] != chains[i].Options[0] {
			t.Fatalf("answer %d replayed differently: %d contracts, last %v; want %d, %v", i, len(ch.Options), ch.Timestamp, len(chains[i].Options), chains[i].Timestamp)
		}
		exp := chains[i].Options[len(chains[i].Options)/2].Expiry
		one, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20", MinExpiry: exp.String(), MaxExpiry: exp.String()})
		if err != nil || len(one.Options) == 0 || len(one.Options) >= len(ch.Options) {
			t.Fatalf("narrowed replay: %v, %d contracts", err, len(one.Options))
		}
		for _, o := range one.Options {
			if o.Expiry != exp {
				t.Fatalf("narrowed replay holds expiry %v", o.Expiry)
			}
		}
	}
	c := replayClient(t, day, moments[0].Add(-time.Minute))
	_, _, err = c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"})
	var nr *api.NotRecordedError
	if !asNotRecorded(err, &nr) || len(nr.Nearest) == 0 || !nr.Nearest[0].Equal(moments[0]) {
		t.Fatalf("before the recording: %v", err)
	}
}

// TestIdenticalBodiesStoredOnce: the sandbox on a stopped clock answers
// the same chain each time; the recording keeps its body once.
func TestIdenticalBodiesStoredOnce(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := modeltest.StartSandbox(t, sandbox.Config{}, api.WithRecorder(rec))
	size := func() int64 { return dirBytes(t, dir) }
	ask := func() {
		if _, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
			t.Fatal(err)
		}
	}
	ask()
	rec.Close() // flushes; a closed recorder records nothing more
	one := size()
	rec, err = record.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c2 := modeltest.StartSandbox(t, sandbox.Config{}, api.WithRecorder(rec))
	for range 5 {
		if _, _, err := c2.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"}); err != nil {
			t.Fatal(err)
		}
	}
	rec.Close()
	all := size()
	// The second segment holds the body once and five answers.
	if second := all - one; second > one+5*1024 {
		t.Fatalf("five identical answers took %d bytes, one took %d", second, one)
	}
	days, _ := record.List(dir)
	if days[0].Answers < 6 {
		t.Fatalf("answers %d", days[0].Answers)
	}
}

func replayClient(t *testing.T, day *record.Day, at time.Time) *api.Client {
	t.Helper()
	c, err := api.NewClient(api.WithBaseURL("http://127.0.0.1:1"), api.WithReplay(day.At(func() time.Time { return at })), api.WithClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func dirBytes(t testing.TB, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReplayedTapeIsEveryRecordedPage: a tape asks from a time of its own
// and pages by seq_no; a replay answers it from every recorded page of the
// symbol's trades at or before the moment, each trade once, filtered.
func TestReplayedTapeIsEveryRecordedPage(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := modeltest.StartSandbox(t, sandbox.Config{}, api.WithRecorder(rec))
	all, _, err := c.OptionTrades(context.Background(), api.OptionTradesParams{Symbol: "SPY", Date: "2026-11-20", MinTime: "11:00:00.000", Limit: ptrTo(10000)})
	if err != nil || len(all) < 4 {
		t.Fatalf("%d trades: %v", len(all), err)
	}
	mid := all[len(all)/2].SeqNo
	if _, _, err := c.OptionTrades(context.Background(), api.OptionTradesParams{Symbol: "SPY", Date: "2026-11-20", SeqNo: &mid, Limit: ptrTo(10000)}); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		t.Fatal(err)
	}
	defer day.Close()
	rc := replayClient(t, day, modeltest.Now)
	got, resp, err := rc.OptionTrades(context.Background(), api.OptionTradesParams{Symbol: "SPY", Date: "2026-11-20", MinTime: "11:15:00.000", Limit: ptrTo(10000)})
	if err != nil || !resp.FromRecording {
		t.Fatal(err)
	}
	want := 0
	for _, tr := range all {
		if tr.Timestamp >= api.NewTimeOfDay(11, 15, 0, 0) {
			want++
		}
	}
	if len(got) != want || want == 0 {
		t.Fatalf("replayed %d trades from 11:15, recorded %d", len(got), want)
	}
	for i := 1; i < len(got); i++ {
		if got[i].SeqNo <= got[i-1].SeqNo {
			t.Fatal("replayed trades out of seq_no order or twice")
		}
	}
	early := replayClient(t, day, modeltest.Now.Add(-time.Hour))
	if _, _, err := early.OptionTrades(context.Background(), api.OptionTradesParams{Symbol: "SPY", Date: "2026-11-20"}); !api.IsNotRecorded(err) {
		t.Fatalf("before the recording: %v", err)
	}
}

func ptrTo[T any](v T) *T { return &v }
