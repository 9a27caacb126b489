package quota

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chainwatch/api"
)

// clock is a settable clock for Config.Now, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// eastern is a wall-clock instant in New York.
func eastern(y int, m time.Month, d, hh, mm, ss int) time.Time {
	return time.Date(y, m, d, hh, mm, ss, 0, api.Eastern)
}

func mustReserve(t *testing.T, l *Ledger, client string, cost int) *Reservation {
	t.Helper()
	r, ref := l.Reserve(client, cost)
	if ref != nil {
		t.Fatalf("Reserve(%q, %d) refused: %d %s", client, cost, ref.Status, ref.Message)
	}
	return r
}

func TestChargingAndCounters(t *testing.T) {
	clk := newClock(eastern(2026, 11, 20, 10, 0, 0))
	l := NewLedger(Config{Plan: Plan{Name: "small", Points: 100}, Now: clk.Now})

	if used, left := l.Usage("a"); used != 0 || left != 100 {
		t.Fatalf("fresh Usage = %d, %d; want 0, 100", used, left)
	}
	r := mustReserve(t, l, "a", 30)
	if used, left := l.Usage("a"); used != 0 || left != 100 {
		t.Fatalf("Usage while held = %d, %d; want 0, 100 (held points are not charged)", used, left)
	}
	if used, left := r.Commit(); used != 30 || left != 70 {
		t.Fatalf("Commit = %d, %d; want 30, 70", used, left)
	}
	if used, left := r.Commit(); used != 30 || left != 70 {
		t.Fatalf("second Commit = %d, %d; want 30, 70 (idempotent)", used, left)
	}
	if used, left := r.Cancel(); used != 30 || left != 70 {
		t.Fatalf("Cancel after Commit = %d, %d; want 30, 70", used, left)
	}

	r = mustReserve(t, l, "a", 50)
	if used, left := r.Cancel(); used != 30 || left != 70 {
		t.Fatalf("Cancel = %d, %d; want 30, 70", used, left)
	}
	r.Commit() // too late: Cancel decided
	if used, _ := l.Usage("a"); used != 30 {
		t.Fatalf("Commit after Cancel charged: used %d", used)
	}

	// Clients are independent.
	if used, left := mustReserve(t, l, "b", 100).Commit(); used != 100 || left != 0 {
		t.Fatalf("b Commit = %d, %d; want 100, 0", used, left)
	}
	mustReserve(t, l, "a", 70).Commit()
	_, ref := l.Reserve("a", 1)
	if ref == nil || ref.Status != 429 {
		t.Fatalf("Reserve over allowance = %+v; want 429", ref)
	}
	want := "monthly points allowance used up (used 100 of 100); it renews on 2026-12-01"
	if ref.Message != want {
		t.Errorf("message %q; want %q", ref.Message, want)
	}
	if ref.RetryAfter%time.Second != 0 || ref.RetryAfter < time.Second {
		t.Errorf("RetryAfter %v is not whole seconds >= 1", ref.RetryAfter)
	}
}

func TestLeftNeverNegative(t *testing.T) {
	l := NewLedger(Config{Plan: Plan{Name: "p", Points: 100}})
	mustReserve(t, l, "a", 80).Commit()
	l.SetPlan("a", Plan{Name: "tiny", Points: 10})
	if used, left := l.Usage("a"); used != 80 || left != 0 {
		t.Fatalf("Usage after lowering plan = %d, %d; want 80, 0", used, left)
	}
}

func TestConcurrentReservationsNeverOverspend(t *testing.T) {
	l := NewLedger(Config{Plan: Plan{Name: "ten", Points: 10}})
	var admitted, refused atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 50 {
		wg.Go(func() {
			<-start
			r, ref := l.Reserve("c", 1)
			if ref != nil {
				refused.Add(1)
				return
			}
			admitted.Add(1)
			r.Commit()
		})
	}
	close(start)
	wg.Wait()
	if admitted.Load() != 10 || refused.Load() != 40 {
		t.Fatalf("admitted %d, refused %d; want 10, 40", admitted.Load(), refused.Load())
	}
	if used, left := l.Usage("c"); used != 10 || left != 0 {
		t.Fatalf("Usage = %d, %d; want 10, 0", used, left)
	}
}

