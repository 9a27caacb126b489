package api

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Recorder keeps every answer the client receives from the service (the
// flight recorder, chainwatch/record). The client hands it each 200 and
// 204 once, in the one place answers arrive (do), so the screen, the
// headless commands and serve's desk all record through it. Recording is
// best effort: it never fails a request, costs no request and no point.
// Record may keep a.Body as it is, without a copy: the client and its
// decoders never write into a body once it is received.
type Recorder interface {
	Record(a Answer)
}

// Replay answers requests from a recording instead of the service: the
// last recorded answer to the same request at or before its moment.
type Replay interface {
	// Replay returns the recorded answer of one of keys (tried in order),
	// or a *NotRecordedError.
	Replay(ctx context.Context, keys []string) (Answer, error)
	// ReplayFamily returns every recorded answer of a family (a tape's
	// pages) at or before the moment, oldest first, or a
	// *NotRecordedError when there is none.
	ReplayFamily(ctx context.Context, family string) ([]Answer, error)
}

// Answer is one answer as received: the request, the body as it came, the
// service's time (its Date header; the client's clock without one) and
// the points it cost.
type Answer struct {
	Key      string // Key of the request: what a replay looks it up by
	Family   string // the trades it is a page of (option-trades), else ""
	Method   string
	Path     string // after /v1/{mode}/
	Query    url.Values
	Mode     Mode
	Endpoint Endpoint
	Status   int // 200 or 204
	Body     []byte
	At       time.Time
	Cost     int
}

// NotRecordedError is a request the recording cannot answer at the moment
// asked: Nearest are the recorded moments closest to it (none, one or two:
// before and after), for the message.
type NotRecordedError struct {
	At      time.Time
	What    string
	Nearest []time.Time
}

func (e *NotRecordedError) Error() string {
	s := fmt.Sprintf("nothing recorded for %s at or before %s", e.What, e.At.In(Eastern).Format(time.RFC3339))
	if len(e.Nearest) == 0 {
		return s + "; nothing of it is recorded that day"
	}
	var near []string
	for _, t := range e.Nearest {
		near = append(near, t.In(Eastern).Format(time.RFC3339))
	}
	return s + "; nearest recorded: " + strings.Join(near, ", ")
}

// IsNotRecorded reports whether err is a replay that found nothing.
func IsNotRecorded(err error) bool {
	var nr *NotRecordedError
	return errors.As(err, &nr)
}

// WithRecorder sets the recorder every answer is handed to (nil: none).
func WithRecorder(r Recorder) Option {
	return func(c *Client) error { c.recorder = r; return nil }
}

// WithReplay makes the client answer from a recording: nothing is sent,
// nothing recorded, every answer costs 0 points.
func WithReplay(r Replay) Option {
	return func(c *Client) error { c.replay = r; return nil }
}

// Recorder returns the client's recorder, nil when it has none.
func (c *Client) Recorder() Recorder { return c.recorder }

// Replaying reports whether the client answers from a recording.
func (c *Client) Replaying() bool { return c.replay != nil }

// replayModeKey carries a replayed request's mode in its context.
type replayModeKey struct{}

// WithReplayMode is ctx telling a Replay the mode of the request it
// answers (ReplayMode).
func WithReplayMode(ctx context.Context, m Mode) context.Context {
	return context.WithValue(ctx, replayModeKey{}, m)
}

// ReplayMode is the mode of the request a Replay is asked to answer: a
// request key leaves the mode out (a recording answers either path as
// the market at its moment), but a live relay (the serve bus) keeps live
// and delayed answers apart.
func ReplayMode(ctx context.Context) (Mode, bool) {
	m, ok := ctx.Value(replayModeKey{}).(Mode)
	return m, ok
}

// RequestKey names a request for the recording: the response format, the
// method, the path and the query in canonical order without the mode (an
// answer is the market's at its moment on either path).
func RequestKey(f Format, method, path string, q url.Values) string {
	q = cloneValues(q)
	q.Del("mode")
	return f.contentType() + " " + method + " " + path + "?" + q.Encode()
}

// requestKey is cl's RequestKey, with a fingerprint of its body when it
// has one (a custom scan's definition).
func (c *Client) requestKey(cl call) string {
	k := RequestKey(c.format, cl.method, cl.path, cl.query)
	if cl.body != nil {
		h := fnv.New64a()
		h.Write(cl.body)
		k += fmt.Sprintf(" body:%016x", h.Sum64())
	}
	return k
}

// replayKeys are the keys that may answer cl: its own, then for a chain
// the whole chain of the day (the screen asks for it, a headless command
// for some expiries), which OptionAndUnderlyingQuotes narrows.
func (c *Client) replayKeys(cl call) []string {
	keys := []string{c.requestKey(cl)}
	if cl.path == pathOptionQuotes {
		q := url.Values{"symbol": cl.query["symbol"], "date": cl.query["date"]}
		if w := RequestKey(c.format, cl.method, cl.path, q); w != keys[0] {
			keys = append(keys, w)
		}
	}
	return keys
}

// replayed answers cl from the recording: 0 points, FromRecording.
func (c *Client) replayed(ctx context.Context, cl call) ([]byte, *Response, error) {
	resp := &Response{Endpoint: cl.endpoint, Mode: cl.mode, Historical: cl.historical, FromRecording: true}
	a, err := c.replay.Replay(WithReplayMode(ctx, cl.mode), c.replayKeys(cl))
	var nr *NotRecordedError
	if errors.As(err, &nr) {
		// The request as a person reads it, not the recording's key.
		q := cloneValues(cl.query)
		q.Del("mode")
		nr.What = cl.endpoint.String() + " " + q.Encode()
	}
	if err != nil {
		return nil, resp, err
	}
	resp.StatusCode = a.Status
	if a.Status == http.StatusNoContent {
		return nil, resp, ErrNoData
	}
	return a.Body, resp, nil
}

// recordAnswer hands a received 200 or 204 to the recorder.
func (c *Client) recordAnswer(cl call, body []byte, resp *Response) {
	if c.recorder == nil || resp == nil {
		return
	}
	at := c.now()
	if t, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		at = t
	}
	c.recorder.Record(Answer{
		Key: c.requestKey(cl), Family: c.familyKey(cl), Method: cl.method, Path: cl.path,
		Query: cl.query, Mode: cl.mode, Endpoint: cl.endpoint, Status: resp.StatusCode,
		Body: body, At: at, Cost: resp.Cost,
	})
}

// narrowChain keeps the contracts p asks for: a replayed whole chain
// answers a request for some expiries, strikes, a root or a side.
func narrowChain(ch *SymbolWithOptions, p OptionQuotesParams) {
	if ch == nil {
		return
	}
	lo, hi := parsedDate(p.MinExpiry), parsedDate(p.MaxExpiry)
	ch.Options = slices.DeleteFunc(ch.Options, func(o OptionData) bool {
		switch {
		case p.Root != "" && !strings.EqualFold(o.Root, p.Root),
			p.OptionType != "" && o.OptionType != p.OptionType,
			lo != 0 && o.Expiry < lo, hi != 0 && o.Expiry > hi,
			p.MinStrike != nil && o.Strike < *p.MinStrike,
			p.MaxStrike != nil && o.Strike > *p.MaxStrike:
			return true
		}
		return false
	})
}

// DecodeChain decodes a recorded option-and-underlying-quotes body (the
// recorder's Parquet export).
func DecodeChain(body []byte, f Format) (*SymbolWithOptions, error) { return decodeChain(body, f) }

// DecodeOptionTrades decodes a recorded option-trades body.
func DecodeOptionTrades(body []byte, f Format) ([]OptionTrade, error) {
	return decodeOptionTrades(body, f)
}
