package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrNoData is returned for 204: a valid request that matched nothing (an
// unknown symbol, no trades in the window). It was still charged.
var ErrNoData = errors.New("api: no data for this request")

// ErrUnauthorized is what an APIError with status 401 unwraps to: the
// service refused the bearer token even after a fresh one was fetched.
var ErrUnauthorized = errors.New("api: the service refused the access token")

// errBodyLimit is how much of an error body is read: the conventions say the
// service's messages are one line; a proxy's HTML page must not fill memory.
const errBodyLimit = 4 << 10

// APIError is a response other than 200 or 204.
type APIError struct {
	Method     string
	Endpoint   string // the path after /v1/{mode}/
	StatusCode int
	Message    string // read from the body per the conventions, at most 4 KiB
}

func (e *APIError) Error() string {
	return fmt.Sprintf("api: %s %s: %d %s", e.Method, e.Endpoint, e.StatusCode, e.Message)
}

// Unwrap lets errors.Is(err, ErrUnauthorized) match a 401.
func (e *APIError) Unwrap() error {
	if e.StatusCode == http.StatusUnauthorized {
		return ErrUnauthorized
	}
	return nil
}

// RateLimitError is a 429: the per-second limit or the monthly allowance.
// RetryAfter is the server's Retry-After (zero when it sent none).
type RateLimitError struct {
	APIError
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("%s (retry after %s)", e.APIError.Error(), e.RetryAfter)
	}
	return e.APIError.Error()
}

// Unwrap exposes the embedded APIError to errors.As.
func (e *RateLimitError) Unwrap() error { return &e.APIError }

// MonthlyAllowance reports whether the 429 says the month's points are used
// up (rather than too many requests this second); only the message tells.
func (e *RateLimitError) MonthlyAllowance() bool {
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "month") || strings.Contains(m, "allowance") || strings.Contains(m, "points")
}

// errorMessage reads an error body the way the conventions say: plain text
// as is; a JSON body by its message, error, error_description or details
// key, in that order; an empty body by the status text.
func errorMessage(status int, body []byte) string {
	s := strings.TrimSpace(string(body))
	if strings.HasPrefix(s, "{") {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			for _, k := range []string{"message", "error", "error_description", "details"} {
				switch v := m[k].(type) {
				case string:
					if v != "" {
						return v
					}
				case nil:
				default:
					if b, err := json.Marshal(v); err == nil {
						return string(b)
					}
				}
			}
		}
	}
	if s == "" {
		return http.StatusText(status)
	}
	return s
}

// maxRetryAfter caps a Retry-After: longer than a month is no different to
// a caller, and the cap keeps huge values from overflowing a Duration.
const maxRetryAfter = 31 * 24 * time.Hour

// parseRetryAfter reads Retry-After as seconds or as an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		switch {
		case math.IsNaN(n) || n <= 0:
			return 0
		case n >= maxRetryAfter.Seconds(): // also +Inf: beyond any wait worth holding
			return maxRetryAfter
		}
		return time.Duration(n * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfter)
	}
	return 0
}

// CutOffError is a 200 whose body ended before its Content-Length: the
// connection dropped mid-answer. The service charged it all the same,
// which is why it carries the cost.
type CutOffError struct {
	Method, Endpoint string
	Read, Want       int64 // bytes received, and announced
	Cost             int   // points charged for it
}

func (e *CutOffError) Error() string {
	return fmt.Sprintf("api: %s %s: the answer was cut off after %d of %d bytes (charged %d points)", e.Method, e.Endpoint, e.Read, e.Want, e.Cost)
}
