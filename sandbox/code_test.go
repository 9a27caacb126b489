package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

func TestCodeReuse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.nativeConfig(redirectV4, "offline_access")
	code, verifier := e.code(cfg)
	first, err := e.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatalf("first exchange: %v", err)
	}
	if first.RefreshToken == "" {
		t.Fatalf("no refresh token with offline_access")
	}
	e.wantLive(first.AccessToken)

	second, err := e.exchange(cfg, code, verifier)
	if second != nil {
		t.Fatalf("second exchange of one code issued a token")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)

	// RFC 6749 section 4.1.2: the tokens issued with the code are revoked.
	e.wantDead(first.AccessToken)
	if status, _ := e.userinfo(first.AccessToken); status != http.StatusUnauthorized {
		t.Errorf("userinfo with the revoked token: status %d, want 401", status)
	}
	tok, err := e.refresh(cfg, first.RefreshToken)
	if tok != nil {
		t.Fatalf("refresh token of a reused code still works")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)

	// Other logins are not affected.
	other := e.login(cfg)
	e.wantLive(other.AccessToken)
}

func TestCodeReuseByOtherClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	native := e.nativeConfig(redirectV4)
	code, verifier := e.code(native)
	// The demo client presents the native client's code: refused.
	tok, err := e.exchange(e.demoConfig(redirectV4), code, verifier)
	if tok != nil {
		t.Fatalf("the demo client redeemed the native client's code")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
}

// The confidential client cannot pass as public at the exchange.
func TestCodeConfidentialWithoutSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.demoConfig(redirectV4)
	code, verifier := e.code(cfg)
	public := *cfg
	public.ClientSecret = ""
	public.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	tok, err := e.exchange(&public, code, verifier)
	if tok != nil {
		t.Fatalf("the confidential client exchanged a code without its secret")
	}
	e.wantOAuthError(err, "invalid_client", http.StatusUnauthorized)
}

func TestCodeExpired(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.nativeConfig(redirectV4)
	code, verifier := e.code(cfg)
	e.clock.Advance(sandbox.CodeTTL + time.Second)
	tok, err := e.exchange(cfg, code, verifier)
	if tok != nil {
		t.Fatalf("an expired code was exchanged")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
}

func TestCodeJustInTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.nativeConfig(redirectV4)
	code, verifier := e.code(cfg)
	e.clock.Advance(sandbox.CodeTTL - time.Second)
	tok, err := e.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatalf("exchange within CodeTTL: %v", err)
	}
	e.wantLive(tok.AccessToken)
}

func TestPKCEVerifier(t *testing.T) {
	t.Parallel()

	t.Run("wrong verifier", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4)
		code, verifier := e.code(cfg)
		tok, err := e.exchange(cfg, code, e.newVerifier())
		if tok != nil {
			t.Fatalf("a wrong code_verifier was accepted")
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
		// The code is spent by the failed attempt: the right verifier no
		// longer helps.
		tok, err = e.exchange(cfg, code, verifier)
		if tok != nil {
			t.Fatalf("the code was exchanged after a failed attempt")
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	})

	t.Run("missing verifier", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4)
		code, _ := e.code(cfg)
		tok, err := e.exchange(cfg, code, "")
		if tok != nil {
			t.Fatalf("an exchange without code_verifier was accepted")
		}
		e.wantOAuthError(err, "invalid_request", http.StatusBadRequest)
	})

	t.Run("confidential client, wrong verifier", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.demoConfig(redirectV4)
		code, _ := e.code(cfg)
		tok, err := e.exchange(cfg, code, e.newVerifier())
		if tok != nil {
			t.Fatalf("a wrong code_verifier was accepted from the confidential client")
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	})
}
