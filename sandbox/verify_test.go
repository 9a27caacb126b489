package sandbox_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"chainwatch/sandbox"
)

func TestRequireTokenRejects(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := newEnv(t) // a second sandbox: its own issuer and key
	tok := e.ccToken(t)
	foreign := other.ccToken(t)
	e.secret(foreign.AccessToken)
	other.wantLive(foreign.AccessToken)

	// A token whose signature no longer matches its claims.
	parts := strings.Split(tok.AccessToken, ".")
	sig := []byte(parts[2])
	sig[len(sig)/2] ^= 1
	tampered := parts[0] + "." + parts[1] + "." + string(sig)
	// Same claims, other instance's signature.
	fp := strings.Split(foreign.AccessToken, ".")
	spliced := parts[0] + "." + parts[1] + "." + fp[2]
	e.secret(tampered, spliced)

	basic := base64.StdEncoding.EncodeToString([]byte(sandbox.DemoClientID + ":" + e.s.DemoSecret))
	for _, tc := range []struct {
		name   string
		header http.Header
		query  string
	}{
		{"no header", nil, ""},
		{"empty header", http.Header{"Authorization": {""}}, ""},
		{"Basic credentials", http.Header{"Authorization": {"Basic " + basic}}, ""},
		{"Bearer without token", http.Header{"Authorization": {"Bearer"}}, ""},
		{"Bearer and space", http.Header{"Authorization": {"Bearer "}}, ""},
		{"Bearer garbage", bearerHeader("garbage"), ""},
		{"Bearer three garbage parts", bearerHeader("eyJhbGciOiJFUzI1NiJ9.e30.AAAA"), ""},
		{"token as scheme", http.Header{"Authorization": {tok.AccessToken}}, ""},
		{"token after Basic", http.Header{"Authorization": {"Basic " + tok.AccessToken}}, ""},
		{"tampered signature", bearerHeader(tampered), ""},
		{"spliced signature", bearerHeader(spliced), ""},
		{"other sandbox's token", bearerHeader(foreign.AccessToken), ""},
		{"token in the query only", nil, "?access_token=" + tok.AccessToken},
	} {
		resp, body := e.get(e.s.BaseURL+"/v1/market/quotes"+tc.query, tc.header)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", tc.name, resp.StatusCode)
			continue
		}
		// RFC 6750 section 3.1: no error code when no credentials came.
		want := `Bearer error="invalid_token"`
		if tc.header == nil {
			want = "Bearer"
		}
		if got := resp.Header.Get("WWW-Authenticate"); got != want {
			t.Errorf("%s: WWW-Authenticate %q, want %q", tc.name, got, want)
		}
		if body != "" {
			t.Errorf("%s: body %q, want empty", tc.name, body)
		}
	}
	// The real token, for contrast, and with the scheme in lower case
	// (RFC 7235: the scheme is case-insensitive).
	e.wantLive(tok.AccessToken)
	if got := e.dataStatus(http.Header{"Authorization": {"bearer " + tok.AccessToken}}); got != http.StatusNotFound {
		t.Errorf("lower-case bearer: status %d, want 404", got)
	}
	// Outside /v1/ nothing is authenticated: an unknown path is 404 text.
	if resp, body := e.get(e.s.BaseURL+"/nope", nil); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "unknown path") {
		t.Errorf("/nope: status %d body %q", resp.StatusCode, body)
	}
}

