package faults

import (
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Middleware wraps a handler so that each request, with probability
// cfg.Rate, gets one of cfg.Kinds (chosen uniformly) instead of or on top
// of its normal answer. expireToken is called for a token fault before the
// 401, so that the server really revokes the request's access token and the
// client's retry with the same token fails too; it may be nil.
//
// Faults follow a pseudo-random sequence seeded by cfg.Seed: with the same
// seed, the n-th request through the middleware meets the same fault on
// every run. A disabled Config returns the handler itself, so the sandbox
// pays nothing for the feature when it is off. Middleware panics on a kind
// Parse would refuse, a programming error.
func Middleware(cfg Config, expireToken func(r *http.Request)) func(http.Handler) http.Handler {
	if !cfg.Enabled() {
		return func(next http.Handler) http.Handler { return next }
	}
	kinds := cfg.Kinds
	if len(kinds) == 0 {
		kinds = allKinds[:]
	}
	for _, k := range kinds {
		if !k.valid() {
			panic("faults: unknown kind " + string(k))
		}
	}
	slow := cfg.Slow
	if slow <= 0 {
		slow = DefaultSlow
	}
	d := &dice{
		rate:  cfg.Rate,
		kinds: append([]Kind(nil), kinds...),
		rng:   rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			k, ok := d.roll()
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			inject(k, w, r, next, slow, expireToken)
		})
	}
}

// dice is the shared fault sequence; the mutex keeps it one sequence when
// requests are served concurrently.
type dice struct {
	rate  float64
	kinds []Kind

	mu  sync.Mutex
	rng *rand.Rand
}

// roll decides one request's fate. It always draws the same number of
// values for a given outcome, so the sequence depends only on the seed and
// the order of requests.
func (d *dice) roll() (Kind, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.rng.Float64() >= d.rate {
		return "", false
	}
	return d.kinds[d.rng.IntN(len(d.kinds))], true
}

// Messages of the plain-text faults; one line each, as the service's error
// bodies are.
const (
	msg500 = "injected fault: internal server error"
	msg503 = "injected fault: service unavailable"
	msg429 = "injected fault: rate limit"
)

// inject carries out fault k on one request.
func inject(k Kind, w http.ResponseWriter, r *http.Request, next http.Handler,
	slow time.Duration, expireToken func(*http.Request)) {
	switch k {
	case Kind500:
		http.Error(w, msg500, http.StatusInternalServerError)
	case Kind503:
		w.Header().Set("Retry-After", "1")
		http.Error(w, msg503, http.StatusServiceUnavailable)
	case Kind429:
		w.Header().Set("Retry-After", "1")
		http.Error(w, msg429, http.StatusTooManyRequests)
	case KindSlow:
		t := time.NewTimer(slow)
		defer t.Stop()
		select {
		case <-t.C:
			next.ServeHTTP(w, r)
		case <-r.Context().Done():
			// The client gave up; nobody is left to answer.
		}
	case KindTruncate:
		truncate(w, r, next)
	case KindReset:
		reset(w)
	case KindToken:
		if expireToken != nil {
			expireToken(r)
		}
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		w.WriteHeader(http.StatusUnauthorized)
	}
}
