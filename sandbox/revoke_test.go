package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"chainwatch/sandbox"
)

// wantRevokeRefused checks a refused revocation: 401 invalid_client.
func (e *env) wantRevokeRefused(status int, body string) {
	e.t.Helper()
	var m struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal([]byte(body), &m)
	if status != http.StatusUnauthorized || m.Error != "invalid_client" {
		e.t.Errorf("revocation: status %d error %q, want 401 invalid_client", status, m.Error)
	}
}

func TestRevokeAccessToken(t *testing.T) {
	t.Parallel()

	t.Run("public client", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4, "offline_access")
		tok := e.login(cfg)
		e.wantLive(tok.AccessToken)
		if status, body := e.revoke(sandbox.NativeClientID, "", tok.AccessToken, "access_token"); status != http.StatusOK {
			t.Fatalf("revoke: status %d: %s", status, body)
		}
		e.wantDead(tok.AccessToken)
		if status, _ := e.userinfo(tok.AccessToken); status != http.StatusUnauthorized {
			t.Errorf("userinfo with a revoked token: status %d, want 401", status)
		}
		// Revoking again is not an error (RFC 7009 section 2.2).
		if status, _ := e.revoke(sandbox.NativeClientID, "", tok.AccessToken, ""); status != http.StatusOK {
			t.Errorf("second revocation: status %d, want 200", status)
		}
	})

	t.Run("confidential client, no hint", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cc := e.ccToken(t)
		other := e.ccToken(t)
		if status, body := e.revoke(sandbox.DemoClientID, e.s.DemoSecret, cc.AccessToken, ""); status != http.StatusOK {
			t.Fatalf("revoke: status %d: %s", status, body)
		}
		e.wantDead(cc.AccessToken)
		e.wantLive(other.AccessToken) // one token, not the client's all
	})
}

func TestRevokeRefreshToken(t *testing.T) {
	t.Parallel()
	for _, hint := range []string{"refresh_token", ""} {
		t.Run("hint "+hint, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			cfg := e.demoConfig(redirectV4, "offline_access")
			first := e.login(cfg)
			second, err := e.refresh(cfg, first.RefreshToken)
			if err != nil {
				t.Fatalf("refresh: %v", err)
			}
			e.wantLive(first.AccessToken)
			e.wantLive(second.AccessToken)
			if status, body := e.revoke(sandbox.DemoClientID, e.s.DemoSecret, second.RefreshToken, hint); status != http.StatusOK {
				t.Fatalf("revoke: status %d: %s", status, body)
			}
			// Every access token of the grant dies at once.
			e.wantDead(first.AccessToken)
			e.wantDead(second.AccessToken)
			tok, err := e.refresh(cfg, second.RefreshToken)
			if tok != nil {
				t.Fatalf("a revoked refresh token still works")
			}
			e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
		})
	}

	t.Run("public client", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4, "offline_access")
		tok := e.login(cfg)
		keep := e.login(cfg) // another login of the same user and client
		if status, body := e.revoke(sandbox.NativeClientID, "", tok.RefreshToken, "refresh_token"); status != http.StatusOK {
			t.Fatalf("revoke: status %d: %s", status, body)
		}
		e.wantDead(tok.AccessToken)
		got, err := e.refresh(cfg, tok.RefreshToken)
		if got != nil {
			t.Fatalf("a revoked refresh token still works")
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
		e.wantLive(keep.AccessToken)
		if _, err := e.refresh(cfg, keep.RefreshToken); err != nil {
			t.Errorf("the other login's refresh token: %v", err)
		}
	})
}

func TestRevokeOtherClientsToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	native := e.nativeConfig(redirectV4, "offline_access")
	user := e.login(native)
	cc := e.ccToken(t)

	// The confidential client tries the native client's tokens.
	e.wantRevokeRefused(e.revoke(sandbox.DemoClientID, e.s.DemoSecret, user.AccessToken, "access_token"))
	e.wantRevokeRefused(e.revoke(sandbox.DemoClientID, e.s.DemoSecret, user.RefreshToken, "refresh_token"))
	// The public client tries the confidential client's token.
	e.wantRevokeRefused(e.revoke(sandbox.NativeClientID, "", cc.AccessToken, ""))

	e.wantLive(user.AccessToken)
	e.wantLive(cc.AccessToken)
	if _, err := e.refresh(native, user.RefreshToken); err != nil {
		t.Errorf("refresh after a foreign revocation attempt: %v", err)
	}
}

func TestRevokeClientAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cc := e.ccToken(t)
	wrong := "wrong-" + e.s.DemoSecret
	e.secret(wrong)
	status, _ := e.revoke(sandbox.DemoClientID, wrong, cc.AccessToken, "")
	if status != http.StatusUnauthorized {
		t.Errorf("revoke with a wrong secret: status %d, want 401", status)
	}
	// A confidential client cannot pass as public by leaving out its secret.
	status, _ = e.revoke(sandbox.DemoClientID, "", cc.AccessToken, "")
	if status != http.StatusUnauthorized {
		t.Errorf("revoke by the confidential client without secret: status %d, want 401", status)
	}
	e.wantLive(cc.AccessToken)

	// An unknown token is not an error (RFC 7009 section 2.2).
	if status, body := e.revoke(sandbox.DemoClientID, e.s.DemoSecret, "not-a-token", ""); status != http.StatusOK {
		t.Errorf("revoke an unknown token: status %d: %s", status, body)
	}
}
