package api

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Version is the client's version, sent in User-Agent.
var Version = "dev"

// Client is the client of the market-data service. It is safe for
// concurrent use. Each endpoint is one method taking ctx first and a params
// struct that is validated before anything is sent, so a broken rule costs
// no points.
type Client struct {
	base      *url.URL
	http      *http.Client
	format    Format
	mode      Mode
	tokens    TokenSource
	history   History  // past days' answers; nil: none (history.go)
	recorder  Recorder // every answer received; nil: none (recording.go)
	replay    Replay   // answers from a recording instead; nil: the service
	retry     RetryPolicy
	userAgent string
	maxBody   int64
	now       func() time.Time
	// skew is the service's clock minus ours (now), from the last answer's
	// Date header, in nanoseconds; serviceClock.go.
	skew  atomic.Int64
	heard atomic.Bool
	// sleep waits between attempts; tests replace it to run without real time.
	sleep func(ctx context.Context, d time.Duration) error
	// jitter returns a number in [0, 1) spreading retries of many clients.
	jitter func() float64
}

// RetryPolicy bounds retries. GET requests are retried on 429, 502, 503,
// 504 and network errors; the scanner's POST, which costs up to 250 points
// and must not run twice, only on 429 (the server did not run it).
type RetryPolicy struct {
	MaxAttempts int           // total tries per request; default 4
	BaseDelay   time.Duration // first backoff; default 250ms, doubling
	MaxDelay    time.Duration // cap on one backoff; default 8s
	// MaxRetryAfter is the longest Retry-After waited in place; a longer
	// one (the month's allowance used up) is returned as a RateLimitError
	// at once for the caller to schedule. Default 30s.
	MaxRetryAfter time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 250 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 8 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 30 * time.Second
	}
	return p
}

// backoff returns the wait before retry number n (0-based): exponential,
// capped, with "equal jitter" (half fixed, half random).
func (p RetryPolicy) backoff(n int, jitter float64) time.Duration {
	d := p.BaseDelay
	for i := 0; i < n && d < p.MaxDelay; i++ {
		d *= 2 // stops at MaxDelay, so it cannot overflow
	}
	d = min(d, p.MaxDelay)
	return d/2 + time.Duration(jitter*float64(d/2))
}

// Option configures a Client.
type Option func(*Client) error

// WithBaseURL sets {base_url}. It must be https unless the host is loopback
// (the sandbox). A path prefix is kept: https://host/prefix/v1/live/...
func WithBaseURL(raw string) Option {
	return func(c *Client) error {
		u, err := checkServiceURL(raw, "base URL")
		if err != nil {
			return err
		}
		c.base = u
		return nil
	}
}

// WithHTTPClient sets the HTTP client (timeouts, transport, proxies).
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) error {
		if h == nil {
			return errors.New("api: nil HTTP client")
		}
		c.http = h
		return nil
	}
}

// WithFormat selects the response format; JSON is the default.
func WithFormat(f Format) Option {
	return func(c *Client) error {
		if f != JSON && f != XML {
			return fmt.Errorf("api: unknown format %d", f)
		}
		c.format = f
		return nil
	}
}

// WithMode sets the default mode, live or delayed; a params struct's Mode
// overrides it per request.
func WithMode(m Mode) Option {
	return func(c *Client) error {
		if !m.Valid() {
			return fmt.Errorf("api: mode %q is neither live nor delayed", m)
		}
		c.mode = m
		return nil
	}
}

// WithTokenSource sets where bearer tokens come from.
func WithTokenSource(ts TokenSource) Option {
	return func(c *Client) error { c.tokens = ts; return nil }
}

// WithRetryPolicy replaces the retry bounds (zero fields take defaults).
func WithRetryPolicy(p RetryPolicy) Option {
	return func(c *Client) error { c.retry = p.withDefaults(); return nil }
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) error { c.userAgent = ua; return nil }
}

// WithClock sets the client's own clock, which decides what "today"
// (Eastern) is until the service's first answer tells its own (Now);
// tests and replays use it.
func WithClock(now func() time.Time) Option {
	return func(c *Client) error { c.now = now; return nil }
}

// WithMaxResponseBytes bounds a success body (default 256 MiB, many times
// SPX's whole chain).
func WithMaxResponseBytes(n int64) Option {
	return func(c *Client) error { c.maxBody = n; return nil }
}

// NewClient returns a client of the service at the base URL given by
// WithBaseURL, which is required.
func NewClient(opts ...Option) (*Client, error) {
	c := &Client{
		http:      &http.Client{Timeout: 60 * time.Second},
		mode:      Live,
		retry:     RetryPolicy{}.withDefaults(),
		userAgent: "chainwatch/" + Version,
		maxBody:   256 << 20,
		now:       time.Now,
		sleep:     sleepCtx,
		jitter:    rand.Float64,
	}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if c.base == nil {
		return nil, errors.New("api: a base URL is required (WithBaseURL)")
	}
	return c, nil
}

// Mode returns the client's default mode.
func (c *Client) Mode() Mode { return c.mode }

// Format returns the client's response format.
func (c *Client) Format() Format { return c.format }

// BaseURL returns {base_url}.
func (c *Client) BaseURL() string { return c.base.String() }

// Today returns the date that separates live from historical: today,
// Eastern, by the service's clock (Now).
func (c *Client) Today() Date { return Today(c.Now()) }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// modeOr picks the request's mode, else the client's.
func (c *Client) modeOr(m Mode) Mode {
	if m != "" {
		return m
	}
	return c.mode
}

// endpointURL joins base, /v1/{mode}/ and the endpoint path.
func (c *Client) endpointURL(m Mode, path string, q url.Values) string {
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/" + string(m) + "/" + path
	u.RawPath = ""
	if strings.Contains(path, "%") { // an escaped path segment (calendar symbols)
		u.RawPath = u.Path
		if p, err := url.PathUnescape(u.Path); err == nil {
			u.Path = p
		}
	}
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	return u.String()
}
