package sandbox_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

func TestAuthCodeNativePKCE(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.nativeConfig(redirectV4, "openid", "profile", "api.market")
	tok := e.login(cfg)
	if tok.RefreshToken != "" {
		t.Errorf("refresh token issued without offline_access")
	}
	if got := tok.Extra("expires_in"); got != float64(3600) {
		t.Errorf("expires_in %v, want 3600", got)
	}
	if got := tok.Extra("scope"); got != "openid profile api.market" {
		t.Errorf("scope %q, want %q", got, "openid profile api.market")
	}
	idToken, _ := tok.Extra("id_token").(string)
	if idToken == "" {
		t.Fatalf("no id_token with scope openid")
	}
	if c := jwtClaims(t, idToken); c["iss"] != e.s.AuthURL || c["sub"] != sandbox.DemoUser || !slices.Equal(toStrings(c["aud"]), []string{sandbox.NativeClientID}) {
		t.Errorf("id token claims %v", c)
	}
	if c := jwtClaims(t, tok.AccessToken); c["sub"] != sandbox.DemoUser || c["client_id"] != sandbox.NativeClientID {
		t.Errorf("access token claims %v", c)
	}
	e.wantLive(tok.AccessToken)
	status, info := e.userinfo(tok.AccessToken)
	if status != http.StatusOK || info["sub"] != sandbox.DemoUser || info["preferred_username"] != sandbox.DemoUser {
		t.Errorf("userinfo: status %d %v, want 200 with sub and preferred_username %s", status, info, sandbox.DemoUser)
	}
}

// The spec's flow: client_id, redirect_uri, response_type and state only,
// then the exchange with Basic authentication.
func TestAuthCodeDemoBasic(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.demoConfig(redirectLocal)
	state := e.newState()
	u, err := url.Parse(cfg.AuthCodeURL(state))
	if err != nil {
		t.Fatal(err)
	}
	if q := u.Query(); q.Has("code_challenge") || q.Has("scope") {
		t.Fatalf("authorize URL has more than the spec's parameters: %s", u.RawQuery)
	}
	code := e.authorize(cfg, state).Query().Get("code")
	tok, err := e.exchange(cfg, code, "")
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	if tok.AccessToken == "" || tok.TokenType != "Bearer" || tok.RefreshToken != "" {
		t.Errorf("token %q type %q refresh %q", tok.AccessToken, tok.TokenType, tok.RefreshToken)
	}
	if got := tok.Extra("scope"); got != "api.allaccess" {
		t.Errorf("scope %v, want api.allaccess when none is asked for", got)
	}
	e.wantLive(tok.AccessToken)
	if status, info := e.userinfo(tok.AccessToken); status != http.StatusOK || info["sub"] != sandbox.DemoUser {
		t.Errorf("userinfo: status %d %v, want sub %s", status, info, sandbox.DemoUser)
	}

	// The confidential client's exchange needs its secret.
	code = e.authorize(cfg, e.newState()).Query().Get("code")
	bad := *cfg
	bad.ClientSecret = "wrong-" + e.s.DemoSecret
	e.secret(bad.ClientSecret)
	tok, err = e.exchange(&bad, code, "")
	if tok != nil {
		t.Fatalf("exchange with a wrong secret issued a token")
	}
	e.wantOAuthError(err, "invalid_client", http.StatusUnauthorized)
}

func TestLoginPage(t *testing.T) {
	t.Parallel()

	t.Run("deny", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV6)
		state := e.newState()
		id := e.openLogin(cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(e.newVerifier())))
		resp, body := e.submitLogin(id, "", "", "deny")
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("deny: status %d: %s", resp.StatusCode, body)
		}
		cb := location(t, resp)
		q := cb.Query()
		if cb.Scheme+"://"+cb.Host+cb.Path != redirectV6 || q.Get("error") != "access_denied" || q.Get("state") != state || q.Has("code") {
			t.Errorf("deny redirects to %s://%s%s with %v, want %s with error=access_denied and the state",
				cb.Scheme, cb.Host, cb.Path, keysOf(q), redirectV6)
		}
		// The login is over: the form cannot be used again.
		resp, _ = e.submitLogin(id, sandbox.DemoUser, sandbox.DemoPassword, "accept")
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("accept after deny: status %d, want 400", resp.StatusCode)
		}
	})

	t.Run("wrong password then success", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4)
		state, verifier := e.newState(), e.newVerifier()
		id := e.openLogin(cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)))
		resp, body := e.submitLogin(id, sandbox.DemoUser, "not-the-password", "accept")
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong password: status %d, want 401", resp.StatusCode)
		}
		if resp.Header.Get("Location") != "" {
			t.Errorf("wrong password redirects to %q", resp.Header.Get("Location"))
		}
		if !strings.Contains(body, "Wrong user name or password") || !strings.Contains(body, `name="id" value="`+id+`"`) {
			t.Errorf("wrong password page lacks the error or the form:\n%s", body)
		}
		if strings.Contains(body, "not-the-password") {
			t.Errorf("the page echoes the wrong password")
		}
		resp, body = e.submitLogin(id, sandbox.DemoUser, sandbox.DemoPassword, "accept")
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("right password: status %d: %s", resp.StatusCode, body)
		}
		cb := location(t, resp)
		if cb.Query().Get("state") != state || cb.Query().Get("code") == "" {
			t.Fatalf("callback %v, want code and state", keysOf(cb.Query()))
		}
		e.secret(cb.Query().Get("code"))
		tok, err := e.exchange(cfg, cb.Query().Get("code"), verifier)
		if err != nil {
			t.Fatalf("exchange: %v", err)
		}
		e.wantLive(tok.AccessToken)
	})

	t.Run("unknown user", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4)
		id := e.openLogin(cfg.AuthCodeURL(e.newState(), oauth2.S256ChallengeOption(e.newVerifier())))
		resp, _ := e.submitLogin(id, "mallory", sandbox.DemoPassword, "accept")
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("unknown user: status %d, want 401", resp.StatusCode)
		}
	})

	t.Run("login expired", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4)
		id := e.openLogin(cfg.AuthCodeURL(e.newState(), oauth2.S256ChallengeOption(e.newVerifier())))
		e.clock.Advance(sandbox.LoginTTL + time.Second)
		resp, _ := e.submitLogin(id, sandbox.DemoUser, sandbox.DemoPassword, "accept")
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("login after LoginTTL: status %d, Location %q; want 400 and no redirect", resp.StatusCode, resp.Header.Get("Location"))
		}
	})

	t.Run("forged id", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		resp, _ := e.submitLogin("NOSUCHLOGINREQUEST", sandbox.DemoUser, sandbox.DemoPassword, "accept")
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("unknown id: status %d, Location %q; want 400 and no redirect", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

func keysOf(q url.Values) []string {
	out := make([]string, 0, len(q))
	for k := range q {
		out = append(out, k)
	}
	return out
}

// toStrings reads a JSON string or array of strings.
func toStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, s := range v {
			str, _ := s.(string)
			out = append(out, str)
		}
		return out
	}
	return nil
}
