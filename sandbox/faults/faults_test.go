package faults

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want Config
		err  string
	}{
		{spec: "", want: Config{}},
		{spec: "   ", want: Config{}},
		{spec: "0.1", want: Config{Rate: 0.1, Slow: DefaultSlow}},
		{spec: "1", want: Config{Rate: 1, Slow: DefaultSlow}},
		{spec: " 0.05 : 500, 503 ,slow", want: Config{Rate: 0.05, Kinds: []Kind{Kind500, Kind503, KindSlow}, Slow: DefaultSlow}},
		{spec: "0.2:token,token,reset", want: Config{Rate: 0.2, Kinds: []Kind{KindToken, KindReset}, Slow: DefaultSlow}},
		{spec: "0.5:500,503,429,slow,truncate,reset,token", want: Config{Rate: 0.5, Kinds: Kinds(), Slow: DefaultSlow}},
		{spec: "2", err: `faults: rate must be a number in (0, 1], got "2"`},
		{spec: "0", err: `faults: rate must be a number in (0, 1], got "0"`},
		{spec: "-0.1", err: `faults: rate must be a number in (0, 1], got "-0.1"`},
		{spec: "NaN", err: `faults: rate must be a number in (0, 1], got "NaN"`},
		{spec: "ten:500", err: `faults: rate must be a number in (0, 1], got "ten"`},
		{spec: ":500", err: `faults: rate must be a number in (0, 1], got ""`},
		{spec: "0.1:x", err: `faults: unknown kind "x": want one of 500, 503, 429, slow, truncate, reset, token`},
		{spec: "0.1:500,Slow", err: `faults: unknown kind "Slow": want one of 500, 503, 429, slow, truncate, reset, token`},
		{spec: "0.1:", err: `faults: empty kind in "0.1:"`},
		{spec: "0.1:500,,503", err: `faults: empty kind in "0.1:500,,503"`},
	} {
		got, err := Parse(tc.spec)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Parse(%q) error = %v; want one line starting %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.spec, got, err, tc.want)
		}
	}
}

func TestConfigString(t *testing.T) {
	for _, spec := range []string{"", "0.1", "0.05:500,503,slow", "1:token"} {
		cfg, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.String(); got != spec {
			t.Errorf("Parse(%q).String() = %q", spec, got)
		}
	}
}

// handler is a comparable handler, so the disabled middleware can be seen
// to return it unchanged.
type handler struct{ body string }

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(h.body))
}

func TestDisabledIsPassThrough(t *testing.T) {
	h := &handler{body: "ok"}
	if got := Middleware(Config{}, nil)(h); got != http.Handler(h) {
		t.Fatalf("disabled middleware wrapped the handler: %T", got)
	}
}

// statuses sends n requests straight through ServeHTTP and returns the
// status codes in order.
func statuses(cfg Config, n int) []int {
	mw := Middleware(cfg, func(*http.Request) {})(&handler{body: "ok"})
	out := make([]int, n)
	for i := range out {
		rec := httptest.NewRecorder()
		mw.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/live/x", nil))
		out[i] = rec.Code
	}
	return out
}

func TestRateIsHonoured(t *testing.T) {
	// Kinds that need no real connection; each maps to its own status.
	cfg := Config{Rate: 0.2, Kinds: []Kind{Kind500, Kind503, Kind429, KindToken}, Seed: 42}
	const n = 2000
	count := map[int]int{}
	for _, s := range statuses(cfg, n) {
		count[s]++
	}
	faults := n - count[http.StatusOK]
	// Expected 400, standard deviation about 18.
	if faults < 330 || faults > 470 {
		t.Errorf("%d faults in %d requests at rate 0.2; counts %v", faults, n, count)
	}
	for _, s := range []int{500, 503, 429, 401} {
		// Each kind about 100, standard deviation about 9.
		if count[s] < 60 || count[s] > 140 {
			t.Errorf("status %d: %d times; want about 100 (counts %v)", s, count[s], count)
		}
	}
}

func TestRateOneAlwaysFaults(t *testing.T) {
	for i, s := range statuses(Config{Rate: 1, Kinds: []Kind{Kind503}}, 200) {
		if s != http.StatusServiceUnavailable {
			t.Fatalf("request %d: status %d; want 503", i, s)
		}
	}
}

func TestSeedDeterminesSequence(t *testing.T) {
	cfg := Config{Rate: 0.3, Kinds: []Kind{Kind500, Kind429, KindToken}, Seed: 7}
	a, b := statuses(cfg, 300), statuses(cfg, 300)
	if !slices.Equal(a, b) {
		t.Fatal("same seed gave different fault sequences")
	}
	cfg.Seed = 8
	if slices.Equal(a, statuses(cfg, 300)) {
		t.Fatal("seeds 7 and 8 gave the same 300-request sequence")
	}
}

func TestConcurrentRequests(t *testing.T) {
	mw := Middleware(Config{Rate: 0.5, Kinds: []Kind{Kind500, KindSlow}, Slow: time.Microsecond}, nil)(&handler{body: "ok"})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				rec := httptest.NewRecorder()
				mw.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
				if rec.Code != 200 && rec.Code != 500 {
					t.Errorf("status %d", rec.Code)
				}
			}
		})
	}
	wg.Wait()
}

func TestUnknownKindPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Middleware accepted kind \"404\"")
		}
	}()
	Middleware(Config{Rate: 1, Kinds: []Kind{"404"}}, nil)
}
