package sandbox_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"chainwatch/sandbox"
)

// ccConfig is a client-credentials client with Basic authentication.
func (e *env) ccConfig(id, secret string, scopes ...string) *clientcredentials.Config {
	return &clientcredentials.Config{
		ClientID: id, ClientSecret: secret, Scopes: scopes,
		TokenURL: e.s.AuthURL + "/connect/token", AuthStyle: oauth2.AuthStyleInHeader,
	}
}

// ccToken gets a demo client-credentials token with the oauth2 library.
func (e *env) ccToken(t *testing.T, scopes ...string) *oauth2.Token {
	t.Helper()
	tok, err := e.ccConfig(sandbox.DemoClientID, e.s.DemoSecret, scopes...).Token(e.ctx())
	e.secretToken(tok)
	if err != nil {
		t.Fatalf("client credentials: %v", err)
	}
	return tok
}

func TestClientCredentials(t *testing.T) {
	t.Parallel()

	t.Run("oauth2 library", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		tok := e.ccToken(t)
		if tok.AccessToken == "" || tok.TokenType != "Bearer" {
			t.Fatalf("token %q of type %q", tok.AccessToken, tok.TokenType)
		}
		if tok.RefreshToken != "" {
			t.Errorf("client credentials issued a refresh token")
		}
		if got := tok.Extra("expires_in"); got != float64(3600) {
			t.Errorf("expires_in %v, want 3600", got)
		}
		if got := tok.Extra("scope"); got != "api.allaccess" {
			t.Errorf("scope %v, want api.allaccess when none is asked for", got)
		}
		e.wantLive(tok.AccessToken)
		// userinfo describes a user; a client's own token has none.
		if status, info := e.userinfo(tok.AccessToken); status != http.StatusUnauthorized {
			t.Errorf("userinfo with a client-credentials token: status %d, %v; want 401", status, info)
		}
		claims := jwtClaims(t, tok.AccessToken)
		if claims["iss"] != e.s.AuthURL || claims["sub"] != sandbox.DemoClientID || claims["client_id"] != sandbox.DemoClientID {
			t.Errorf("access token claims %v", claims)
		}
	})

	t.Run("requested scopes", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		tok := e.ccToken(t, "api.market", "api.taq", "offline_access")
		if got := tok.Extra("scope"); got != "api.market api.taq" {
			t.Errorf("scope %q, want %q (offline_access dropped)", got, "api.market api.taq")
		}
		if tok.RefreshToken != "" {
			t.Errorf("offline_access got a refresh token from client credentials")
		}
	})

	t.Run("raw Basic request", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		basic := base64.StdEncoding.EncodeToString([]byte(sandbox.DemoClientID + ":" + e.s.DemoSecret))
		resp, body := e.postForm(e.s.AuthURL+"/connect/token",
			url.Values{"grant_type": {"client_credentials"}},
			http.Header{"Authorization": {"Basic " + basic}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, want 200: %s", resp.StatusCode, body)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type %q, want application/json", ct)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("body %q: %v", body, err)
		}
		at, _ := m["access_token"].(string)
		e.secret(at)
		if at == "" {
			t.Fatalf("no access_token in %v", keys(m))
		}
		if m["token_type"] != "Bearer" {
			t.Errorf("token_type %v, want Bearer", m["token_type"])
		}
		if m["expires_in"] != float64(3600) {
			t.Errorf("expires_in %v, want 3600", m["expires_in"])
		}
		if _, ok := m["refresh_token"]; ok {
			t.Errorf("client credentials response has a refresh_token")
		}
		e.wantLive(at)
	})

	failures := []struct {
		name         string
		id, secret   func(e *env) string
		scopes       []string
		code         string
		status       int
		recordSecret bool
	}{
		{
			name:   "wrong secret",
			id:     func(*env) string { return sandbox.DemoClientID },
			secret: func(e *env) string { return "x" + e.s.DemoSecret[1:] },
			code:   "invalid_client", status: http.StatusUnauthorized, recordSecret: true,
		},
		{
			name:   "unknown client",
			id:     func(*env) string { return "no-such-client" },
			secret: func(e *env) string { return e.s.DemoSecret },
			code:   "invalid_client", status: http.StatusUnauthorized,
		},
		{
			name:   "unknown scope",
			id:     func(*env) string { return sandbox.DemoClientID },
			secret: func(e *env) string { return e.s.DemoSecret },
			scopes: []string{"api.market", "api.everything"},
			code:   "invalid_scope", status: http.StatusBadRequest,
		},
		{
			name:   "public client without secret",
			id:     func(*env) string { return sandbox.NativeClientID },
			secret: func(*env) string { return "" },
			code:   "invalid_client", status: http.StatusUnauthorized,
		},
		{
			name:   "public client with the demo secret",
			id:     func(*env) string { return sandbox.NativeClientID },
			secret: func(e *env) string { return e.s.DemoSecret },
			code:   "invalid_client", status: http.StatusUnauthorized,
		},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			secret := tc.secret(e)
			if tc.recordSecret {
				e.secret(secret)
			}
			cfg := e.ccConfig(tc.id(e), secret, tc.scopes...)
			if secret == "" {
				cfg.AuthStyle = oauth2.AuthStyleInParams
			}
			tok, err := cfg.Token(e.ctx())
			e.secretToken(tok)
			if tok != nil {
				t.Fatalf("got a token, want %s", tc.code)
			}
			e.wantOAuthError(err, tc.code, tc.status)
		})
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
