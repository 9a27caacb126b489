package api

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// pageReq is one request the paging server saw and what it answered.
type pageReq struct {
	start  int64
	limit  int
	served []int64
}

// pagingServer serves N records with rising, gapped sequence numbers
// (1000, 1005, ...), honouring the start parameter (inclusive) and limit.
type pagingServer struct {
	t      *testing.T
	seqs   []int64
	param  string                 // seq_no or start_sequence_number
	record func(seq int64) string // one JSON record
	// fail, when set, answers the n-th request (1-based) with a status.
	fail func(n int) int
	// ignoreStart serves from the first record whatever was asked; back
	// serves from that much before the start asked.
	ignoreStart bool
	back        int64

	mu   sync.Mutex
	reqs []pageReq
}

const maxPagingCalls = 20 // a paging loop that goes on longer is a bug

func (s *pagingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.reqs) + 1
	if n > maxPagingCalls {
		s.t.Errorf("more than %d requests: the paging does not stop", maxPagingCalls)
		http.Error(w, "too many", http.StatusBadRequest)
		return
	}
	q := r.URL.Query()
	start, _ := strconv.ParseInt(q.Get(s.param), 10, 64)
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil {
		s.t.Errorf("request %d has no limit: %s", n, r.URL.RawQuery)
	}
	req := pageReq{start: start, limit: limit}
	defer func() { s.reqs = append(s.reqs, req) }()
	w.Header().Set("X-Monthly-Points-Used", strconv.Itoa(15*n))
	if s.fail != nil && s.fail(n) != 0 {
		http.Error(w, "server fault", s.fail(n))
		return
	}
	var recs []string
	for _, seq := range s.seqs {
		if (s.ignoreStart || seq >= start-s.back) && len(recs) < limit {
			recs = append(recs, s.record(seq))
			req.served = append(req.served, seq)
		}
	}
	if len(recs) == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	fmt.Fprintf(w, "[%s]", strings.Join(recs, ","))
}

func (s *pagingServer) requests() []pageReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// pager adapts one of the three iterators to sequence numbers.
type pager struct {
	name   string
	path   string
	param  string
	record func(seq int64) string
	all    func(ctx context.Context, c *Client, start *int64, limit *int, order Order, max int, onPage func(*Response)) iter.Seq2[int64, error]
}

func seqsOf[T any](it iter.Seq2[T, error], seq func(T) int64) iter.Seq2[int64, error] {
	return func(yield func(int64, error) bool) {
		for v, err := range it {
			if !yield(seq(v), err) {
				return
			}
		}
	}
}

var pagers = []pager{
	{"option-trades", "/v1/live/" + pathOptionTrades, "seq_no",
		func(s int64) string { return fmt.Sprintf(`{"seq_no":%d,"root":"AAPL","option_trade_size":1}`, s) },
		func(ctx context.Context, c *Client, start *int64, limit *int, _ Order, max int, onPage func(*Response)) iter.Seq2[int64, error] {
			p := OptionTradesParams{Symbol: "AAPL", Date: "2026-11-20", SeqNo: start, Limit: limit}
			return seqsOf(c.OptionTradesAll(ctx, p, max, onPage), func(t OptionTrade) int64 { return t.SeqNo })
		}},
	{"trades-and-quotes", "/v1/live/" + pathTradesAndQuotes, "start_sequence_number",
		func(s int64) string {
			if s%2 == 0 {
				return fmt.Sprintf(`{"size":1,"price":6.15,"sequence_number":%d}`, s)
			}
			return fmt.Sprintf(`{"bid":6.1,"ask":6.2,"sequence_number":%d}`, s)
		},
		func(ctx context.Context, c *Client, start *int64, limit *int, order Order, max int, onPage func(*Response)) iter.Seq2[int64, error] {
			p := TradesAndQuotesParams{Symbol: "AAPL", Date: "2026-11-20", MinTime: "09:30:00.000", MaxTime: "16:00:00.000",
				StartSequenceNumber: start, Limit: limit, OrderByTime: order}
			return seqsOf(c.TradesAndQuotesAll(ctx, p, max, onPage), TAQRecord.SequenceNumber)
		}},
	{"option-trades-with-greeks", "/v1/live/" + pathTradesWithGreeks, "start_sequence_number",
		func(s int64) string { return fmt.Sprintf(`{"delta":0.5,"size":1,"sequence_number":%d}`, s) },
		func(ctx context.Context, c *Client, start *int64, limit *int, order Order, max int, onPage func(*Response)) iter.Seq2[int64, error] {
			p := OptionTradesWithGreeksParams{Symbol: "AAPL261218C00230000", Date: "2026-11-20", MinTime: "09:30:00.000",
				MaxTime: "16:00:00.000", StartSequenceNumber: start, Limit: limit, OrderByTime: order}
			return seqsOf(c.OptionTradesWithGreeksAll(ctx, p, max, onPage), func(t OptionTradeWithGreeks) int64 { return t.SequenceNumber })
		}},
}

