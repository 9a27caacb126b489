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
	resp := &Response{Endpoint: cl.endpoint, Mode: cl.mode, Historical: cl.historical}
	target := c.endpointURL(cl.mode, cl.path, cl.query)
	retried401 := false
	for attempt := 0; ; {
		if err := ctx.Err(); err != nil {
			return nil, resp, err
		}
		var secret string
		req, err := http.NewRequestWithContext(ctx, cl.method, target, bytes.NewReader(cl.body))
		if err != nil {
			return nil, resp, fmt.Errorf("api: %s: %w", cl.path, err)
		}
		req.Header.Set("Accept", c.format.contentType())
		req.Header.Set("User-Agent", c.userAgent)
		if cl.body != nil {
			req.Header.Set("Content-Type", c.format.contentType())
		}
		if c.tokens != nil {
			tok, err := c.tokens.Token(ctx)
			if err != nil {
				return nil, resp, err
			}
			secret = tok.AccessToken
			req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
		resp.Attempts++
		attempt++
		// pause waits before the next try: the server's Retry-After when it
		// gave a usable one, else the jittered backoff.
		pause := func(h http.Header) error {
			wait := parseRetryAfter(h.Get("Retry-After"), c.now())
			if wait == 0 || wait > c.retry.MaxRetryAfter {
				wait = c.retry.backoff(attempt-1, c.jitter())
			}
			return c.sleep(ctx, wait)
		}
		hr, err := c.http.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, resp, ctx.Err()
			}
			err = fmt.Errorf("api: %s %s: %s", cl.method, cl.path, redact(err.Error(), secret))
			if cl.method != http.MethodGet || attempt >= c.retry.MaxAttempts {
				return nil, resp, err
			}
			if err := pause(nil); err != nil {
				return nil, resp, err
			}
			continue
		}
		resp.StatusCode, resp.Header = hr.StatusCode, hr.Header
		resp.readPoints(hr.Header)
		if hr.StatusCode == http.StatusOK || hr.StatusCode == http.StatusNoContent {
			resp.Cost = Cost(cl.endpoint, cl.mode, cl.historical) // both are charged
		}

		switch hr.StatusCode {
		case http.StatusOK:
			body, err := c.readBody(hr)
			var cut *CutOffError
			if errors.As(err, &cut) {
				cut.Method, cut.Endpoint, cut.Cost = cl.method, cl.path, resp.Cost
				return nil, resp, cut
			}
			if err != nil {
				return nil, resp, fmt.Errorf("api: %s %s: reading the response: %s", cl.method, cl.path, redact(err.Error(), secret))
			}
			return body, resp, nil
		case http.StatusNoContent:
			drain(hr)
			return nil, resp, ErrNoData
		}

		// Read a token's length past the limit, redact, then cut: a token
		// the server echoed across the limit is not left half visible.
		// Control characters become spaces: the message will be shown in a
		// terminal, and a hostile body must not rewrite the screen.
		msg := redact(errorMessage(hr.StatusCode, readLimited(hr, errBodyLimit+int64(len(secret)))), secret)
		msg = cleanText(msg, errBodyLimit)
		apiErr := APIError{Method: cl.method, Endpoint: cl.path, StatusCode: hr.StatusCode, Message: msg}
		switch hr.StatusCode {
		case http.StatusUnauthorized:
			if c.tokens != nil && !retried401 {
				retried401 = true
				attempt-- // a fresh token is not a retry of the same thing
				c.tokens.Invalidate()
				continue
			}
			return nil, resp, &apiErr
		case http.StatusTooManyRequests:
			rl := &RateLimitError{APIError: apiErr, RetryAfter: parseRetryAfter(hr.Header.Get("Retry-After"), c.now())}
			if attempt >= c.retry.MaxAttempts || rl.RetryAfter > c.retry.MaxRetryAfter {
				return nil, resp, rl
			}
			if err := pause(hr.Header); err != nil {
				return nil, resp, err
			}
			continue
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			if cl.method == http.MethodGet && attempt < c.retry.MaxAttempts {
				if err := pause(hr.Header); err != nil {
					return nil, resp, err
				}
				continue
			}
		}
		return nil, resp, &apiErr
	}
}

// readBody reads a success body up to the client's bound. With a known
// Content-Length (the usual case for a chain) it reads into one buffer of
// exactly that size: growing a buffer would copy an SPX chain (~11 MB) again.
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
