package sandbox_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"chainwatch/sandbox"
)

// jwks fetches the sandbox's key set from the address discovery gives.
func (e *env) jwks() jose.JSONWebKeySet {
	e.t.Helper()
	_, body := e.get(e.s.AuthURL+"/.well-known/openid-configuration", nil)
	var d struct {
		JWKSURI string `json:"jwks_uri"`
	}
	if err := json.Unmarshal([]byte(body), &d); err != nil || d.JWKSURI == "" {
		e.t.Fatalf("discovery: %v %q", err, body)
	}
	_, body = e.get(d.JWKSURI, nil)
	var set jose.JSONWebKeySet
	if err := json.Unmarshal([]byte(body), &set); err != nil {
		e.t.Fatalf("JWKS: %v", err)
	}
	return set
}

// validateJWT checks a token as a stock JWT library does (go-jose's jwt):
// signature by the JWKS key its kid names, issuer, audience, and exp, nbf
// and iat at the instant now.
func validateJWT(set jose.JSONWebKeySet, token, issuer, audience string, now time.Time) error {
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return err
	}
	keys := set.Key(tok.Headers[0].KeyID)
	if len(keys) != 1 {
		return errors.New("no key for the token's kid")
	}
	var c jwt.Claims
	if err := tok.Claims(keys[0].Key, &c); err != nil {
		return err
	}
	return c.ValidateWithLeeway(jwt.Expected{Issuer: issuer, AnyAudience: jwt.Audience{audience}, Time: now}, 0)
}

// TestAccessTokenAudience: the access tokens of every grant name the data
// service, {base_url}, as their audience (RFC 9068 section 3), and a stock
// JWT library validates them for that audience (on the sandbox clock) and
// refuses them for another; the ID token's audience stays the client
// (OpenID Connect Core 2), and the data endpoints refuse it. Introspection
// says the same audience.
func TestAccessTokenAudience(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	set := e.jwks()
	cfg := e.demoConfig(redirectV4, "openid", "offline_access")
	code := e.login(cfg)
	refreshed, err := e.refresh(cfg, code.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	for what, tok := range map[string]string{
		"client credentials": e.ccToken(t).AccessToken,
		"authorization code": code.AccessToken,
		"refresh":            refreshed.AccessToken,
	} {
		if aud := jwtClaims(t, tok)["aud"]; aud != e.s.BaseURL {
			t.Errorf("%s: aud %v, want %q", what, aud, e.s.BaseURL)
		}
		if err := validateJWT(set, tok, e.s.AuthURL, e.s.BaseURL, e.clock.Now()); err != nil {
			t.Errorf("%s: a JWT library refuses it for the data service: %v", what, err)
		}
		if err := validateJWT(set, tok, e.s.AuthURL, "https://other.example", e.clock.Now()); !errors.Is(err, jwt.ErrInvalidAudience) {
			t.Errorf("%s: for another audience: %v, want %v", what, err, jwt.ErrInvalidAudience)
		}
		if got := e.introspect(tok); !got.Active || !slices.Equal([]string(got.Audience), []string{e.s.BaseURL}) {
			t.Errorf("%s: introspection active %v aud %v", what, got.Active, got.Audience)
		}
		e.wantLive(tok)
	}
	idt, _ := refreshed.Extra("id_token").(string)
	if aud := toStrings(jwtClaims(t, idt)["aud"]); !slices.Equal(aud, []string{sandbox.DemoClientID}) {
		t.Errorf("ID token aud %v, want the client", aud)
	}
	if hdr := jwtHeader(t, idt); hdr["typ"] == "at+jwt" {
		t.Errorf("ID token typ %v", hdr["typ"])
	}
	e.wantDead(idt)
	if resp, _ := e.get(e.s.BaseURL+"/v1/live/reference/exchanges", bearerHeader(idt)); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("an ID token at a data endpoint: %d", resp.StatusCode)
	}
}
