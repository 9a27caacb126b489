package history_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"chainwatch/api"
	"chainwatch/history"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
)

var ctx = context.Background()

// rig is a sandbox on loopback, its requests counted, and a client of it
// whose past days go through a store in a temporary directory.
type rig struct {
	sb     *sandbox.Server
	client *api.Client
	store  *history.Store
	reqs   *modeltest.Requests
	path   string
}

func newRig(t testing.TB) *rig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chainwatch", "history.db")
	return newRigAt(t, path)
}

func newRigAt(t testing.TB, path string, opts ...history.Option) *rig {
	t.Helper()
	st, err := history.Open(ctx, path, "sandbox", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reqs := &modeltest.Requests{}
	sb, err := sandbox.Start(sandbox.Config{Logger: reqs.Logger(), Now: modeltest.Clock, PerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	r := &rig{sb: sb, store: st, reqs: reqs, path: path}
	r.client = r.newClient(t, st)
	return r
}

// newClient is another client of the rig's sandbox (another process, say)
// with its own store connection.
func (r *rig) newClient(t testing.TB, st *history.Store) *api.Client {
	t.Helper()
	ts, err := api.NewClientCredentials(api.AuthConfig{AuthURL: r.sb.AuthURL, ClientID: sandbox.DemoClientID, ClientSecret: r.sb.DemoSecret})
	if err != nil {
		t.Fatal(err)
	}
	opts := []api.Option{api.WithBaseURL(r.sb.BaseURL), api.WithTokenSource(ts), api.WithClock(modeltest.Clock)}
	if st != nil {
		opts = append(opts, api.WithHistory(st))
	}
	c, err := api.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var (
	thu = api.NewDate(2026, 11, 19)
	wed = api.NewDate(2026, 11, 18)
)

func TestPastQuotesArePaidForOnce(t *testing.T) {
	r := newRig(t)
	p := api.UnderlyingQuotesParams{Symbols: []string{"SPY", "QQQ"}, Date: thu.String()}
	first, resp, err := r.client.UnderlyingQuotes(ctx, p)
	if err != nil || resp.Cost != 3 || resp.FromHistory || len(first) != 2 {
		t.Fatalf("first: %d symbols, %+v, %v", len(first), resp, err)
	}
	again, resp, err := r.client.UnderlyingQuotes(ctx, p)
	if err != nil || resp.Cost != 0 || !resp.FromHistory {
		t.Fatalf("again: %+v, %v", resp, err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("the stored answer differs:\n got %+v\nwant %+v", again, first)
	}
	if n := r.reqs.Count("/underlying-quotes"); n != 1 {
		t.Errorf("the service saw %d requests, want 1", n)
	}
	// A third symbol: only it is asked for, and the answer keeps the order asked.
	p.Symbols = []string{"AAPL", "SPY", "NOSUCH", "QQQ"}
	got, resp, err := r.client.UnderlyingQuotes(ctx, p)
	if err != nil || resp.Cost != 3 || resp.FromHistory {
		t.Fatalf("with AAPL: %+v, %v", resp, err)
	}
	var syms []string
	for _, s := range got {
		syms = append(syms, s.Symbol)
	}
	if !reflect.DeepEqual(syms, []string{"AAPL", "SPY", "QQQ"}) {
		t.Errorf("symbols %v, want AAPL SPY QQQ", syms)
	}
	paths := r.reqs.Paths()
	if last := paths[len(paths)-1]; last == "" {
		t.Fatal("no path logged")
	}
	// The unknown symbol is remembered as absent: no request for it again.
	_, resp, err = r.client.UnderlyingQuotes(ctx, p)
	if err != nil || !resp.FromHistory {
		t.Fatalf("fourth: %+v, %v", resp, err)
	}
	if n := r.reqs.Count("/underlying-quotes"); n != 2 {
		t.Errorf("the service saw %d requests, want 2", n)
	}
}

func TestLiveAnswersAreNotStored(t *testing.T) {
	r := newRig(t)
	today := r.client.Today().String()
	for range 2 {
		_, resp, err := r.client.UnderlyingQuotes(ctx, api.UnderlyingQuotesParams{Symbols: []string{"SPY"}, Date: today})
		if err != nil || resp.FromHistory || resp.Cost != 4 {
			t.Fatalf("live: %+v, %v", resp, err)
		}
	}
	sum, err := r.store.Summary(ctx)
	if err != nil || len(sum.Services) != 0 {
		t.Errorf("the store holds %+v after live requests, %v", sum.Services, err)
	}
}

func TestPastChainIsPaidForOnce(t *testing.T) {
	r := newRig(t)
	p := api.OptionQuotesParams{Symbol: "SPY", Date: wed.String(), MinExpiry: "2026-11-20", MaxExpiry: "2026-11-27"}
	first, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, p)
	if err != nil || resp.Cost != 3 {
		t.Fatalf("first: %+v, %v", resp, err)
	}
	if !r.client.StoredAnswer(ctx, p, api.EndpointOptionQuotes) {
		t.Error("StoredAnswer is false for a stored chain")
	}
	again, resp, err := r.client.OptionAndUnderlyingQuotes(ctx, p)
	if err != nil || !resp.FromHistory || resp.Cost != 0 {
		t.Fatalf("again: %+v, %v", resp, err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Error("the stored chain differs from the one paid for")
	}
	if n := r.reqs.Count("/option-and-underlying-quotes"); n != 1 {
		t.Errorf("the service saw %d chain requests, want 1", n)
	}
	// Another window of the same day is another answer: not in the store.
	p.MaxExpiry = "2026-12-18"
	if r.client.StoredAnswer(ctx, p, api.EndpointOptionQuotes) {
		t.Error("StoredAnswer is true for a request never made")
	}
}

func TestForeignAndCorruptFilesAreReportedNotTouched(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	body := []byte("this is not a database, it is somebody's notes\n")
	for len(body) < 8192 {
		body = append(body, body...)
	}
	if err := os.WriteFile(garbage, body, 0o600); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES ('keep me')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	foreignBytes, _ := os.ReadFile(foreign)
	for _, tc := range []struct {
		path string
		want []byte
	}{{garbage, body}, {foreign, foreignBytes}} {
		_, err := history.Open(ctx, tc.path, "sandbox")
		var bad *history.BadFileError
		if !errors.As(err, &bad) || bad.Path != tc.path {
			t.Fatalf("Open(%s) = %v, want a BadFileError naming it", tc.path, err)
		}
		if got, _ := os.ReadFile(tc.path); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s was changed by Open", tc.path)
		}
	}
	to, err := history.MoveAside(garbage, modeltest.Now)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(to); !reflect.DeepEqual(got, body) {
		t.Errorf("%s does not hold the file moved aside", to)
	}
	if st, err := history.Open(ctx, garbage, "sandbox"); err != nil {
		t.Errorf("a new store after the move: %v", err)
	} else {
		st.Close()
	}
}

func TestUnwritableDirectoryIsAnErrorNotABadFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := history.Open(ctx, filepath.Join(file, "history.db"), "sandbox")
	var bad *history.BadFileError
	if err == nil || errors.As(err, &bad) {
		t.Fatalf("Open under a file = %v, want an error that is not a BadFileError", err)
	}
}

func TestMigratedStoreReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	st, err := history.Open(ctx, path, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.KeepQuotes(ctx, thu, []string{"SPY"}, []api.Symbol{{Underlying: api.Underlying{Symbol: "SPY", IV30: api.Some(21.5)}}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, err = history.Open(ctx, path, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, missing := st.Quotes(ctx, thu, []string{"SPY"})
	if len(missing) != 0 || len(got) != 1 || got[0].IV30 != api.Some(21.5) {
		t.Errorf("after reopening: %+v, missing %v", got, missing)
	}
	// Another service's store is another market: nothing of "a" answers "b".
	other, err := history.Open(ctx, path, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, missing := other.Quotes(ctx, thu, []string{"SPY"}); len(missing) != 1 {
		t.Error("service b sees service a's quotes")
	}
}
