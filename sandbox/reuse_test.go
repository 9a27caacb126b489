package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client/rp"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

// TestRefreshReuseRevokesGrant: a refresh token used a second time, after
// it was rotated, ends its whole grant (RFC 9700 section 4.14.2): every
// access token the grant issued and its current refresh token stop
// working at once, at the data endpoints, at userinfo and at the token
// endpoint, and introspection says inactive. Another login of the same
// user and client goes on. For the public and the confidential client,
// with the oldest rotated token and with the one rotated last (a client
// that lost the answer to its refresh and tries again).
func TestRefreshReuseRevokesGrant(t *testing.T) {
	t.Parallel()
	for _, reuse := range []string{"oldest", "last rotated"} {
		t.Run(reuse, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			for _, cfg := range []*oauth2.Config{
				e.nativeConfig(redirectV4, "offline_access"),
				e.demoConfig(redirectV4, "openid", "offline_access"),
			} {
				first := e.login(cfg)
				keep := e.login(cfg)
				second, err := e.refresh(cfg, first.RefreshToken)
				if err != nil {
					t.Fatal(err)
				}
				third, err := e.refresh(cfg, second.RefreshToken)
				if err != nil {
					t.Fatal(err)
				}
				confidential := cfg.ClientSecret != ""
				if confidential && !e.introspect(third.RefreshToken).Active {
					t.Fatalf("%s: the current refresh token is inactive before any reuse", cfg.ClientID)
				}
				reused := map[string]string{"oldest": first.RefreshToken, "last rotated": second.RefreshToken}[reuse]
				got, err := e.refresh(cfg, reused)
				if got != nil {
					t.Fatalf("%s: a rotated refresh token worked", cfg.ClientID)
				}
				e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)

				for _, tok := range []*oauth2.Token{first, second, third} {
					e.wantDead(tok.AccessToken)
					if e.introspect(tok.AccessToken).Active {
						t.Errorf("%s: introspection says an access token of the revoked grant is active", cfg.ClientID)
					}
					if status, _ := e.userinfo(tok.AccessToken); status != http.StatusUnauthorized {
						t.Errorf("%s: userinfo with a revoked grant's token: %d", cfg.ClientID, status)
					}
				}
				if e.introspect(third.RefreshToken).Active {
					t.Errorf("%s: introspection says the revoked grant's refresh token is active", cfg.ClientID)
				}
				got, err = e.refresh(cfg, third.RefreshToken)
				if got != nil {
					t.Fatalf("%s: the current refresh token still works after a reuse", cfg.ClientID)
				}
				e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)

				e.wantLive(keep.AccessToken)
				if _, err := e.refresh(cfg, keep.RefreshToken); err != nil {
					t.Errorf("%s: another login of the same user: %v", cfg.ClientID, err)
				}
			}
		})
	}
}

// TestRefreshReuseWithRelyingParty: zitadel's relying party refreshes,
// then refreshes again with the token it has just replaced; the second
// is refused and the tokens of the first are dead.
func TestRefreshReuseWithRelyingParty(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.demoConfig(redirectV4, "openid", "offline_access")
	tok := e.login(cfg)
	party, err := rp.NewRelyingPartyOIDC(t.Context(), e.s.AuthURL, sandbox.DemoClientID, e.s.DemoSecret, redirectV4, cfg.Scopes,
		rp.WithHTTPClient(&http.Client{Transport: e.tr, Timeout: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	renewed, err := rp.RefreshTokens[*oidc.IDTokenClaims](t.Context(), party, tok.RefreshToken, "", "")
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	e.secretToken(renewed.Token)
	e.wantLive(renewed.AccessToken)
	again, err := rp.RefreshTokens[*oidc.IDTokenClaims](t.Context(), party, tok.RefreshToken, "", "")
	if again != nil {
		e.secretToken(again.Token)
		t.Fatal("a rotated refresh token worked")
	}
	if err == nil {
		t.Fatal("no error for a rotated refresh token")
	}
	e.noSecrets("relying party error", err.Error())
	e.wantDead(renewed.AccessToken)
	if e.introspect(renewed.RefreshToken).Active {
		t.Error("the renewed refresh token is active after the reuse")
	}
}

// TestRevokeRotatedRefreshToken: revoking a refresh token that has been
// rotated (a token file left behind by a copy) ends its grant as well.
func TestRevokeRotatedRefreshToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.nativeConfig(redirectV4, "offline_access")
	first := e.login(cfg)
	second, err := e.refresh(cfg, first.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if status, body := e.revoke(sandbox.NativeClientID, "", first.RefreshToken, "refresh_token"); status != http.StatusOK {
		t.Fatalf("revoke: %d %s", status, body)
	}
	e.wantDead(second.AccessToken)
	got, err := e.refresh(cfg, second.RefreshToken)
	if got != nil {
		t.Fatal("the current refresh token works after its rotated one was revoked")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
}

// TestIntrospectRefreshToken: a current refresh token is active to the
// client it was issued to and inactive to any other, and after its
// rotation; introspecting a rotated one is no use of it and ends nothing.
func TestIntrospectRefreshToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.demoConfig(redirectV4, "offline_access", "api.market")
	first := e.login(cfg)
	got := e.introspect(first.RefreshToken)
	if !got.Active || got.ClientID != sandbox.DemoClientID || got.Subject != sandbox.DemoUser || got.Issuer != e.s.AuthURL ||
		got.Expiration.AsTime().Before(e.clock.Now().Add(sandbox.DefaultRefreshTokenTTL-time.Minute)) {
		t.Errorf("a current refresh token: %+v", got)
	}
	native := e.login(e.nativeConfig(redirectV4, "offline_access"))
	if e.introspect(native.RefreshToken).Active {
		t.Error("the demo client learns that the native client's refresh token is active")
	}
	second, err := e.refresh(cfg, first.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if e.introspect(first.RefreshToken).Active {
		t.Error("a rotated refresh token is active")
	}
	e.wantLive(second.AccessToken)
	if !e.introspect(second.RefreshToken).Active {
		t.Error("introspecting the rotated token ended the grant")
	}
}