func TestAccessTokenExpiry(t *testing.T) {
	t.Parallel()

	t.Run("default lifetime", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		user := e.login(e.nativeConfig(redirectV4))
		cc := e.ccToken(t)
		e.clock.Advance(sandbox.DefaultAccessTokenTTL - time.Second)
		e.wantLive(user.AccessToken)
		e.wantLive(cc.AccessToken)
		if status, _ := e.userinfo(user.AccessToken); status != http.StatusOK {
			t.Errorf("userinfo 1 s before expiry: status %d", status)
		}
		e.clock.Advance(2 * time.Second)
		for _, tok := range []string{user.AccessToken, cc.AccessToken} {
			e.wantDead(tok)
			resp, body := e.get(e.s.AuthURL+"/connect/userinfo", bearerHeader(tok))
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("userinfo with an expired token: status %d, want 401: %s", resp.StatusCode, body)
			}
			e.noSecrets("userinfo error body", body)
		}
	})

	t.Run("configured lifetime", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, func(c *sandbox.Config) { c.AccessTokenTTL = 5 * time.Minute })
		tok := e.ccToken(t)
		if got := tok.Extra("expires_in"); got != float64(300) {
			t.Errorf("expires_in %v, want 300", got)
		}
		e.clock.Advance(5*time.Minute - time.Second)
		e.wantLive(tok.AccessToken)
		e.clock.Advance(time.Second)
		e.wantDead(tok.AccessToken) // expired at exactly its expiry
	})
}

func TestUserinfo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	user := e.login(e.nativeConfig(redirectV4, "openid"))
	cc := e.ccToken(t)
	if status, info := e.userinfo(user.AccessToken); status != http.StatusOK || info["sub"] != sandbox.DemoUser {
		t.Errorf("user login: status %d %v, want sub %q", status, info, sandbox.DemoUser)
	}
	// A client's own token stands for no user: 401 with the reason.
	req, _ := http.NewRequest(http.MethodGet, e.s.AuthURL+"/connect/userinfo", nil)
	req.Header.Set("Authorization", "Bearer "+cc.AccessToken)
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != `Bearer error="invalid_token", error_description="the token stands for a client, not a user"` {
		t.Errorf("client credentials: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// No token at all: a bare challenge (RFC 6750 section 3.1).
	resp, err = e.client.Get(e.s.AuthURL + "/connect/userinfo")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != "Bearer" {
		t.Errorf("no token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	for name, h := range map[string]http.Header{
		"no token":      nil,
		"garbage token": bearerHeader("garbage"),
	} {
		resp, _ := e.get(e.s.AuthURL+"/connect/userinfo", h)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("userinfo with %s: status %d, want 401", name, resp.StatusCode)
		}
	}
}

// Authenticate and RequireToken hand the token's facts to the handler.
func TestAuthenticateInfo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cc := e.ccToken(t, "api.market", "api.events")
	user := e.login(e.nativeConfig(redirectV4, "openid", "api.taq"))

	r := httptest.NewRequest(http.MethodGet, "/v1/x", nil)
	r.Header.Set("Authorization", "Bearer "+cc.AccessToken)
	info, err := e.s.Authenticate(r)
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if info.ClientID != sandbox.DemoClientID || info.Subject != sandbox.DemoClientID ||
		!slices.Equal(info.Scopes, []string{"api.market", "api.events"}) {
		t.Errorf("client-credentials info %+v", info)
	}
	if !info.HasScope("api.market") || info.HasScope("api.taq") {
		t.Errorf("HasScope: market %v taq %v, want true false", info.HasScope("api.market"), info.HasScope("api.taq"))
	}
	if want := e.clock.Now().Add(sandbox.DefaultAccessTokenTTL); !info.Expiry.Equal(want) {
		t.Errorf("expiry %v, want %v (sandbox clock + TTL)", info.Expiry, want)
	}

	var seen sandbox.TokenInfo
	h := e.s.RequireToken(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = sandbox.TokenFrom(r.Context())
		w.WriteHeader(http.StatusNoContent)
	}))
	r = httptest.NewRequest(http.MethodGet, "/v1/x", nil)
	r.Header.Set("Authorization", "Bearer "+user.AccessToken)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNoContent || seen.ClientID != sandbox.NativeClientID || seen.Subject != sandbox.DemoUser ||
		!slices.Contains(seen.Scopes, "api.taq") {
		t.Errorf("RequireToken: status %d, info %+v", w.Code, seen)
	}
	if _, ok := sandbox.TokenFrom(r.Context()); ok {
		t.Errorf("TokenFrom found a token in a context RequireToken never saw")
	}
}
