package sandbox_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client/rp"
	"github.com/zitadel/oidc/v3/pkg/oidc"

	"chainwatch/sandbox"
)

// numClaim reads a NumericDate claim as whole seconds.
func numClaim(t *testing.T, claims map[string]any, name string) int64 {
	t.Helper()
	v, ok := claims[name].(float64)
	if !ok {
		t.Fatalf("claim %s is %v (%T), want a NumericDate", name, claims[name], claims[name])
	}
	return int64(v)
}

// dateSkew is how far the sandbox clock is from this machine's, read as a
// client reads it: from an answer's Date header.
func (e *env) dateSkew() time.Duration {
	e.t.Helper()
	resp, _ := e.get(e.s.AuthURL+"/.well-known/openid-configuration", nil)
	d, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		e.t.Fatalf("discovery's Date %q: %v", resp.Header.Get("Date"), err)
	}
	return d.Sub(time.Now())
}

// TestTokenTimesOnSandboxClock: on a sandbox clock a year and a half
// behind and a year ahead of the real one (`sandbox --clock`), every time
// in a token is on the sandbox clock, the one its Date header tells: iat
// and nbf at the issue, exp AccessTokenTTL later, for the access token and
// the ID token alike (iat had been the real clock's, so a token replaying
// a past day expired before it was issued). The tokens work everywhere the
// sandbox checks them (data, userinfo, introspection), and zitadel's
// relying party validates the ID token once it is told the clock's offset
// from the Date header; without it, it refuses the token.
func TestTokenTimesOnSandboxClock(t *testing.T) {
	t.Parallel()
	for name, shift := range map[string]time.Duration{"past": -550 * 24 * time.Hour, "future": 400 * 24 * time.Hour} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.clock.Advance(shift)
			issued := e.clock.Now().Unix()
			ttl := int64(sandbox.DefaultAccessTokenTTL / time.Second)

			cc := e.ccToken(t)
			code := e.login(e.demoConfig(redirectV4, "openid", "offline_access"))
			for what, tok := range map[string]string{"client credentials": cc.AccessToken, "code": code.AccessToken} {
				c := jwtClaims(t, tok)
				if iat, nbf, exp := numClaim(t, c, "iat"), numClaim(t, c, "nbf"), numClaim(t, c, "exp"); iat != issued || nbf != issued || exp != issued+ttl {
					t.Errorf("%s access token: iat %d nbf %d exp %d, want %d, %d and %d (the sandbox clock)", what, iat, nbf, exp, issued, issued, issued+ttl)
				}
				e.wantLive(tok)
				if !e.introspect(tok).Active {
					t.Errorf("%s access token: introspection says inactive", what)
				}
			}
			idt, _ := code.Extra("id_token").(string)
			c := jwtClaims(t, idt)
			if iat, exp, auth := numClaim(t, c, "iat"), numClaim(t, c, "exp"), numClaim(t, c, "auth_time"); iat != issued || exp != issued+ttl || auth != issued {
				t.Errorf("ID token: iat %d exp %d auth_time %d, want %d, %d and %d", iat, exp, auth, issued, issued+ttl, issued)
			}
			if status, info := e.userinfo(code.AccessToken); status != http.StatusOK || info["sub"] != sandbox.DemoUser {
				t.Errorf("userinfo: %d %v", status, info)
			}

			// A standard relying party, told the offset by the Date header
			// (with a second for the header's whole seconds), and without.
			skew := e.dateSkew()
			if d := skew - shift; d < -5*time.Second || d > 5*time.Second {
				t.Fatalf("the Date header is %v off this machine's clock, want about %v", skew, shift)
			}
			httpClient := &http.Client{Transport: e.tr, Timeout: 10 * time.Second}
			newParty := func(opts ...rp.VerifierOption) rp.RelyingParty {
				party, err := rp.NewRelyingPartyOIDC(t.Context(), e.s.AuthURL, sandbox.DemoClientID, e.s.DemoSecret, redirectV4,
					[]string{"openid"}, rp.WithHTTPClient(httpClient), rp.WithVerifierOpts(opts...))
				if err != nil {
					t.Fatal(err)
				}
				return party
			}
			cfg := e.demoConfig(redirectV4, "openid")
			code1, verifier := e.code(cfg)
			tokens, err := rp.CodeExchange[*oidc.IDTokenClaims](t.Context(), code1, newParty(rp.WithIssuedAtOffset(skew+time.Second)), rp.WithCodeVerifier(verifier))
			if err != nil {
				t.Fatalf("relying party with the Date header's offset: %v", err)
			}
			e.secretToken(tokens.Token)
			if tokens.IDTokenClaims.IssuedAt.AsTime().Unix() != issued {
				t.Errorf("ID token iat %v, want the sandbox clock's %v", tokens.IDTokenClaims.IssuedAt.AsTime(), time.Unix(issued, 0))
			}
			code2, verifier := e.code(cfg)
			tokens, err = rp.CodeExchange[*oidc.IDTokenClaims](t.Context(), code2, newParty(), rp.WithCodeVerifier(verifier))
			if tokens != nil {
				e.secretToken(tokens.Token)
			}
			if want := map[string]error{"past": oidc.ErrExpired, "future": oidc.ErrIatInFuture}[name]; !errors.Is(err, want) {
				t.Errorf("relying party on this machine's clock: %v, want %v", err, want)
			}
		})
	}
}