func TestHeldPointsBlockUntilCancelled(t *testing.T) {
	l := NewLedger(Config{Plan: Plan{Name: "ten", Points: 10}})
	r := mustReserve(t, l, "c", 8)
	if _, ref := l.Reserve("c", 3); ref == nil {
		t.Fatal("Reserve of 3 with 8 of 10 held was admitted")
	}
	r.Cancel()
	mustReserve(t, l, "c", 3).Commit()
}

func TestRateLimit(t *testing.T) {
	clk := newClock(eastern(2026, 11, 20, 10, 0, 0))
	l := NewLedger(Config{PerSecond: 2, Burst: 2, Now: clk.Now})
	mustReserve(t, l, "a", 4).Commit()
	mustReserve(t, l, "a", 4).Commit()
	_, ref := l.Reserve("a", 4)
	if ref == nil || ref.Status != 429 {
		t.Fatalf("third request in the same instant = %+v; want 429", ref)
	}
	if want := "rate limit exceeded: more than 2 requests per second"; ref.Message != want {
		t.Errorf("message %q; want %q", ref.Message, want)
	}
	// One token comes back after 0.5 s; Retry-After is at least a second.
	if ref.RetryAfter != time.Second || ref.RetryAfterHeader() != "1" {
		t.Errorf("RetryAfter %v (%q); want 1s", ref.RetryAfter, ref.RetryAfterHeader())
	}
	if used, _ := l.Usage("a"); used != 8 {
		t.Errorf("refused request changed used to %d", used)
	}
	// Another client has its own bucket.
	mustReserve(t, l, "b", 4).Cancel()

	clk.Add(500 * time.Millisecond)
	mustReserve(t, l, "a", 4).Cancel()
	if _, ref := l.Reserve("a", 0); ref == nil {
		t.Fatal("cost-0 request over the rate was admitted")
	}
}

func TestRetryAfterRoundsUp(t *testing.T) {
	clk := newClock(eastern(2026, 11, 20, 10, 0, 0))
	l := NewLedger(Config{PerSecond: 0.4, Burst: 1, Now: clk.Now})
	mustReserve(t, l, "a", 1).Commit()
	_, ref := l.Reserve("a", 1)
	if ref == nil || ref.RetryAfter != 3*time.Second {
		t.Fatalf("refusal %+v; want RetryAfter 3s (2.5 s rounded up)", ref)
	}
	if !strings.Contains(ref.Message, "more than 0.4 requests per second") {
		t.Errorf("message %q", ref.Message)
	}
}

func TestUnlimitedRate(t *testing.T) {
	l := NewLedger(Config{PerSecond: 0})
	for range 1000 {
		mustReserve(t, l, "a", 0).Commit()
	}
}

func TestCostZero(t *testing.T) {
	l := NewLedger(Config{Plan: Plan{Name: "one", Points: 1}})
	mustReserve(t, l, "a", 1).Commit()
	if _, ref := l.Reserve("a", 1); ref == nil {
		t.Fatal("paid request admitted with the allowance used up")
	}
	for range 5 {
		if used, left := mustReserve(t, l, "a", 0).Commit(); used != 1 || left != 0 {
			t.Fatalf("cost-0 Commit = %d, %d; want 1, 0", used, left)
		}
	}
	if used, _ := mustReserve(t, l, "a", -5).Commit(); used != 1 {
		t.Fatalf("negative cost changed used to %d", used)
	}
}

func TestIdleClientsAreForgotten(t *testing.T) {
	clk := newClock(eastern(2026, 11, 20, 10, 0, 0))
	l := NewLedger(Config{PerSecond: 5, Now: clk.Now})
	for i := range 100 {
		mustReserve(t, l, string(rune('A'+i)), 0).Commit()
	}
	mustReserve(t, l, "payer", 7).Commit()
	if n := l.Clients(); n != 101 {
		t.Fatalf("Clients = %d; want 101", n)
	}
	clk.Add(Idle + sweepEvery)
	mustReserve(t, l, "new", 0).Commit()
	if n := l.Clients(); n != 2 {
		t.Fatalf("Clients after idle sweep = %d; want 2 (payer and new)", n)
	}
	if used, _ := l.Usage("payer"); used != 7 {
		t.Fatalf("payer's points lost: used %d", used)
	}
}
