package api

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestDescribeSaysWhatHappensNext(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&RateLimitError{APIError: APIError{StatusCode: 429, Message: "per-second limit"}, RetryAfter: 2 * time.Second}, "retrying in 2s"},
		{ErrUnauthorized, "chainwatch login"},
		{&APIError{StatusCode: 400, Endpoint: "allaccess/time-and-sales/option-trades", Message: "not licensed\nsecond line"}, "not licensed"},
		{errors.New("dial tcp 127.0.0.1:1: connect: connection refused"), "connection refused"},
		{&APIError{StatusCode: 500, Endpoint: "x", Message: "\x1b]0;pwned\x07 \x1b[2Jboom"}, "boom"},
	} {
		got := Describe(tc.err, "")
		if !strings.Contains(got, tc.want) || strings.ContainsAny(got, "\n\x1b\x07") {
			t.Errorf("Describe(%v) = %q, want it to say %q on one line without control characters", tc.err, got, tc.want)
		}
	}
}

// TestDescribeKeepsTheCauseFirst: a transport failure reads cause first
// and request last, so a status bar that cuts the line still shows why.
func TestDescribeKeepsTheCauseFirst(t *testing.T) {
	raw := errors.New(`api: GET allaccess/market/option-and-underlying-quotes: Get "http://127.0.0.1:40129/v1/live/allaccess/market/option-and-underlying-quotes?date=2026-11-20&symbol=SPY": dial tcp 127.0.0.1:40129: connect: connection refused`)
	want := "cannot reach the service: connection refused (dial tcp 127.0.0.1:40129: connect) · GET http://127.0.0.1:40129/v1/live/allaccess/market/option-and-underlying-quotes"
	if got := Describe(raw, ""); got != want {
		t.Errorf("Describe:\n got %s\nwant %s", got, want)
	}
	auth := errors.New(`api: GET allaccess/market/option-and-underlying-quotes: auth: client credentials: Post "http://127.0.0.1:40129/connect/token": dial tcp 127.0.0.1:40129: connect: connection refused`)
	if got := Describe(auth, ""); !strings.HasPrefix(got, "cannot reach the service: connection refused (dial tcp") || !strings.HasSuffix(got, "· POST http://127.0.0.1:40129/connect/token") {
		t.Errorf("Describe(auth) = %s", got)
	}
}

func TestDescribeCutOff(t *testing.T) {
	err := &CutOffError{Method: "GET", Endpoint: "x", Read: 3 << 20, Want: 11 << 20, Cost: 4}
	if got, want := Describe(err, ""), "the service's answer was cut off (3.0 MB of 11.0 MB); it still cost 4 points; retrying"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

// TestDescribeRefusedRefreshSaysLogin: a refused refresh token
// (invalid_grant) was "cannot sign in to the service: invalid_grant (auth:
// refresh)", on the screen and from every command; only a new login helps,
// and the message says so.
func TestDescribeRefusedRefreshSaysLogin(t *testing.T) {
	err := fmt.Errorf("%w; the saved login has expired", &AuthError{Op: "refresh", Code: "invalid_grant", Status: 400})
	for _, action := range []string{"", "the quotes"} {
		if got := Describe(err, action); !strings.Contains(got, "run `chainwatch login`") {
			t.Errorf("Describe(%q) = %q", action, got)
		}
	}
	other := &AuthError{Op: "client credentials", Code: "invalid_client", Status: 401}
	if got := Describe(other, ""); !strings.HasPrefix(got, "cannot sign in to the service: ") {
		t.Errorf("invalid_client: %q", got)
	}
}
