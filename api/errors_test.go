package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{400, "min_strike must be <= max_strike", "min_strike must be <= max_strike"},
		{400, "min_strike must be <= max_strike\n", "min_strike must be <= max_strike"},
		{400, "  \t spaced out \r\n", "spaced out"},
		{404, "404 page not found\n", "404 page not found"},
		{400, `{"message":"m","error":"e","error_description":"d","details":"x"}`, "m"},
		{400, `{"details":"x","error_description":"d","error":"e","message":"m"}`, "m"},
		{400, `{"error":"invalid_request","error_description":"d","details":"x"}`, "invalid_request"},
		{400, `{"error_description":"d","details":"x"}`, "d"},
		{400, `{"details":"x"}`, "x"},
		{400, `{"message":"","error":"e"}`, "e"},
		{400, `{"message":null,"error":"e"}`, "e"},
		{400, `{"message":"","error":"","error_description":"","details":"last"}`, "last"},
		{400, `{"message":42}`, "42"},
		{400, `{"details":["a","b"]}`, `["a","b"]`},
		{400, `{"details":{"param":"symbol"}}`, `{"param":"symbol"}`},
		{400, `  {"message":"inner"}  `, "inner"},
		{400, `{"title":"x","status":400}`, `{"title":"x","status":400}`}, // no known key: raw
		{400, `{"message":""}`, `{"message":""}`},
		{400, `{not json`, `{not json`},
		{400, `["message"]`, `["message"]`},
		{400, "", "Bad Request"},
		{401, "", "Unauthorized"},
		{404, "", "Not Found"},
		{406, "", "Not Acceptable"},
		{415, " \n", "Unsupported Media Type"},
		{429, "", "Too Many Requests"},
		{500, "", "Internal Server Error"},
		{503, "\r\n", "Service Unavailable"},
	} {
		if got := errorMessage(tc.status, []byte(tc.body)); got != tc.want {
			t.Errorf("errorMessage(%d, %q) = %q, want %q", tc.status, tc.body, got, tc.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0},
		{"   ", 0},
		{"0", 0},
		{"5", 5 * time.Second},
		{" 7 ", 7 * time.Second},
		{"120", 2 * time.Minute},
		{"86400", 24 * time.Hour},
		{"1.5", 1500 * time.Millisecond},
		{"0.25", 250 * time.Millisecond},
		{"-3", 0},
		{"-0.5", 0},
		{"soon", 0},
		{"5s", 0},
		{"Mon, 99 Foo 2025", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(time.Hour).Format(http.TimeFormat), time.Hour},
		{now.Add(-90 * time.Second).Format(http.TimeFormat), 0},
		{now.Format(http.TimeFormat), 0},
		{"Monday, 10-Mar-25 12:01:00 GMT", time.Minute},   // RFC 850
		{"Mon Mar 10 12:00:30 2025", 30 * time.Second},    // ANSI C asctime
		{"Sun, 09 Mar 2025 12:00:00 GMT", 0},              // yesterday
		{"Wed, 12 Mar 2025 12:00:00 GMT", 48 * time.Hour}, // the day after tomorrow
	} {
		if got := parseRetryAfter(tc.v, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
	t.Run("out of range", func(t *testing.T) {
		// Retry-After values the float conversion cannot hold: the result must
		// never be negative (a negative wait retries at once and hides the
		// limit from the caller).
		var bad []string
		for _, v := range []string{"NaN", "Inf", "+Inf", "1e20", "99999999999"} {
			if got := parseRetryAfter(v, now); got < 0 {
				bad = append(bad, v+" -> "+got.String())
			}
		}
		if len(bad) > 0 {
			t.Errorf("parseRetryAfter out of range: %s (want 0 for NaN, a huge positive wait otherwise)", strings.Join(bad, ", "))
		}
	})
}

func TestAPIErrorBodies(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		status      int
		contentType string
		body        string
		want        string
	}{
		{400, "text/plain", "min_strike must be <= max_strike\n", "min_strike must be <= max_strike"},
		{400, "application/json", `{"message":"symbol is required"}`, "symbol is required"},
		{400, "application/json", `{"error":"invalid_request","error_description":"date is required"}`, "invalid_request"},
		{400, "application/problem+json", `{"error_description":"date is required","details":"more"}`, "date is required"},
		{400, "application/json", `{"details":"only details"}`, "only details"},
		{400, "", "", "Bad Request"},
		{404, "text/plain", "no such path\n", "no such path"},
		{404, "", "", "Not Found"},
		{406, "text/plain", "Accept must be one of the four formats", "Accept must be one of the four formats"},
		{415, "text/plain", "unsupported Content-Type", "unsupported Content-Type"},
		{500, "text/plain", "internal error", "internal error"},
		{500, "", "", "Internal Server Error"},
		{400, "text/html", long, ""},
	} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if tc.contentType != "" {
				w.Header().Set("Content-Type", tc.contentType)
			}
			w.WriteHeader(tc.status)
			io.WriteString(w, tc.body)
		})
		c, _ := newRetryTestClient(t, srv.URL)
		_, resp, err := c.Exchanges(context.Background(), ReferenceParams{})
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Errorf("%d %.20q: error %v, want *APIError", tc.status, tc.body, err)
			continue
		}
		var rl *RateLimitError
		if errors.As(err, &rl) {
			t.Errorf("%d is a RateLimitError", tc.status)
		}
		if apiErr.StatusCode != tc.status || apiErr.Method != http.MethodGet || apiErr.Endpoint != pathExchanges {
			t.Errorf("%d: APIError %+v", tc.status, apiErr)
		}
		if tc.body == long {
			if len(apiErr.Message) > errBodyLimit || len(apiErr.Message) == 0 || strings.Trim(apiErr.Message, "x") != "" {
				t.Errorf("1 MiB body: Message of %d bytes, want 1..%d x's", len(apiErr.Message), errBodyLimit)
			}
		} else if apiErr.Message != tc.want {
			t.Errorf("%d %q: Message %q, want %q", tc.status, tc.body, apiErr.Message, tc.want)
		}
		if want := "api: GET " + pathExchanges + ": "; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q, want prefix %q", err, want)
		}
		if resp.StatusCode != tc.status || resp.Cost != 0 || srv.count() != 1 {
			t.Errorf("%d: resp status %d cost %d, %d requests", tc.status, resp.StatusCode, resp.Cost, srv.count())
		}
	}
}

