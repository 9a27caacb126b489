package cmd

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestStrategyCommand(t *testing.T) {
	env := scanEnv(t)
	run := func(t *testing.T, args ...string) (string, string, error) {
		t.Helper()
		return cli{env: env, now: func() time.Time { return testNow }}.run(t, args...)
	}

	t.Run("vertical figures are the strategy package's", func(t *testing.T) {
		out, errOut, err := run(t, "strategy", "SPY 2026-12-18 +C700 -C710", "--json")
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
			t.Fatalf("%v\n%s", err, out)
		}
		net := rows[2]
		if net["leg"] != "net" || rows[0]["option"] != "SPY261218C00700000" {
			t.Fatalf("rows %v", rows)
		}
		// The vertical's closed forms from the rows' own mids.
		debit := rows[0]["mid"].(float64) - rows[1]["mid"].(float64)
		closeTo(t, "net mid", net["net_mid"].(float64), debit*100, 0.01)
		closeTo(t, "max loss", net["max_loss"].(float64), -debit*100, 0.01)
		closeTo(t, "max profit", net["max_profit"].(float64), (10-debit)*100, 0.01)
		be := net["breakevens"].([]any)
		if len(be) != 1 {
			t.Fatalf("breakevens %v", be)
		}
		closeTo(t, "breakeven", be[0].(float64), 700+debit, 1e-3)
		closeTo(t, "position delta", net["position_delta"].(float64),
			100*(rows[0]["delta"].(float64)-rows[1]["delta"].(float64)), 1e-3)
		if p := net["probability_of_profit"].(float64); p <= 0 || p >= 1 {
			t.Fatalf("PoP %v", p)
		}
	})

	t.Run("table names every figure", func(t *testing.T) {
		out, errOut, err := run(t, "strategy", "--", "SPY", "2026-12-18", "+C700", "-C710")
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		for _, want := range []string{"net ", "debit at mid", "natural", "max profit", "max loss", "breakevens", "PoP", "risk-neutral", "carry", "quotes"} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in\n%s", want, out)
			}
		}
	})

	t.Run("straddle pnl", func(t *testing.T) {
		out, errOut, err := run(t, "strategy", "SPY 2026-12-18 +C700 +P700", "--pnl", "--json", "--spots", "5")
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 5 {
			t.Fatalf("%v\n%s", err, out)
		}
		exp := rows[0]["pnl_2026-12-18"]
		mid := rows[2]["pnl_2026-12-18"]
		// A long straddle gains at the wings and loses at the middle.
		if exp.(float64) <= mid.(float64) || rows[4]["pnl_2026-12-18"].(float64) <= mid.(float64) {
			t.Fatalf("rows %v", rows)
		}
		if _, ok := rows[0]["pnl_2026-11-20"]; !ok {
			t.Fatalf("no column for today: %v", rows[0])
		}
	})

	// Filled at mid, a vertical is worth its fill at today's spot: its
	// legs are repriced on the chain's model and carry, at their own IVs.
	for _, legs := range []string{"SPY 2026-12-18 +C700 -C710", "SPY 2026-12-18 +P750 -P740"} {
		t.Run("at mid worth its fill today: "+legs, func(t *testing.T) {
			out, errOut, err := run(t, "strategy", legs, "--pnl", "--spots", "3", "--json")
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			var rows []map[string]any
			if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
				t.Fatalf("%v\n%s", err, out)
			}
			today, ok := rows[1]["pnl_2026-11-20"].(float64)
			if !ok || math.Abs(today) > 1 {
				t.Fatalf("P&L today at spot %v: %v, want within $1.00", rows[1]["spot"], rows[1]["pnl_2026-11-20"])
			}
		})
	}

	t.Run("PoP risk-neutral, or at --drift", func(t *testing.T) {
		net := func(args ...string) map[string]any {
			out, errOut, err := run(t, append([]string{"strategy", "SPY 2026-12-18 +C700 -C710", "--json"}, args...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			var rows []map[string]any
			if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
				t.Fatalf("%v\n%s", err, out)
			}
			return rows[2]
		}
		rn, rw := net(), net("--drift", "20")
		leg := func() map[string]any {
			out, _, _ := run(t, "strategy", "SPY 2026-12-18 +C700 -C710", "--json")
			var rows []map[string]any
			_ = json.Unmarshal([]byte(out), &rows)
			return rows[0]
		}()
		if rn["pop_basis"] != "risk_neutral" || rw["pop_basis"] != "real_world" {
			t.Fatalf("bases %v, %v", rn["pop_basis"], rw["pop_basis"])
		}
		closeTo(t, "risk-neutral drift", rn["pop_drift"].(float64), leg["rate"].(float64)-leg["dividend_yield"].(float64), 1e-6)
		closeTo(t, "real-world drift", rw["pop_drift"].(float64), 0.2, 1e-9)
		// A call vertical gains as the underlying rises: a 20 % drift
		// makes its profit likelier.
		if !(rw["probability_of_profit"].(float64) > rn["probability_of_profit"].(float64)) {
			t.Fatalf("PoP %v at 20%% drift, %v risk-neutral", rw["probability_of_profit"], rn["probability_of_profit"])
		}
		if leg["carry_from"] != "2026-12-18" {
			t.Fatalf("the leg's carry came from %v, want its own expiry", leg["carry_from"])
		}
		if out, _, err := run(t, "strategy", "SPY 2026-12-18 +C700 -C710", "--drift", "500"); exitCode(err) != ExitInput ||
			!strings.Contains(err.Error(), "--drift 500: want -100 to 100 percent a year") || out != "" {
			t.Fatalf("--drift 500: %v (status %d), stdout %q", err, exitCode(err), out)
		}
	})

	for _, c := range []struct {
		name, legs, says string
		status           int
	}{
		{"two underlyings", "SPY 2026-12-18 +C700 -QQQ261218C00500000", "two underlyings", ExitInput},
		{"quantity 0", "SPY 2026-12-18 +0C700", "quantity of 0", ExitInput},
		{"quantity over 10,000", "SPY 2026-12-18 +10001C700", "at most 10000", ExitInput},
		{"expired", "SPY 2026-11-13 +C700", "expired on 2026-11-13", ExitInput},
		{"not listed", "SPY 2026-12-18 +C700.5", "not listed; the nearest listed is C70", ExitInput},
		{"unknown symbol", "ZZZZ 2026-12-18 +C10", "no such symbol", ExitNoData},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, _, err := run(t, "strategy", c.legs)
			if err == nil || exitCode(err) != c.status || !strings.Contains(err.Error(), c.says) || out != "" {
				t.Fatalf("%q: %v (status %d), stdout %q; want %d saying %q", c.legs, err, exitCode(err), out, c.status, c.says)
			}
		})
	}
}

func closeTo(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