// newPaging starts a paging server of n records for pg.
func newPaging(t *testing.T, pg pager, n int) (*Client, *pagingServer) {
	c, mux, _ := setup(t)
	srv := &pagingServer{t: t, param: pg.param, record: pg.record}
	for i := range n {
		srv.seqs = append(srv.seqs, 1000+5*int64(i))
	}
	mux.Handle(pg.path, srv)
	return c, srv
}

// collect collects an iterator's values and errors.
func collect(it iter.Seq2[int64, error]) (got []int64, errs []error) {
	for v, err := range it {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, v)
	}
	return got, errs
}

func TestPagingYieldsInOrder(t *testing.T) {
	cases := []struct {
		name      string
		n, max    int
		start     *int64
		limit     *int
		wantStart int // index of the first record yielded
		wantPages int
	}{
		{"short last page", 10, 100, nil, Ptr(3), 0, 4},
		{"204 after full pages", 9, 100, nil, Ptr(3), 0, 4},
		{"max cuts the last page", 10, 7, nil, Ptr(3), 0, 3},
		{"max below the largest page", 10, 7, nil, nil, 0, 1},
		{"everything in one page", 10, 50, nil, nil, 0, 1},
		{"from a start number", 10, 100, Ptr[int64](1012), Ptr(4), 3, 2},
		{"no data", 0, 5, nil, nil, 0, 1},
	}
	for _, pg := range pagers {
		for _, tc := range cases {
			t.Run(pg.name+"/"+tc.name, func(t *testing.T) {
				c, srv := newPaging(t, pg, tc.n)
				var pages []*Response
				got, errs := collect(pg.all(t.Context(), c, tc.start, tc.limit, "", tc.max, func(r *Response) { pages = append(pages, r) }))
				if len(errs) != 0 {
					t.Fatalf("errors %v", errs)
				}
				want := srv.seqs[min(tc.wantStart, len(srv.seqs)):]
				want = want[:min(len(want), tc.max)]
				if !slices.Equal(got, want) {
					t.Errorf("yielded %v, want %v", got, want)
				}
				reqs := srv.requests()
				if len(reqs) != tc.wantPages || len(pages) != len(reqs) {
					t.Fatalf("%d requests, %d pages seen; want %d", len(reqs), len(pages), tc.wantPages)
				}
				size := 10000
				if tc.limit != nil {
					size = *tc.limit
				}
				yielded := 0
				for i, r := range reqs {
					wantFrom := derefOr(tc.start, 0)
					if i > 0 {
						wantFrom = reqs[i-1].served[len(reqs[i-1].served)-1] + 1
					}
					if r.start != wantFrom {
						t.Errorf("request %d starts at %d, want %d (the last one + 1)", i, r.start, wantFrom)
					}
					if wantLimit := min(size, tc.max-yielded); r.limit != wantLimit {
						t.Errorf("request %d asks for %d, want %d (max %d, %d yielded)", i, r.limit, wantLimit, tc.max, yielded)
					}
					yielded += len(r.served)
					if pages[i].Cost != 15 || pages[i].PointsUsed != Some(int64(15*(i+1))) {
						t.Errorf("page %d: cost %d, points used %v", i, pages[i].Cost, pages[i].PointsUsed)
					}
				}
			})
		}
	}
}

