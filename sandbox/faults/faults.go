// Package faults injects failures into the sandbox's HTTP service, so that
// chainwatch's client, scheduler and screens can be tried against what the
// production service and the network do on a bad day: server errors, rate
// limiting, slow answers, bodies cut short, reset connections and access
// tokens that die mid-session. It is off unless the operator asks for it
// (`chainwatch sandbox --faults RATE[:KIND,...]`).
package faults

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Kind is one sort of injected failure.
type Kind string

// The kinds, as written in a --faults spec.
const (
	// Kind500 answers 500 Internal Server Error, plain text.
	Kind500 Kind = "500"
	// Kind503 answers 503 Service Unavailable with Retry-After: 1.
	Kind503 Kind = "503"
	// Kind429 answers 429 Too Many Requests with Retry-After: 1, as the
	// per-second limit would.
	Kind429 Kind = "429"
	// KindSlow waits Config.Slow, then serves the request normally.
	KindSlow Kind = "slow"
	// KindTruncate serves the request but sends only about half of the
	// body announced by Content-Length, then closes the connection: the
	// client reads an unexpected EOF.
	KindTruncate Kind = "truncate"
	// KindReset resets the TCP connection without any response.
	KindReset Kind = "reset"
	// KindToken revokes the request's access token and answers 401 as the
	// conventions say, so the client must refresh and retry.
	KindToken Kind = "token"
)

// allKinds is the order kinds are listed in messages and used when a spec
// names none. Read-only.
var allKinds = [...]Kind{Kind500, Kind503, Kind429, KindSlow, KindTruncate, KindReset, KindToken}

// Kinds returns every kind, in the order help and errors list them.
func Kinds() []Kind { return append([]Kind(nil), allKinds[:]...) }

func (k Kind) valid() bool {
	for _, v := range allKinds {
		if k == v {
			return true
		}
	}
	return false
}

// DefaultSlow is how long a slow fault waits when Config.Slow is zero:
// longer than a screen's refresh, shorter than a sensible client timeout.
const DefaultSlow = 3 * time.Second

// Config is what to inject. The zero Config injects nothing.
type Config struct {
	Rate  float64       // probability a request gets a fault, in [0, 1]
	Kinds []Kind        // kinds to pick from uniformly; empty means all
	Slow  time.Duration // delay of a slow fault; 0 means DefaultSlow
	Seed  uint64        // seed of the fault sequence, for repeatable runs
}

// Enabled reports whether the Config injects anything.
func (c Config) Enabled() bool { return c.Rate > 0 }

// String is the spec Parse would read back (without Slow and Seed), or ""
// when disabled; for logs and flag defaults.
func (c Config) String() string {
	if !c.Enabled() {
		return ""
	}
	s := strconv.FormatFloat(c.Rate, 'f', -1, 64)
	if len(c.Kinds) == 0 {
		return s
	}
	ks := make([]string, len(c.Kinds))
	for i, k := range c.Kinds {
		ks[i] = string(k)
	}
	return s + ":" + strings.Join(ks, ",")
}

// Parse reads a --faults spec: "" (off), "RATE" (every kind) or
// "RATE:KIND,KIND,..." with 0 < RATE <= 1, e.g. "0.05:500,503,slow". Spaces
// around the parts are ignored and repeated kinds count once. The returned
// Config has Slow = DefaultSlow and Seed 0. Errors are one line naming the
// part that is wrong.
func Parse(spec string) (Config, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Config{}, nil
	}
	rateText, kindsText, hasKinds := strings.Cut(spec, ":")
	rateText = strings.TrimSpace(rateText)
	rate, err := strconv.ParseFloat(rateText, 64)
	if err != nil || math.IsNaN(rate) || rate <= 0 || rate > 1 {
		return Config{}, fmt.Errorf("faults: rate must be a number in (0, 1], got %q", rateText)
	}
	cfg := Config{Rate: rate, Slow: DefaultSlow}
	if !hasKinds {
		return cfg, nil
	}
	seen := map[Kind]bool{}
	for part := range strings.SplitSeq(kindsText, ",") {
		k := Kind(strings.TrimSpace(part))
		if k == "" {
			return Config{}, fmt.Errorf("faults: empty kind in %q: want RATE or RATE:KIND,KIND,... with kinds %s", spec, kindList())
		}
		if !k.valid() {
			return Config{}, fmt.Errorf("faults: unknown kind %q: want one of %s", string(k), kindList())
		}
		if !seen[k] {
			seen[k] = true
			cfg.Kinds = append(cfg.Kinds, k)
		}
	}
	return cfg, nil
}

// kindList is "500, 503, 429, slow, truncate, reset, token".
func kindList() string {
	ks := make([]string, len(allKinds))
	for i, k := range allKinds {
		ks[i] = string(k)
	}
	return strings.Join(ks, ", ")
}
