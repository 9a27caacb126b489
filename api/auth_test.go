package api

import (
	"context"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestAuthClientCredentials(t *testing.T) {
	f := newFakeAuth(t)
	src, err := NewClientCredentials(f.config())
	if err != nil {
		t.Fatal(err)
	}
	tok, err := src.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !tok.Valid() || tok.RefreshToken != "" || tok.Type() != "Bearer" {
		t.Fatalf("token = %+v", tok)
	}
	hdr, form := f.last()
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(testClientID+":"+url.QueryEscape(testSecret)))
	if hdr != want {
		t.Errorf("Authorization = %q, want %q", hdr, want)
	}
	if got := form.Get("scope"); got != "api.allaccess" {
		t.Errorf("scope = %q, want api.allaccess without offline_access", got)
	}
	if form.Has("client_id") {
		t.Error("confidential client sent client_id in the body")
	}
}

func TestAuthClientCredentialsWrongSecret(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	cfg.ClientSecret = "wrong-secret-value"
	src, err := NewClientCredentials(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = src.Token(context.Background())
	var ae *AuthError
	if !errors.As(err, &ae) || ae.Code != "invalid_client" || ae.Status != 401 || ae.Op != "client credentials" {
		t.Fatalf("err = %#v, want AuthError invalid_client 401", err)
	}
	if !strings.HasPrefix(err.Error(), "auth: client credentials: invalid_client (Client authentication failed") {
		t.Errorf("message = %q", err)
	}
	f.assertNoSecrets(t, err, cfg.ClientSecret)
}

func TestAuthClientCredentialsCacheAndInvalidate(t *testing.T) {
	f := newFakeAuth(t)
	src, _ := NewClientCredentials(f.config())
	ctx := context.Background()
	t1, err := src.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t2, _ := src.Token(ctx)
	if t1.AccessToken != t2.AccessToken || f.count("client_credentials") != 1 {
		t.Fatalf("second Token fetched again (%d requests)", f.count("client_credentials"))
	}
	src.Invalidate()
	t3, err := src.Token(ctx)
	if err != nil || t3.AccessToken == t1.AccessToken || f.count("client_credentials") != 2 {
		t.Fatalf("after Invalidate: %v, same token %v, %d requests", err, t3 != nil && t3.AccessToken == t1.AccessToken, f.count("client_credentials"))
	}
	// A token within the library's expiry margin counts as expired.
	f.mu.Lock()
	f.expiresIn = 1
	f.mu.Unlock()
	src.Invalidate()
	for i := range 2 {
		if _, err := src.Token(ctx); err != nil {
			t.Fatal(i, err)
		}
	}
	if got := f.count("client_credentials"); got != 4 {
		t.Errorf("expired tokens were reused: %d requests, want 4", got)
	}
}

func TestAuthClientCredentialsConcurrent(t *testing.T) {
	f := newFakeAuth(t)
	src, _ := NewClientCredentials(f.config())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := src.Token(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := f.count("client_credentials"); got != 1 {
		t.Errorf("%d token requests, want 1", got)
	}
}

func TestAuthConfigChecks(t *testing.T) {
	for _, cfg := range []AuthConfig{
		{AuthURL: "http://auth.example.com", ClientID: "x", ClientSecret: testSecret},
		{AuthURL: "https://auth.example.com", ClientSecret: testSecret},
		{AuthURL: "https://auth.example.com", ClientID: "x"}, // no secret
	} {
		if _, err := NewClientCredentials(cfg); err == nil {
			t.Errorf("NewClientCredentials(%+v) succeeded", cfg)
		} else if strings.Contains(err.Error(), testSecret) {
			t.Errorf("error leaks secret: %v", err)
		}
	}
	ep := AuthConfig{AuthURL: "https://auth.example.com/", ClientID: "x"}.Endpoint()
	if ep.TokenURL != "https://auth.example.com/connect/token" || ep.AuthURL != "https://auth.example.com/connect/authorize" {
		t.Errorf("endpoint = %+v", ep)
	}
}

func TestAuthNetworkErrorRedacted(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	f.srv.Close()
	src, _ := NewClientCredentials(cfg)
	_, err := src.Token(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "auth: client credentials: ") {
		t.Fatalf("err = %v", err)
	}
	f.assertNoSecrets(t, err)
}

func TestRedact(t *testing.T) {
	got := redact("a=s3cr+t b=s3cr%2Bt c=longs3cr+t-x d=abc", "s3cr+t", "longs3cr+t-x", "abc", "")
	want := "a=[redacted] b=[redacted] c=[redacted] d=abc"
	if got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
	if got := cleanServerText("bad\x1b[2Jthing\n" + strings.Repeat("é", 400)); strings.ContainsAny(got, "\x1b\n") || len(got) > maxServerText+len("…") {
		t.Errorf("cleanServerText = %q", got)
	}
}

func TestAuthRevoke(t *testing.T) {
	f := newFakeAuth(t)
	cfg := f.config()
	fresh, expired := loggedIn(t, f)
	if err := cfg.Revoke(context.Background(), fresh.RefreshToken, "refresh_token"); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	revoked := append([]string(nil), f.revoked...)
	f.mu.Unlock()
	if len(revoked) != 1 || revoked[0] != fresh.RefreshToken {
		t.Fatalf("revoked = %v", revoked)
	}
	if _, err := cfg.NewRefreshingSource(expired, nil).Token(context.Background()); err == nil {
		t.Error("revoked refresh token still works")
	}

	pub := cfg
	pub.ClientID, pub.ClientSecret = testPublicID, ""
	if err := pub.Revoke(context.Background(), fresh.AccessToken, "access_token"); err != nil {
		t.Errorf("public revoke: %v", err)
	}

	bad := cfg
	bad.ClientSecret = "wrong-secret-value"
	err := bad.Revoke(context.Background(), fresh.AccessToken, "")
	var ae *AuthError
	if !errors.As(err, &ae) || ae.Code != "invalid_client" || ae.Status != 401 || ae.Op != "revoke" {
		t.Fatalf("wrong secret: %v", err)
	}
	f.assertNoSecrets(t, err, bad.ClientSecret)
	if err := cfg.Revoke(context.Background(), "x-token", "id_token"); err == nil {
		t.Error("bad hint accepted")
	}
}