func TestPagingStopsOnError(t *testing.T) {
	for _, pg := range pagers {
		t.Run(pg.name, func(t *testing.T) {
			c, srv := newPaging(t, pg, 10)
			srv.fail = func(n int) int { return map[int]int{2: http.StatusInternalServerError}[n] }
			var pages int
			var seen []string
			for v, err := range pg.all(t.Context(), c, nil, Ptr(3), "", 100, func(*Response) { pages++ }) {
				if err != nil {
					seen = append(seen, "error")
					var apiErr *APIError
					if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusInternalServerError {
						t.Errorf("error %v, want the 500", err)
					}
					continue
				}
				seen = append(seen, strconv.FormatInt(v, 10))
			}
			if want := []string{"1000", "1005", "1010", "error"}; !slices.Equal(seen, want) {
				t.Errorf("yielded %v, want %v", seen, want)
			}
			if n := len(srv.requests()); n != 2 || pages != 2 {
				t.Errorf("%d requests, %d pages seen; want 2", n, pages)
			}
		})
	}
}

func TestPagingBreakSendsNoMore(t *testing.T) {
	for _, pg := range pagers {
		t.Run(pg.name, func(t *testing.T) {
			c, srv := newPaging(t, pg, 10)
			var got []int64
			for v, err := range pg.all(t.Context(), c, nil, Ptr(3), "", 100, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if got = append(got, v); len(got) == 4 {
					break
				}
			}
			if !slices.Equal(got, srv.seqs[:4]) {
				t.Errorf("yielded %v, want %v", got, srv.seqs[:4])
			}
			if n := len(srv.requests()); n != 2 {
				t.Errorf("%d requests after breaking in the second page, want 2", n)
			}
		})
	}
}

func TestPagingRefusedBeforeSending(t *testing.T) {
	for _, pg := range pagers {
		cases := []struct {
			name  string
			max   int
			order Order
			want  string
		}{
			{"max 0", 0, "", "positive maximum"},
			{"max -1", -1, "", "positive maximum"},
			{"descending", 10, Descending, "ASC"},
		}
		for _, tc := range cases {
			if tc.order == Descending && pg.param == "seq_no" {
				continue // option-trades has no order
			}
			t.Run(pg.name+"/"+tc.name, func(t *testing.T) {
				c, _, _ := setup(t) // its catch-all handler fails the test on any request
				got, errs := collect(pg.all(t.Context(), c, nil, nil, tc.order, tc.max, nil))
				if len(got) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) {
					t.Errorf("yielded %v and errors %v, want one error saying %q", got, errs, tc.want)
				}
			})
		}
	}
}

func TestPagingNonAdvancingSequence(t *testing.T) {
	for _, pg := range pagers {
		for _, tc := range []struct {
			name   string
			ignore bool
			back   int64
		}{{"repeated page", true, 0}, {"overlapping page", false, 5}} {
			t.Run(pg.name+"/"+tc.name, func(t *testing.T) {
				c, srv := newPaging(t, pg, 10)
				srv.ignoreStart, srv.back = tc.ignore, tc.back
				got, errs := collect(pg.all(t.Context(), c, nil, Ptr(3), "", 1000, nil))
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), "sequence numbers went back") {
					t.Fatalf("errors %v, want one saying the sequence went back", errs)
				}
				if n := len(srv.requests()); n != 2 {
					t.Errorf("%d requests, want 2: the second page shows the sequence did not advance", n)
				}
				if !slices.Equal(got, srv.seqs[:3]) {
					t.Errorf("yielded %v, want the first page only: nothing of the bad page", got)
				}
			})
		}
	}
}