func TestRateLimitErrorAs(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "45")
		http.Error(w, "too many requests per second", http.StatusTooManyRequests)
	})
	c, _ := newRetryTestClient(t, srv.URL, WithRetryPolicy(retryTestPolicy))
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	var rl *RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("error %v, want *RateLimitError", err)
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.Message != "too many requests per second" {
		t.Errorf("errors.As(*APIError): %+v", apiErr)
	}
	if rl.RetryAfter != 45*time.Second || rl.MonthlyAllowance() || errors.Is(err, ErrUnauthorized) {
		t.Errorf("RateLimitError %+v MonthlyAllowance %v", rl, rl.MonthlyAllowance())
	}
	if got, want := err.Error(), "api: GET reference/exchanges: 429 too many requests per second (retry after 45s)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	noWait := &RateLimitError{APIError: APIError{Method: "POST", Endpoint: "x", StatusCode: 429, Message: "m"}}
	if got := noWait.Error(); got != "api: POST x: 429 m" {
		t.Errorf("Error() without RetryAfter = %q", got)
	}
}

func TestRateLimitMonthlyAllowance(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{"monthly points allowance used up", true},
		{"Monthly Points Allowance exceeded", true},
		{"points quota exhausted for this month", true},
		{"too many requests per second", false},
		{"Too Many Requests", false},
		{"rate limit exceeded: 10 requests/s", false},
		{"", false},
	} {
		e := &RateLimitError{APIError: APIError{StatusCode: 429, Message: tc.msg}}
		if got := e.MonthlyAllowance(); got != tc.want {
			t.Errorf("MonthlyAllowance(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
}

func TestErrorsNoSecrets(t *testing.T) {
	const tok = "s3cr3t-bearer-token-9f8e7d6c5b4a"
	echo := func(w http.ResponseWriter, r *http.Request) string { return r.Header.Get("Authorization") }
	for _, tc := range []struct {
		name    string
		handler func(w http.ResponseWriter, r *http.Request)
	}{
		{"400 plain", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "bad request, you sent Authorization: "+echo(w, r), 400)
		}},
		{"400 json message", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]string{"message": "header " + echo(w, r) + " not allowed"})
		}},
		{"400 json error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_token " + echo(w, r), "error_description": echo(w, r)})
		}},
		{"400 json details object", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]any{"details": map[string]string{"authorization": echo(w, r)}})
		}},
		{"400 json unknown keys", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]string{"headers": echo(w, r)})
		}},
		{"404", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no page for "+echo(w, r), 404) }},
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "panic: token="+tok, 500) }},
		{"503", func(w http.ResponseWriter, r *http.Request) { http.Error(w, echo(w, r), 503) }},
		{"429", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "3600")
			http.Error(w, "monthly points allowance used up for "+echo(w, r), 429)
		}},
		{"401", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "invalid token "+echo(w, r), 401) }},
	} {
		srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { tc.handler(w, r) })
		ts := &seqTokenSource{toks: []string{tok}}
		c, _ := newRetryTestClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 2}), WithTokenSource(ts))
		_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if strings.Contains(err.Error(), tok) {
			t.Errorf("%s: error contains the token: %q", tc.name, err)
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) && strings.Contains(apiErr.Message, tok) {
			t.Errorf("%s: Message contains the token: %q", tc.name, apiErr.Message)
		}
		if tc.name != "500" && !strings.Contains(err.Error(), redactedMark) {
			t.Errorf("%s: error %q does not show %s", tc.name, err, redactedMark)
		}
		// And on the scanner (POST).
		_, _, err = c.CustomScan(context.Background(), ScanParams{Fields: []ScanFieldParam{{Formula: "iv30"}}})
		if err == nil || strings.Contains(err.Error(), tok) {
			t.Errorf("%s on the scanner: error %v", tc.name, err)
		}
	}

	// A token source error: returned as is, and no earlier token leaks in.
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "invalid token "+r.Header.Get("Authorization"), 401)
	})
	errSource := errors.New("auth: refresh: invalid_grant (refresh token expired)")
	ts := &seqTokenSource{toks: []string{tok}, errAfter: errSource}
	c, _ := newRetryTestClient(t, srv.URL, WithTokenSource(ts))
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	if !errors.Is(err, errSource) || strings.Contains(err.Error(), tok) {
		t.Errorf("token source error: %v", err)
	}
	// The real client-credentials source against a token endpoint that echoes
	// the secret: neither the secret nor the body reaches the error.
	const secret = "client-secret-0a1b2c3d4e5f"
	tokSrv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		_, pw, _ := r.BasicAuth()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client", "error_description": "bad secret " + pw})
	})
	cc, err := NewClientCredentials(AuthConfig{AuthURL: tokSrv.URL, ClientID: "cw", ClientSecret: secret})
	if err != nil {
		t.Fatal(err)
	}
	dataSrv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) { io.WriteString(w, "[]") })
	c, _ = newRetryTestClient(t, dataSrv.URL, WithTokenSource(cc))
	_, _, err = c.Exchanges(context.Background(), ReferenceParams{})
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("client credentials failure: %v", err)
	}
	if dataSrv.count() != 0 {
		t.Errorf("%d data requests without a token", dataSrv.count())
	}
}

