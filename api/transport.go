package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// call is one logical request: what to send and how it is priced.
type call struct {
	method     string
	path       string // after /v1/{mode}/
	query      url.Values
	body       []byte
	mode       Mode
	endpoint   Endpoint
	historical bool
}

// do sends a call, retrying as the RetryPolicy allows, and returns the body
// of a 200. A 204 returns ErrNoData with the Response (it was charged).
//
// On a 401 the token is dropped and the request sent once more with a fresh
// one: an access token can be revoked or expire early, and the user should
// not see an error for what a new token fixes. That extra try does not count
// against MaxAttempts.
func (c *Client) do(ctx context.Context, cl call) ([]byte, *Response, error) {
	if c.replay != nil {
		return c.replayed(ctx, cl)
	}
	body, resp, err := c.send(ctx, cl)
	if err == nil || (IsNoData(err) && resp.StatusCode == http.StatusNoContent) {
		c.recordAnswer(cl, body, resp)
	}
	return body, resp, err
}

// send is do's exchange with the service.
func (c *Client) send(ctx context.Context, cl call) ([]byte, *Response, error) {
	x := &exchange{cl: cl, resp: &Response{Endpoint: cl.endpoint, Mode: cl.mode, Historical: cl.historical}}
	x.target = c.endpointURL(cl.mode, cl.path, cl.query)
	for {
		if err := ctx.Err(); err != nil {
			return nil, x.resp, err
		}
		body, again, err := c.try(ctx, x)
		if !again {
			return body, x.resp, err
		}
	}
}

// exchange is one call across its tries: what is sent, the Response it
// fills, and what the retry rules count.
type exchange struct {
	cl         call
	target     string
	resp       *Response
	attempt    int  // tries so far that count against MaxAttempts
	retried401 bool // the one try with a fresh token is spent
	// secret is this try's access token: redacted from every error, since
	// a server or a proxy may echo it.
	secret string
}

// try sends the call once. again asks for another try (any wait before it
// is over); otherwise body and err are the call's.
func (c *Client) try(ctx context.Context, x *exchange) (body []byte, again bool, err error) {
	req, err := c.newRequest(ctx, x)
	if err != nil {
		return nil, false, err
	}
	x.resp.Attempts++
	x.attempt++
	hr, err := c.http.Do(req)
	if err != nil {
		return c.unsent(ctx, x, err)
	}
	c.heardDate(hr.Header.Get("Date"))
	x.record(hr)
	switch hr.StatusCode {
	case http.StatusOK:
		body, err := c.okBody(x, hr)
		return body, false, err
	case http.StatusNoContent:
		drain(hr)
		return nil, false, ErrNoData
	}
	return c.refused(ctx, x, hr)
}

// newRequest builds one try's request, with a token from the token source
// when there is one: asked for on every try, so a try after a 401 gets the
// fresh token.
func (c *Client) newRequest(ctx context.Context, x *exchange) (*http.Request, error) {
	x.secret = ""
	req, err := http.NewRequestWithContext(ctx, x.cl.method, x.target, bytes.NewReader(x.cl.body))
	if err != nil {
		return nil, fmt.Errorf("api: %s: %w", x.cl.path, err)
	}
	req.Header.Set("Accept", c.format.contentType())
	req.Header.Set("User-Agent", c.userAgent)
	if x.cl.body != nil {
		req.Header.Set("Content-Type", c.format.contentType())
	}
	if c.tokens != nil {
		tok, err := c.tokens.Token(ctx)
		if err != nil {
			return nil, err
		}
		x.secret = tok.AccessToken
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	}
	return req, nil
}

// unsent is a try that got no answer. A cancelled context is the caller's
// own error; otherwise only a GET is tried again, as the policy allows: a
// POST (a custom scan) may have reached the server, and a second one would
// be run and charged again.
func (c *Client) unsent(ctx context.Context, x *exchange, err error) ([]byte, bool, error) {
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	err = fmt.Errorf("api: %s %s: %s", x.cl.method, x.cl.path, redact(err.Error(), x.secret))
	if x.cl.method != http.MethodGet || x.attempt >= c.retry.MaxAttempts {
		return nil, false, err
	}
	return c.again(ctx, x, nil)
}

// record keeps what every answer tells, error or not: its status, headers
// and points; and the cost of a 200 or a 204, both of which are charged.
func (x *exchange) record(hr *http.Response) {
	x.resp.StatusCode, x.resp.Header = hr.StatusCode, hr.Header
	x.resp.readPoints(hr.Header)
	if hr.StatusCode == http.StatusOK || hr.StatusCode == http.StatusNoContent {
		x.resp.Cost = Cost(x.cl.endpoint, x.cl.mode, x.cl.historical)
	}
}

