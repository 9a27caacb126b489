package sandbox_test

import (
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"chainwatch/sandbox"
	"chainwatch/sandbox/faults"
)

// Each fault kind, configured through sandbox.Config at rate 1, shows on a
// data request as a client would meet it.
func TestDataFaults(t *testing.T) {
	t.Parallel()
	const slow = 50 * time.Millisecond
	for _, k := range faults.Kinds() {
		t.Run(string(k), func(t *testing.T) {
			t.Parallel()
			e := newDataEnv(t, nil, func(c *sandbox.Config) {
				c.Faults = faults.Config{Rate: 1, Kinds: []faults.Kind{k}, Slow: slow}
			})
			u := e.url("live", pathExchanges, "")
			switch k {
			case faults.Kind500, faults.Kind503, faults.Kind429:
				want := map[faults.Kind]int{faults.Kind500: 500, faults.Kind503: 503, faults.Kind429: 429}[k]
				resp, body := e.call(http.MethodGet, u, nil, nil)
				if resp.StatusCode != want || body == "" {
					t.Errorf("%d %q, want %d with a message", resp.StatusCode, body, want)
				}
				if k != faults.Kind500 && resp.Header.Get("Retry-After") == "" {
					t.Errorf("%d without Retry-After", resp.StatusCode)
				}
				points(t, string(k), resp)
			case faults.KindSlow:
				start := time.Now()
				if resp, body := e.call(http.MethodGet, u, nil, nil); resp.StatusCode != http.StatusOK {
					t.Errorf("%d %q, want 200 late", resp.StatusCode, body)
				}
				if d := time.Since(start); d < slow {
					t.Errorf("answered after %s, want at least %s", d, slow)
				}
			case faults.KindTruncate, faults.KindReset:
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
				req.Header.Set("Authorization", "Bearer "+e.token)
				resp, err := e.client.Do(req)
				if err == nil {
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				if k == faults.KindTruncate && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("reading a truncated body: %v, want an unexpected EOF", err)
				}
				if k == faults.KindReset && err == nil {
					t.Errorf("a reset connection gave a response")
				}
			case faults.KindToken:
				resp, body := e.call(http.MethodGet, u, nil, nil)
				if resp.StatusCode != http.StatusUnauthorized || body != "" {
					t.Errorf("%d %q, want an empty 401", resp.StatusCode, body)
				}
				if status, _ := e.userinfo(e.token); status != http.StatusUnauthorized {
					t.Errorf("userinfo with the token after a token fault: %d, want 401 (revoked)", status)
				}
			default:
				t.Fatalf("no check for fault kind %q", k)
			}
		})
	}
}
