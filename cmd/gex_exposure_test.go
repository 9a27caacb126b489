package cmd

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"chainwatch/api"
	"chainwatch/positioning"
)

// estimatedGEX is the GEX of the contracts of ch at most maxDTE days out
// whose gamma is the model's (the service sent none).
func estimatedGEX(ch *positioning.Chain, maxDTE int) float64 {
	sum := 0.0
	for _, e := range ch.Exps {
		if e.DTE > maxDTE {
			continue
		}
		for _, r := range e.Rows {
			if r.Call.Estimated {
				sum += positioning.GEXOf(r.Call.Gamma, int64(r.Call.OI), ch.Spot, false)
			}
			if r.Put.Estimated {
				sum += positioning.GEXOf(r.Put.Gamma, int64(r.Put.OI), ch.Spot, true)
			}
		}
	}
	return sum
}

// gexSummary is what the done-when checks read of `gex --summary`.
type gexSummary struct {
	Spot           float64  `json:"spot"`
	GEX            float64  `json:"gex"`
	Vanna          *float64 `json:"vanna"`
	Charm          *float64 `json:"charm"`
	GammaEstimated *int     `json:"gamma_estimated"`
	EstimatedGEX   float64  `json:"gex_estimated"`
	GammaMissing   int      `json:"gamma_missing"`
	ZeroGamma      *float64 `json:"zero_gamma"`
	Units          map[string]string
}

// chainContract is what the checks read of `chain --json`.
type chainContract struct {
	Type  string   `json:"option_type"`
	OI    *int64   `json:"open_interest"`
	Gamma *float64 `json:"gamma"`
}

// runJSON runs c's args and decodes their stdout into v.
func runJSON(t *testing.T, c cli, v any, args ...string) {
	t.Helper()
	out, errOut, err := c.run(t, args...)
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

// TestGexSummaryIsTheChainsGamma: `gex SPY --expiry E --summary` is the
// sum of ±gamma x OI x 100 x spot² x 0.01 over `chain SPY --expiry E`
// within $1, once the GEX of the contracts it estimated (gex_estimated)
// is taken out, and it estimated as many as the chain has with open
// interest and no gamma; numeric vanna and charm beside it.
func TestGexSummaryIsTheChainsGamma(t *testing.T) {
	c, _ := volCLI(t)
	for _, e := range []string{"2026-11-27", "2026-12-18"} {
		var s gexSummary
		var rows []chainContract
		runJSON(t, c, &s, "gex", "SPY", "--expiry", e, "--summary")
		runJSON(t, c, &rows, "chain", "SPY", "--expiry", e, "--json")
		plain, missing := 0.0, 0
		for _, r := range rows {
			if r.OI == nil || *r.OI <= 0 {
				continue
			}
			if r.Gamma == nil {
				missing++
				continue
			}
			g := *r.Gamma * float64(*r.OI) * 100 * s.Spot * s.Spot * 0.01
			if r.Type == "P" || r.Type == "put" {
				g = -g
			}
			plain += g
		}
		if len(rows) < 50 || s.GammaEstimated == nil || *s.GammaEstimated != missing || (missing == 0) != (s.EstimatedGEX == 0) {
			t.Fatalf("%s: %d contracts, %d with open interest and no gamma, summary estimated %v (%v)", e, len(rows), missing, s.GammaEstimated, s.EstimatedGEX)
		}
		if math.Abs(s.GEX-s.EstimatedGEX-plain) > 1 {
			t.Errorf("%s: summary GEX %.2f less %.2f estimated, the chain's %.2f", e, s.GEX, s.EstimatedGEX, plain)
		}
		if s.Vanna == nil || s.Charm == nil || *s.Vanna == 0 || *s.Charm == 0 || len(s.Units) != 3 {
			t.Errorf("%s: vanna %v charm %v units %v", e, s.Vanna, s.Charm, s.Units)
		}
	}
}

// TestGexEstimatesAtTheClose: at 15:59:30 every out-of-the-money 0DTE SPX
// contract has a zero bid and no gamma; `gex SPX --dte 0 --summary`
// counts as estimated exactly the contracts of `chain` with open interest
// and no gamma, and leaves none out.
func TestGexEstimatesAtTheClose(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 59, 30, 0, api.Eastern)
	c := cli{env: scanEnvAt(t, now), now: func() time.Time { return now }}
	var s gexSummary
	var rows []chainContract
	runJSON(t, c, &s, "gex", "SPX", "--dte", "0", "--summary", "--json")
	runJSON(t, c, &rows, "chain", "SPX", "--expiry", "2026-11-20", "--json")
	missing := 0
	for _, r := range rows {
		if r.OI != nil && *r.OI > 0 && r.Gamma == nil {
			missing++
		}
	}
	if missing < 20 || s.GammaEstimated == nil || *s.GammaEstimated != missing || s.GammaMissing != 0 {
		t.Fatalf("%d contracts with open interest and no gamma; summary estimated %v, missing %d", missing, s.GammaEstimated, s.GammaMissing)
	}
}