// okBody reads a 200's body. One cut off short is a CutOffError that names
// the call and its cost: the points were spent for nothing.
func (c *Client) okBody(x *exchange, hr *http.Response) ([]byte, error) {
	body, err := c.readBody(hr)
	var cut *CutOffError
	if errors.As(err, &cut) {
		cut.Method, cut.Endpoint, cut.Cost = x.cl.method, x.cl.path, x.resp.Cost
		return nil, cut
	}
	if err != nil {
		return nil, fmt.Errorf("api: %s %s: reading the response: %s", x.cl.method, x.cl.path, redact(err.Error(), x.secret))
	}
	return body, nil
}

// refused is a try answered with an error status: one more try for a 401
// (with a fresh token), a 429 the policy waits out, or a gateway error on
// a GET while tries are left; else the error, an *APIError or a
// *RateLimitError.
func (c *Client) refused(ctx context.Context, x *exchange, hr *http.Response) ([]byte, bool, error) {
	apiErr := x.apiError(hr)
	switch hr.StatusCode {
	case http.StatusUnauthorized:
		if c.tokens != nil && !x.retried401 {
			x.retried401 = true
			x.attempt-- // a fresh token is not a retry of the same thing
			c.tokens.Invalidate()
			return nil, true, nil
		}
	case http.StatusTooManyRequests:
		rl := &RateLimitError{APIError: *apiErr, RetryAfter: parseRetryAfter(hr.Header.Get("Retry-After"), c.now())}
		if x.attempt >= c.retry.MaxAttempts || rl.RetryAfter > c.retry.MaxRetryAfter {
			return nil, false, rl
		}
		return c.again(ctx, x, hr.Header)
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if x.cl.method == http.MethodGet && x.attempt < c.retry.MaxAttempts {
			return c.again(ctx, x, hr.Header)
		}
	}
	return nil, false, apiErr
}

// apiError is the error of an error status, with the body's message.
//
// Read a token's length past the limit, redact, then cut: a token the
// server echoed across the limit is not left half visible. Control
// characters become spaces: the message will be shown in a terminal, and
// a hostile body must not rewrite the screen.
func (x *exchange) apiError(hr *http.Response) *APIError {
	msg := redact(errorMessage(hr.StatusCode, readLimited(hr, errBodyLimit+int64(len(x.secret)))), x.secret)
	msg = cleanText(msg, errBodyLimit)
	return &APIError{Method: x.cl.method, Endpoint: x.cl.path, StatusCode: hr.StatusCode, Message: msg}
}

// again waits before the next try, then asks for it: the server's
// Retry-After (h; nil for none) when it gave a usable one, else the
// jittered backoff. A wait cut short by the context ends the call.
func (c *Client) again(ctx context.Context, x *exchange, h http.Header) ([]byte, bool, error) {
	wait := parseRetryAfter(h.Get("Retry-After"), c.now())
	if wait == 0 || wait > c.retry.MaxRetryAfter {
		wait = c.retry.backoff(x.attempt-1, c.jitter())
	}
	if err := c.sleep(ctx, wait); err != nil {
		return nil, false, err
	}
	return nil, true, nil
}

// readBody reads a success body up to the client's bound. With a known
// Content-Length (the usual case for a chain) it reads into one buffer of
// exactly that size: growing a buffer would copy an SPX chain, the largest
// body, again (BenchmarkOptionAndUnderlyingQuotesLoopback).
func (c *Client) readBody(hr *http.Response) ([]byte, error) {
	defer hr.Body.Close()
	if n := hr.ContentLength; n >= 0 {
		if n > c.maxBody {
			return nil, fmt.Errorf("body of %d bytes is larger than the limit of %d", n, c.maxBody)
		}
		buf := make([]byte, n)
		if got, err := io.ReadFull(hr.Body, buf); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return nil, &CutOffError{Read: int64(got), Want: n}
			}
			return nil, err
		}
		return buf, nil
	}
	b, err := io.ReadAll(io.LimitReader(hr.Body, c.maxBody+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > c.maxBody {
		return nil, fmt.Errorf("body larger than the limit of %d bytes", c.maxBody)
	}
	return b, nil
}

// readLimited reads at most n bytes of an error body and closes it.
func readLimited(hr *http.Response, n int64) []byte {
	defer hr.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(hr.Body, n))
	_, _ = io.Copy(io.Discard, io.LimitReader(hr.Body, 64<<10)) // let the connection be reused
	return b
}

func drain(hr *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(hr.Body, 64<<10))
	hr.Body.Close()
}
