package quota

import (
	"testing"
	"time"
)

func TestMonthlyResetAtEasternMidnight(t *testing.T) {
	clk := newClock(eastern(2026, 11, 30, 23, 59, 0))
	l := NewLedger(Config{Plan: Plan{Name: "m", Points: 10}, Now: clk.Now})
	mustReserve(t, l, "a", 10).Commit()
	_, ref := l.Reserve("a", 1)
	if ref == nil {
		t.Fatal("admitted over the allowance")
	}
	if ref.RetryAfter != time.Minute {
		t.Errorf("RetryAfter %v; want 1m0s until 2026-12-01 00:00 ET", ref.RetryAfter)
	}
	if want := "monthly points allowance used up (used 10 of 10); it renews on 2026-12-01"; ref.Message != want {
		t.Errorf("message %q; want %q", ref.Message, want)
	}

	// 23:59:59 ET is 04:59:59 UTC on Dec 1: still November in New York.
	clk.Add(59 * time.Second)
	if used, _ := l.Usage("a"); used != 10 {
		t.Fatalf("used %d at 23:59:59 ET; want 10", used)
	}
	clk.Add(time.Second)
	if used, left := l.Usage("a"); used != 0 || left != 10 {
		t.Fatalf("Usage at 00:00 ET = %d, %d; want 0, 10", used, left)
	}
	mustReserve(t, l, "a", 4).Commit()

	// The next renewal is a month later, on January 1.
	mustReserve(t, l, "a", 6).Commit()
	_, ref = l.Reserve("a", 1)
	if ref == nil || ref.Message != "monthly points allowance used up (used 10 of 10); it renews on 2027-01-01" {
		t.Fatalf("refusal %+v", ref)
	}
	if want := 31 * 24 * time.Hour; ref.RetryAfter != want {
		t.Errorf("RetryAfter %v; want %v", ref.RetryAfter, want)
	}
}

func TestReservationAcrossResetIsChargedToNewPeriod(t *testing.T) {
	clk := newClock(eastern(2026, 11, 30, 23, 59, 59))
	l := NewLedger(Config{Plan: Plan{Name: "m", Points: 10}, Now: clk.Now})
	mustReserve(t, l, "a", 5).Commit()
	r := mustReserve(t, l, "a", 5)
	clk.Add(time.Second)
	if used, left := r.Commit(); used != 5 || left != 5 {
		t.Fatalf("Commit after the reset = %d, %d; want 5, 5", used, left)
	}
}

func TestTrialDailyReset(t *testing.T) {
	clk := newClock(eastern(2026, 11, 20, 18, 30, 0))
	trial, ok := PlanByName("trial")
	if !ok {
		t.Fatal("no trial plan")
	}
	l := NewLedger(Config{Plan: trial, Now: clk.Now})
	for range 500 / 50 {
		mustReserve(t, l, "t", 50).Commit()
	}
	_, ref := l.Reserve("t", 3)
	if ref == nil || ref.Status != 429 {
		t.Fatalf("refusal %+v; want 429", ref)
	}
	if want := "daily points allowance used up (used 500 of 500); it renews tomorrow"; ref.Message != want {
		t.Errorf("message %q; want %q", ref.Message, want)
	}
	if want := 5*time.Hour + 30*time.Minute; ref.RetryAfter != want {
		t.Errorf("RetryAfter %v; want %v", ref.RetryAfter, want)
	}
	clk.Add(5*time.Hour + 29*time.Minute)
	if used, _ := l.Usage("t"); used != 500 {
		t.Fatalf("used %d at 23:59 ET; want 500", used)
	}
	clk.Add(time.Minute)
	if used, left := l.Usage("t"); used != 0 || left != 500 {
		t.Fatalf("Usage at 00:00 ET = %d, %d; want 0, 500", used, left)
	}
}

func TestTrialResetAcrossDST(t *testing.T) {
	// 2026-11-01 is the fall-back day: 25 hours from midnight to midnight.
	clk := newClock(eastern(2026, 11, 1, 0, 0, 0))
	l := NewLedger(Config{Plan: Plans[0], Now: clk.Now})
	mustReserve(t, l, "t", 500).Commit()
	_, ref := l.Reserve("t", 1)
	if ref == nil || ref.RetryAfter != 25*time.Hour {
		t.Fatalf("refusal %+v; want RetryAfter 25h", ref)
	}
}

func TestSetPlan(t *testing.T) {
	clk := newClock(eastern(2026, 11, 20, 12, 0, 0))
	l := NewLedger(Config{Now: clk.Now})
	if _, left := l.Usage("x"); left != 1_250_000 {
		t.Fatalf("default plan left %d; want the standard plan's 1,250,000", left)
	}
	trial, _ := PlanByName("trial")
	l.SetPlan("x", trial)
	if _, left := mustReserve(t, l, "x", 100).Commit(); left != 400 {
		t.Fatalf("trial left %d; want 400", left)
	}
	if _, left := mustReserve(t, l, "y", 100).Commit(); left != 1_249_900 {
		t.Fatalf("other client left %d; want 1,249,900", left)
	}
	// Switching to a monthly plan keeps the points used and moves the
	// renewal to the first of the next month.
	pro, _ := PlanByName("professional")
	l.SetPlan("x", pro)
	clk.Add(24 * time.Hour)
	if used, left := l.Usage("x"); used != 100 || left != 3_999_900 {
		t.Fatalf("after switching to professional: %d, %d; want 100, 3,999,900", used, left)
	}
}

func TestPlanByName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		points int64
		daily  bool
		ok     bool
	}{
		{"trial", 500, true, true},
		{"standard", 1_250_000, false, true},
		{"professional", 4_000_000, false, true},
		{"Trial", 0, false, false},
		{"", 0, false, false},
		{"enterprise", 0, false, false},
	} {
		p, ok := PlanByName(tc.name)
		if ok != tc.ok || p.Points != tc.points || p.Daily != tc.daily || (ok && p.Name != tc.name) {
			t.Errorf("PlanByName(%q) = %+v, %v", tc.name, p, ok)
		}
	}
	if got := PlanNames(); len(got) != 3 || got[0] != "trial" || got[2] != "professional" {
		t.Errorf("PlanNames = %v", got)
	}
}

func TestPeriodEnd(t *testing.T) {
	for _, tc := range []struct {
		now   time.Time
		daily bool
		want  time.Time
	}{
		{eastern(2026, 12, 31, 23, 0, 0), false, eastern(2027, 1, 1, 0, 0, 0)},
		{eastern(2026, 12, 1, 0, 0, 0), false, eastern(2027, 1, 1, 0, 0, 0)},
		{eastern(2026, 3, 8, 12, 0, 0), true, eastern(2026, 3, 9, 0, 0, 0)},
		// 03:00 UTC on March 1 is still February 28 in New York.
		{time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC), false, eastern(2026, 3, 1, 0, 0, 0)},
	} {
		if got := periodEnd(Plan{Daily: tc.daily}, tc.now); !got.Equal(tc.want) {
			t.Errorf("periodEnd(daily=%v, %v) = %v; want %v", tc.daily, tc.now, got, tc.want)
		}
	}
}
