package record_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/record"
	"chainwatch/sandbox"
)

// TestParquetExportReadsBack: a recorded day of SPY chains and trades is
// written as Hive-partitioned Parquet, and every file read back holds the
// recording's rows: a row per contract per chain answer, each trade once.
func TestParquetExportReadsBack(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clock := &moving{t: modeltest.Now}
	c := modeltest.StartSandbox(t, sandbox.Config{Now: clock.now}, api.WithRecorder(rec))
	var chains []*api.SymbolWithOptions
	trades := map[int64]api.OptionTrade{}
	for i := range 3 {
		clock.t = modeltest.Now.Add(time.Duration(i) * 5 * time.Second)
		ch, _, err := c.OptionAndUnderlyingQuotes(context.Background(), api.OptionQuotesParams{Symbol: "SPY", Date: "2026-11-20"})
		if err != nil {
			t.Fatal(err)
		}
		chains = append(chains, ch)
		ts, _, err := c.OptionTrades(context.Background(), api.OptionTradesParams{Symbol: "SPY", Date: "2026-11-20", MinTime: "11:29:00.000"})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range ts {
			trades[tr.SeqNo] = tr
		}
	}
	rec.Close()
	if len(trades) == 0 {
		t.Fatal("the sandbox answered no trades to export")
	}
	day, err := record.OpenDay(dir, api.NewDate(2026, 11, 20))
	if err != nil {
		t.Fatal(err)
	}
	defer day.Close()
	out := t.TempDir()
	got, err := record.Export(day, out)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, ch := range chains {
		want += len(ch.Options)
	}
	if got.Chains != want || got.Trades != len(trades) || len(got.Files) != 2 || got.Skipped != 0 {
		t.Fatalf("exported %+v, want %d chain rows and %d trades", got, want, len(trades))
	}
	chainFile := filepath.Join(out, "chains", "date=2026-11-20", "symbol=SPY", "part-0.parquet")
	rows, err := parquet.ReadFile[record.ChainRow](chainFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != want {
		t.Fatalf("%d chain rows read back, want %d", len(rows), want)
	}
	for i, ch := range chains {
		for j, o := range ch.Options {
			r := rows[i*len(chains[0].Options)+j]
			if r.Option != o.Option || r.Strike != o.Strike || time.Unix(int64(r.Expiry)*86400, 0).UTC().Format("2006-01-02") != o.Expiry.String() ||
				!same(r.Bid, o.Bid) || !same(r.IV, o.IV) || !same(r.OpenInterest, o.OpenInterest) || r.AnswerTime.IsZero() {
				t.Fatalf("chain %d row %d: %+v, recorded %+v", i, j, r, o)
			}
		}
	}
	tradeFile := filepath.Join(out, "trades", "date=2026-11-20", "symbol=SPY", "part-0.parquet")
	trs, err := parquet.ReadFile[record.TradeRow](tradeFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range trs {
		tr, ok := trades[r.SeqNo]
		if !ok || r.Size != tr.Size || !same(r.Price, tr.Price) || !strings.HasPrefix(r.Option, "SPY") {
			t.Fatalf("trade row %+v, recorded %+v", r, tr)
		}
	}
	if len(trs) != len(trades) {
		t.Fatalf("%d trades read back, want %d", len(trs), len(trades))
	}
}

func same[T comparable](p *T, n api.Null[T]) bool {
	v, ok := n.Get()
	return (p == nil) == !ok && (p == nil || *p == v)
}
