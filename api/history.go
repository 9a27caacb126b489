package api

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// History answers requests for days before today from a local store: a
// past day's answer never changes (service-conventions.md, "A historical
// request ... never changes, so a client may cache it forever"), so it is
// paid for once. The client asks it before sending a historical request
// and hands it every historical answer it paid for; a live answer is never
// handed over, since its day is not over. chainwatch/history is the store.
//
// Every method is best effort: a store that fails to read is a miss, one
// that fails to write loses only the saving, never the answer.
type History interface {
	// Answer returns the stored body of a historical request (nil with
	// found for a stored 204), by its key.
	Answer(ctx context.Context, key string) (body []byte, found bool)
	// KeepAnswer stores a historical request's body (nil for a 204).
	KeepAnswer(ctx context.Context, key string, day Date, body []byte) error
	// Quotes returns the stored underlying-quotes elements of symbols on
	// day, in the order asked (a symbol the service had no data for is
	// stored as absent and left out), and the symbols not stored at all.
	Quotes(ctx context.Context, day Date, symbols []string) (got []Symbol, missing []string)
	// KeepQuotes stores a historical underlying-quotes answer: every
	// symbol asked, present in got or absent from it.
	KeepQuotes(ctx context.Context, day Date, asked []string, got []Symbol) error
}

// WithHistory sets the store that answers requests for past days (nil:
// none, every request goes to the service).
func WithHistory(h History) Option {
	return func(c *Client) error { c.history = h; return nil }
}

// History returns the client's store of past days, nil when it has none.
func (c *Client) History() History { return c.history }

// StoredAnswer reports whether a historical GET to ep with p would be
// answered from the store, at 0 points: --cost says so before anything
// is sent. False when there is no store, the day is not past, or p is not
// a request the store keeps.
func (c *Client) StoredAnswer(ctx context.Context, p params, ep Endpoint) bool {
	if c.history == nil || p.Validate() != nil || !IsHistorical(p.date(), c.Today()) {
		return false
	}
	if up, ok := p.(UnderlyingQuotesParams); ok {
		if up.SeqNo != nil {
			return false
		}
		_, missing := c.history.Quotes(ctx, up.date(), upperAll(up.Symbols))
		return len(missing) == 0
	}
	path, ok := endpointPaths[ep]
	if !ok {
		return false
	}
	_, found := c.history.Answer(ctx, c.historyKey(path, p.query()))
	return found
}

// endpointPaths are the GET paths whose past answers are kept, by endpoint.
var endpointPaths = map[Endpoint]string{
	EndpointOptionQuotes:     pathOptionQuotes,
	EndpointOptionTrades:     pathOptionTrades,
	EndpointTradesAndQuotes:  pathTradesAndQuotes,
	EndpointTradesWithGreeks: pathTradesWithGreeks,
}

// historyKey names a past answer: its path, its query in canonical order
// and the response format. The mode is not in it: a past day's answer is
// the day's end-of-day state on either path (and costs the same).
func (c *Client) historyKey(path string, q url.Values) string {
	q = cloneValues(q)
	q.Del("mode")
	return c.format.contentType() + " " + path + "?" + q.Encode()
}

func cloneValues(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

// fromHistory is the Response of an answer the store gave: nothing was
// sent and nothing charged.
func fromHistory(cl call) *Response {
	return &Response{StatusCode: http.StatusOK, Endpoint: cl.endpoint, Mode: cl.mode, Historical: true, FromHistory: true}
}

// remembered answers a historical call from the store when it has it, and
// otherwise sends it and keeps what was paid for (a 200's body or a 204).
// The store is written with a context that a Ctrl-C does not cancel: an
// answer already charged is not lost.
func (c *Client) remembered(ctx context.Context, cl call, day Date) ([]byte, *Response, error) {
	if c.history == nil || !cl.historical || cl.method != http.MethodGet {
		return c.do(ctx, cl)
	}
	if _, ok := endpointPathsByPath[cl.path]; !ok {
		return c.do(ctx, cl)
	}
	key := c.historyKey(cl.path, cl.query)
	if body, found := c.history.Answer(ctx, key); found {
		resp := fromHistory(cl)
		if body == nil {
			resp.StatusCode = http.StatusNoContent
			return nil, resp, ErrNoData
		}
		return body, resp, nil
	}
	body, resp, err := c.do(ctx, cl)
	switch {
	case err == nil:
		_ = c.history.KeepAnswer(context.WithoutCancel(ctx), key, day, body)
	case IsNoData(err) && resp != nil && resp.StatusCode == http.StatusNoContent:
		_ = c.history.KeepAnswer(context.WithoutCancel(ctx), key, day, nil)
	}
	return body, resp, err
}

var endpointPathsByPath = func() map[string]Endpoint {
	m := make(map[string]Endpoint, len(endpointPaths))
	for e, p := range endpointPaths {
		m[p] = e
	}
	return m
}()

// historicalQuotes answers a past day's underlying-quotes from the store,
// asking the service only for the symbols it lacks (one request, priced
// as any: 3 points however many symbols) and keeping them.
func (c *Client) historicalQuotes(ctx context.Context, p UnderlyingQuotesParams) ([]Symbol, *Response, error) {
	day := p.date()
	asked := upperAll(p.Symbols)
	stored, missing := c.history.Quotes(ctx, day, asked)
	cl := call{method: http.MethodGet, path: pathUnderlyingQuotes, mode: c.modeOr(p.Mode), endpoint: EndpointUnderlyingQuotes, historical: true}
	if len(missing) == 0 {
		resp := fromHistory(cl)
		if len(stored) == 0 {
			resp.StatusCode = http.StatusNoContent
			return nil, resp, ErrNoData
		}
		return stored, resp, nil
	}
	q := p
	q.Symbols = missing
	cl.query = q.query()
	body, resp, err := c.do(ctx, cl)
	got, resp, err := decoded(body, resp, err, c.format, decodeSymbols)
	if err != nil && !(IsNoData(err) && resp != nil && resp.StatusCode == http.StatusNoContent) {
		return nil, resp, err
	}
	_ = c.history.KeepQuotes(context.WithoutCancel(ctx), day, missing, got)
	all := mergeSymbols(asked, stored, got)
	if len(all) == 0 {
		return nil, resp, ErrNoData
	}
	return all, resp, nil
}

// mergeSymbols orders the stored and the fetched elements as asked.
func mergeSymbols(asked []string, a, b []Symbol) []Symbol {
	by := make(map[string]Symbol, len(a)+len(b))
	for _, s := range slices.Concat(a, b) {
		by[strings.ToUpper(s.Symbol)] = s
	}
	out := make([]Symbol, 0, len(by))
	for _, sym := range asked {
		if s, ok := by[sym]; ok {
			out = append(out, s)
		}
	}
	return out
}

func upperAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToUpper(strings.TrimSpace(s))
	}
	return out
}