func TestAPIErrorUnwrap(t *testing.T) {
	for _, st := range []int{400, 403, 404, 429, 500} {
		if err := (&APIError{StatusCode: st}).Unwrap(); err != nil {
			t.Errorf("APIError{%d}.Unwrap() = %v", st, err)
		}
	}
	if err := (&APIError{StatusCode: 401}).Unwrap(); err != ErrUnauthorized {
		t.Errorf("APIError{401}.Unwrap() = %v", err)
	}
}

// TestErrorBodyTokenAcrossLimit: a token the server echoes across the 4 KiB
// cut of an error body must not be left half visible in the message.
func TestErrorBodyTokenAcrossLimit(t *testing.T) {
	const tok = "echoed-bearer-token-0123456789abcdef"
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(strings.Repeat("x", errBodyLimit-10) + tok + " trailing text"))
	})
	c, _ := newRetryTestClient(t, srv.URL, WithTokenSource(&seqTokenSource{toks: []string{tok}}))
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %v, want *APIError", err)
	}
	if strings.Contains(err.Error(), tok[:8]) || len(apiErr.Message) > errBodyLimit {
		t.Fatalf("message (%d bytes) keeps part of the token or exceeds the limit: ...%s", len(apiErr.Message), apiErr.Message[max(0, len(apiErr.Message)-40):])
	}
}

// TestErrorBodyControlCharacters: an error body is shown in a terminal, so
// escape sequences and newlines from the server become plain spaces.
func TestErrorBodyControlCharacters(t *testing.T) {
	srv := startCountingServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Error(w, "min_strike\x1b[2J must be\r\n<= max_strike\x07", http.StatusBadRequest)
	})
	c, _ := newRetryTestClient(t, srv.URL)
	_, _, err := c.Exchanges(context.Background(), ReferenceParams{})
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %v, want *APIError", err)
	}
	if want := "min_strike [2J must be <= max_strike"; apiErr.Message != want {
		t.Fatalf("message %q, want %q", apiErr.Message, want)
	}
}
