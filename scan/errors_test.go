package scan_test

import (
	"chainwatch/scan"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/sandbox"
	"chainwatch/sandbox/quota"
)

// fields is a scan of the given formulas.
func fields(formulas ...string) scan.Scan {
	s := scan.Scan{Name: "test"}
	for _, f := range formulas {
		s.Fields = append(s.Fields, api.ScanFieldParam{Formula: f})
	}
	return s
}

// TestDescribeScanError covers each case with the error values the api
// package really returns (validation errors from Validate itself).
func TestDescribeScanError(t *testing.T) {
	two := fields("iv30 > 40", "iv31 > 4")
	dupName := two
	dupName.Fields = []api.ScanFieldParam{{Formula: "iv30", DisplayName: "IV"}, {Formula: "hv30", DisplayName: "IV"}}
	badSort := fields("iv30", "hv30")
	badSort.Fields[1].Sort = "up"
	var many scan.Scan
	for range 51 {
		many.Fields = append(many.Fields, api.ScanFieldParam{Formula: "iv30"})
	}
	apiErr := func(status int, msg string) *api.APIError {
		return &api.APIError{Method: "POST", Endpoint: "allaccess/scans-and-alerts/custom-scanner", StatusCode: status, Message: msg}
	}
	for _, tc := range []struct {
		name  string
		err   error
		scan  scan.Scan
		want  string // the whole message, or a part of it when part is set
		part  bool
		field int
	}{
		{"nil", nil, two, "", false, -1},
		{"formula", &scan.FormulaError{Index: 1, Formula: "iv31 > 4", Err: errors.New("unknown field iv31")}, two,
			`formula 2 "iv31 > 4": unknown field iv31`, false, 1},
		{"wrapped formula", fmt.Errorf("run: %w", &scan.FormulaError{Index: 0, Formula: "x", Err: errors.New("bad")}), two, `formula 1 "x": bad`, false, 0},
		{"no data", api.ErrNoData, two, "no symbol matched the scan", false, -1},
		{"empty scan", scan.Scan{}.Params(api.Live).Validate(), scan.Scan{}, "the scan has no formula: add at least one", false, -1},
		{"too many", many.Params(api.Live).Validate(), many, "the scan must have at most 50 formulas, not 51", true, -1},
		{"empty formula", fields("iv30", " ").Params(api.Live).Validate(), fields("iv30", " "), "formula 2 is required", false, 1},
		{"joined", fields("", "").Params(api.Live).Validate(), fields("", ""), "formula 1 is required (and 1 more problems)", false, 0},
		{"duplicate name", dupName.Params(api.Live).Validate(), dupName, `the name of formula 2 "IV" is already the name of formula 1`, false, 1},
		{"sort", badSort.Params(api.Live).Validate(), badSort, "the sort of formula 2 must be", true, 1},
		{"400 fields[N]", apiErr(400, `fields[1].formula "iv31 > 4": unknown field iv31`), two,
			`the service refused formula 2 "iv31 > 4": unknown field iv31`, false, 1},
		{"400 rule", apiErr(400, `fields[0].sort must be one of asc, desc, none, not "up"`), two,
			`the service refused the sort of formula 1 must be one of asc, desc, none, not "up"`, false, 0},
		{"400 quoting a formula", apiErr(400, `unknown field iv31 in formula "iv31 > 4"`), two,
			`the service refused formula 2: unknown field iv31 in formula "iv31 > 4"`, false, 1},
		{"400 longest quoted", apiErr(400, `cannot parse "iv30 > 40"`), fields("iv30 > 4", "iv30 > 40"),
			`the service refused formula 2: cannot parse "iv30 > 40"`, false, 1},
		{"400 fields[N] beyond the scan", apiErr(400, `fields[7].formula is required`), two, "the service refused the scan: formula 8 is required", false, -1},
		{"400 other", apiErr(400, "all_results must be true or false"), two, "the service refused the scan: all_results must be true or false", false, -1},
		{"429 per second", &api.RateLimitError{APIError: *apiErr(429, "rate limit: 10 requests per second"), RetryAfter: 2300 * time.Millisecond}, two,
			"too many requests: try again in 3s", false, -1},
		{"429 without Retry-After", &api.RateLimitError{APIError: *apiErr(429, "slow down")}, two, "too many requests: try again in a moment", false, -1},
		{"429 monthly", &api.RateLimitError{APIError: *apiErr(429, "monthly points allowance used up (used 40 of 40); it renews 2026-12-01"), RetryAfter: 240 * time.Hour}, two,
			"the month's points are used up, so the scan was not run: monthly points allowance used up (used 40 of 40); it renews 2026-12-01", false, -1},
		{"401", apiErr(401, "Unauthorized"), two, "the service refused the login: run `chainwatch login` again", true, -1},
		{"403", apiErr(403, "insufficient scope"), two, "may not use the custom scanner (scope api.scans.custom): insufficient scope", true, -1},
		{"404", apiErr(404, "not found"), two, "check the base URL", true, -1},
		{"503", apiErr(503, "maintenance"), two, "the service failed (503): maintenance; nothing was charged, try again", false, -1},
		{"auth", &api.AuthError{Op: "client credentials", Code: "invalid_client", Status: 401}, two, "cannot sign in to the service: ", true, -1},
		{"deadline", fmt.Errorf("api: POST x: %w", context.DeadlineExceeded), two, "cannot reach the service: no answer in time", false, -1},
		{"canceled", context.Canceled, two, "the scan was canceled", false, -1},
		{"url.Error", &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1", Err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}, two,
			"cannot reach the service: connection refused (dial tcp 127.0.0.1:1: connect) · POST http://127.0.0.1:1/v1", false, -1},
		{"net.OpError", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, two, "cannot reach the service: connection refused (dial tcp)", false, -1},
		{"other", errors.New("something odd\nsecond line"), two, "something odd", false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, field := scan.DescribeError(tc.err, tc.scan)
			if tc.part && !strings.Contains(msg, tc.want) || !tc.part && msg != tc.want || field != tc.field {
				t.Fatalf("(%q, %d), want (%q, %d)", msg, field, tc.want, tc.field)
			}
			if strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("%q is more than one line", msg)
			}
		})
	}
}

