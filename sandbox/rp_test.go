package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client/rp"
	"github.com/zitadel/oidc/v3/pkg/oidc"

	"chainwatch/sandbox"
)

// TestRelyingPartyValidatesIDTokenFromDiscovery: zitadel/oidc's relying
// party, built from the discovery document alone and with its default
// settings (RS256 only), exchanges a code and validates the ID token:
// signature through the JWKS, issuer, audience, expiry, nonce-free flow.
func TestRelyingPartyValidatesIDTokenFromDiscovery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.demoConfig(redirectV4, "openid", "profile")
	httpClient := &http.Client{Transport: e.tr, Timeout: 10 * time.Second}
	party, err := rp.NewRelyingPartyOIDC(t.Context(), e.s.AuthURL, sandbox.DemoClientID, e.s.DemoSecret, redirectV4, cfg.Scopes,
		rp.WithHTTPClient(httpClient))
	if err != nil {
		t.Fatalf("relying party from discovery: %v", err)
	}
	code, verifier := e.code(cfg)
	tokens, err := rp.CodeExchange[*oidc.IDTokenClaims](t.Context(), code, party, rp.WithCodeVerifier(verifier))
	if err != nil {
		t.Fatalf("code exchange with ID token validation: %v", err)
	}
	e.secretToken(tokens.Token)
	e.secret(tokens.IDToken)
	if tokens.IDTokenClaims == nil || tokens.IDTokenClaims.Subject != sandbox.DemoUser || tokens.IDTokenClaims.SignatureAlg != "RS256" {
		t.Fatalf("ID token claims %+v, want the demo user signed RS256", tokens.IDTokenClaims)
	}
}