// gexPoint is a --profile row.
type gexPoint struct {
	Spot   float64 `json:"spot"`
	GEX    float64 `json:"gex"`
	AtSpot bool    `json:"at_spot"`
}

// TestGexProfile: `gex SPX --profile --json` at spot is the summary's
// total within 1 %, and the curve changes sign between the two points
// either side of the summary's zero_gamma; at 11:00, half a minute
// before the close, and at the close (the 0DTE's last quotes' gammas are
// a minute from expiry's, and so is the curve's).
func TestGexProfile(t *testing.T) {
	for _, now := range []time.Time{time.Date(2026, 11, 20, 11, 0, 0, 0, api.Eastern), time.Date(2026, 11, 20, 15, 59, 30, 0, api.Eastern),
		time.Date(2026, 11, 20, 16, 0, 0, 0, api.Eastern)} {
		c := cli{env: scanEnvAt(t, now), now: func() time.Time { return now }}
		for _, r := range [][]string{{"--max-dte", "30"}, {"--dte", "0"}} {
			var s gexSummary
			var pts []gexPoint
			runJSON(t, c, &s, append([]string{"gex", "SPX", "--summary"}, r...)...)
			runJSON(t, c, &pts, append([]string{"gex", "SPX", "--profile", "--json"}, r...)...)
			if len(pts) != positioning.ZeroGammaGrid+1 {
				t.Fatalf("%v %v: %d points", now, r, len(pts))
			}
			at := -1
			for i, p := range pts {
				if p.AtSpot {
					at = i
				}
				if i > 0 && p.Spot <= pts[i-1].Spot {
					t.Fatalf("%v %v: spots not ascending at %d", now, r, i)
				}
			}
			if at < 0 || pts[at].Spot != s.Spot || math.Abs(pts[at].GEX-s.GEX) > 0.01*math.Abs(s.GEX) {
				t.Errorf("%v %v: the profile at spot %+v, the total %.2f", now, r, pts[max(at, 0)], s.GEX)
			}
			if s.ZeroGamma == nil {
				continue
			}
			crossed := false
			for i := 1; i < len(pts); i++ {
				if pts[i-1].Spot <= *s.ZeroGamma && *s.ZeroGamma <= pts[i].Spot {
					crossed = pts[i-1].GEX*pts[i].GEX <= 0
				}
			}
			if !crossed {
				t.Errorf("%v %v: the profile does not change sign at zero gamma %v", now, r, *s.ZeroGamma)
			}
		}
	}
}

// TestGexProfileFlags: --profile's CSV header is its keys; with
// --summary it is refused before any request.
func TestGexProfileFlags(t *testing.T) {
	c, _ := volCLI(t)
	out, errOut, err := c.run(t, "gex", "SPY", "--dte", "0", "--profile", "--csv")
	if err != nil || !strings.HasPrefix(out, "spot,gex,at_spot\n") || strings.Count(out, "\n") != positioning.ZeroGammaGrid+2 {
		t.Fatalf("--profile --csv: %v\n%.200s\n%s", err, out, errOut)
	}
	var stdout, stderr syncBuffer
	if code := Execute(c.deps(&stdout, &stderr), []string{"gex", "SPY", "--profile", "--summary"}); code != 2 || stdout.String() != "" ||
		!strings.Contains(stderr.String(), "none of the others can be") {
		t.Errorf("--profile --summary: exit %d, stderr %q", code, stderr.String())
	}
}