// TestDescribeScanErrorFromSandbox runs the cases the sandbox can produce
// for real: the 400 for an unknown field, the monthly allowance and the
// per-second limit.
func TestDescribeScanErrorFromSandbox(t *testing.T) {
	s := fields("iv30 > 40", "iv31 * 2")
	// 20 points a month: the 400 is free, and a scan (30) is more than is left.
	c := startScanSandbox(t, sandbox.Config{Plan: quota.Plan{Name: "tiny", Points: 20}})
	_, _, err := c.CustomScan(t.Context(), s.Params(api.Live))
	msg, field := scan.DescribeError(err, s)
	if field != 1 || msg != `the service refused formula 2 "iv31 * 2": unknown field iv31; did you mean iv30?` {
		t.Fatalf("400: %v -> (%q, %d)", err, msg, field)
	}
	ok := fields("iv30 > 40")
	_, _, err = c.CustomScan(t.Context(), ok.Params(api.Live))
	if msg, field := scan.DescribeError(err, ok); field != -1 || !strings.HasPrefix(msg, "the month's points are used up, so the scan was not run: monthly points allowance used up") {
		t.Fatalf("monthly: %v -> (%q, %d)", err, msg, field)
	}

	// One request a second on a stopped clock: the free field list takes
	// it, and the scan after it is refused.
	c = startScanSandbox(t, sandbox.Config{PerSecond: 1, Burst: 1})
	if _, _, err := c.ScannerMetadata(t.Context(), api.ReferenceParams{}); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.CustomScan(t.Context(), ok.Params(api.Live))
	var rl *api.RateLimitError
	if msg, _ := scan.DescribeError(err, ok); !errors.As(err, &rl) || rl.MonthlyAllowance() || !strings.HasPrefix(msg, "too many requests: try again in ") {
		t.Fatalf("per second: %v -> %q", err, msg)
	}
}

// staticTokens hands out one access token.
type staticTokens string

func (s staticTokens) Token(context.Context) (*oauth2.Token, error) {
	return &oauth2.Token{AccessToken: string(s), TokenType: "Bearer"}, nil
}
func (staticTokens) Invalidate() {}

// TestDescribeScanErrorNetwork: a service that is not there is "cannot
// reach the service", and the token never shows.
func TestDescribeScanErrorNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const token = "tok-3f9a8b7c6d5e4f"
	c, err := api.NewClient(api.WithBaseURL("http://"+addr), api.WithTokenSource(staticTokens(token)))
	if err != nil {
		t.Fatal(err)
	}
	s := fields("iv30 > 40")
	_, err = scan.Run(t.Context(), c, nil, s, api.Live, modeltest.Now)
	msg, field := scan.DescribeError(err, s)
	if field != -1 || !strings.HasPrefix(msg, "cannot reach the service: ") || !strings.Contains(msg, "refused") || strings.Contains(msg, token) {
		t.Fatalf("%v -> (%q, %d)", err, msg, field)
	}
}
