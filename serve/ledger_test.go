package serve_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"chainwatch/serve"
)

// The ledger charges a command before it is sent, against the desk's day
// (what the monitor booked today, and the commands still running) and the
// key's share (the day split evenly among the file's keys by default),
// refuses with the figures, and starts every key afresh the next day.
func TestLedgerChargesTheDeskAndTheKey(t *testing.T) {
	now := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC) // 10:00 Eastern
	booked := 0
	l := &serve.Ledger{Now: func() time.Time { return now },
		Desk: func(time.Time) (int, int) { return booked, 100 }}
	alice := serve.User{Name: "alice", Fingerprint: "SHA256:a", Keys: 2}
	bob := serve.User{Name: "bob", Fingerprint: "SHA256:b", Keys: 2}

	// A scan of all results (150 points) passes a 100-point day: refused.
	_, err := l.Charge(alice, 150)
	var be *serve.BudgetError
	if !errors.As(err, &be) || be.Key || be.DeskBudget != 100 {
		t.Fatalf("150 points on a 100-point day: %v", err)
	}
	// Alice's share is 50: 40, then 12 more, is past it while running.
	settle, err := l.Charge(alice, 40)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = l.Charge(alice, 12); !errors.As(err, &be) || !be.Key || be.KeySpent != 40 || be.KeyShare != 50 {
		t.Fatalf("alice past her share: %v", err)
	}
	for _, want := range []string{"12 points", "this key's share", "40 of its 50 (10 left)", "40 of its 100 points today (60 left)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	// The command spent 36, booked on the monitor, then settled.
	booked += 36
	settle(36)
	settle(99) // once only
	if s, err := l.Charge(alice, 14); err != nil {
		t.Fatalf("alice's 14 within 50 - 36: %v", err)
	} else {
		s(0)
	}
	// The desk's day: bob has his own 50, but the desk only 100 - 36 -
	// what the screens spent.
	booked += 40
	if _, err := l.Charge(bob, 30); !errors.As(err, &be) || be.Key || be.DeskSpent != 76 {
		t.Fatalf("bob past the desk's day: %v", err)
	}
	// A set share: a quarter of the day each.
	l.Share, booked = 0.25, 36
	if _, err := l.Charge(bob, 26); !errors.As(err, &be) || !be.Key || be.KeyShare != 25 {
		t.Fatalf("bob past a share of 0.25: %v", err)
	}
	// The next day the keys start afresh (the desk's day is the monitor's).
	l.Share = 0
	now, booked = now.Add(24*time.Hour), 0
	if _, err := l.Charge(alice, 50); err != nil {
		t.Fatalf("the next day: %v", err)
	}
}
