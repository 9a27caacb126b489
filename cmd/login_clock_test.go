package cmd

import (
	"strings"
	"testing"
	"time"

	"chainwatch/api"
)

// TestLoginThenStatusOnSandboxClock: on a standalone `chainwatch sandbox
// --clock` a day in the past, `status` right after `login` said "the
// server no longer accepts this login": the token's exp was on the
// sandbox clock and the token service checked it against the real one.
// Every time in a token is now on the sandbox clock and checked on it, in
// the past and in the future: status signs in, a command gets data, and
// a login whose access token has expired is renewed and signs in again.
func TestLoginThenStatusOnSandboxClock(t *testing.T) {
	for name, clock := range map[string]string{
		"past":   "2026-11-24T11:30:00-05:00",
		"future": time.Now().AddDate(1, 0, 0).Format(time.RFC3339),
	} {
		t.Run(name, func(t *testing.T) {
			kv := runSandboxCmd(t, "--clock", clock)
			env := loginAt(t, kv["auth_url"], kv["base_url"])
			status, errOut, err := (cli{env: env}).run(t, "status")
			if err != nil || !strings.Contains(status, "signed in as: demo") {
				t.Fatalf("status after login: %v\n%s%s", err, status, errOut)
			}
			if out, errOut, err := (cli{env: env}).run(t, "quotes", "SPY", "--json=symbol"); err != nil || !strings.Contains(out, `"SPY"`) {
				t.Fatalf("quotes after login: %v\n%s%s", err, out, errOut)
			}
			store := api.FileTokenStore{Path: env[envTokenFile]}
			tok, svc, err := store.LoadLogin()
			if err != nil {
				t.Fatal(err)
			}
			tok.Expiry = time.Now().Add(-time.Minute) // renewed before status asks
			if err := store.SaveLogin(tok, svc); err != nil {
				t.Fatal(err)
			}
			if status, errOut, err := (cli{env: env}).run(t, "status"); err != nil || !strings.Contains(status, "signed in as: demo") {
				t.Fatalf("status after a refresh: %v\n%s%s", err, status, errOut)
			}
			if again, _, _ := store.LoadLogin(); again.RefreshToken == tok.RefreshToken {
				t.Fatal("status did not renew the expired login")
			}
		})
	}
}
