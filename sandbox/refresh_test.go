package sandbox_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"chainwatch/sandbox"
)

func TestRefreshTokenOnlyWithOfflineAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, cfg := range []*oauth2.Config{
		e.nativeConfig(redirectV4, "openid", "api.market"),
		e.demoConfig(redirectV4),
	} {
		tok := e.login(cfg)
		if tok.RefreshToken != "" || tok.Extra("refresh_token") != nil {
			t.Errorf("%s: refresh token issued without offline_access", cfg.ClientID)
		}
	}
	for _, cfg := range []*oauth2.Config{
		e.nativeConfig(redirectV4, "offline_access"),
		e.demoConfig(redirectV4, "api.taq", "offline_access"),
	} {
		tok := e.login(cfg)
		if tok.RefreshToken == "" {
			t.Errorf("%s: no refresh token with offline_access", cfg.ClientID)
		}
		if tok.RefreshToken == tok.AccessToken {
			t.Errorf("%s: refresh token equals the access token", cfg.ClientID)
		}
		// An access token is not a refresh token.
		got, err := e.refresh(cfg, tok.AccessToken)
		if got != nil {
			t.Fatalf("%s: an access token was accepted as refresh token", cfg.ClientID)
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	}
}

func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, cfg := range []*oauth2.Config{
		e.nativeConfig(redirectV4, "offline_access", "api.market"),
		e.demoConfig(redirectV4, "offline_access"),
	} {
		first := e.login(cfg)
		second, err := e.refresh(cfg, first.RefreshToken)
		if err != nil {
			t.Fatalf("%s: refresh: %v", cfg.ClientID, err)
		}
		if second.AccessToken == "" || second.AccessToken == first.AccessToken {
			t.Errorf("%s: refresh did not issue a new access token", cfg.ClientID)
		}
		if second.RefreshToken == "" || second.RefreshToken == first.RefreshToken {
			t.Fatalf("%s: refresh token not rotated", cfg.ClientID)
		}
		if second.TokenType != "Bearer" || second.Extra("expires_in") != float64(3600) {
			t.Errorf("%s: token_type %q expires_in %v", cfg.ClientID, second.TokenType, second.Extra("expires_in"))
		}
		if got, want := second.Extra("scope"), first.Extra("scope"); got != want {
			t.Errorf("%s: scope after refresh %v, want %v", cfg.ClientID, got, want)
		}
		e.wantLive(second.AccessToken)
		if status, info := e.userinfo(second.AccessToken); status != http.StatusOK || info["sub"] != sandbox.DemoUser {
			t.Errorf("%s: userinfo after refresh: %d %v", cfg.ClientID, status, info)
		}

		// The new one works, and rotates in its turn; the used one is
		// dead (reuse_test.go: using it ends the grant).
		third, err := e.refresh(cfg, second.RefreshToken)
		if err != nil {
			t.Fatalf("%s: the new refresh token: %v", cfg.ClientID, err)
		}
		if third.RefreshToken == "" || third.RefreshToken == second.RefreshToken {
			t.Errorf("%s: second refresh did not rotate", cfg.ClientID)
		}
		e.wantLive(third.AccessToken)
		tok, err := e.refresh(cfg, first.RefreshToken)
		if tok != nil {
			t.Fatalf("%s: the old refresh token still works", cfg.ClientID)
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	}
}

func TestRefreshByOtherClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	native := e.nativeConfig(redirectV4, "offline_access")
	tok := e.login(native)
	got, err := e.refresh(e.demoConfig(redirectV4), tok.RefreshToken)
	if got != nil {
		t.Fatalf("the demo client refreshed the native client's token")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	// The refused attempt did not spend the token.
	if _, err := e.refresh(native, tok.RefreshToken); err != nil {
		t.Errorf("owner's refresh after a foreign attempt: %v", err)
	}
}

func TestRefreshTokenExpiry(t *testing.T) {
	t.Parallel()

	t.Run("expired", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4, "offline_access")
		tok := e.login(cfg)
		e.clock.Advance(sandbox.DefaultRefreshTokenTTL + time.Second)
		got, err := e.refresh(cfg, tok.RefreshToken)
		if got != nil {
			t.Fatalf("an expired refresh token was used")
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	})

	t.Run("not yet expired", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		cfg := e.nativeConfig(redirectV4, "offline_access")
		tok := e.login(cfg)
		e.clock.Advance(sandbox.DefaultRefreshTokenTTL - time.Second)
		e.wantDead(tok.AccessToken) // long expired by now
		got, err := e.refresh(cfg, tok.RefreshToken)
		if err != nil {
			t.Fatalf("refresh before the refresh token's expiry: %v", err)
		}
		e.wantLive(got.AccessToken)
	})
}

// TestRefreshConcurrent: of eight uses of one refresh token at once
// exactly one rotates it; the others come after it, present a rotated
// token and so end the grant (RFC 9700 section 4.14.2), the winner's new
// tokens with it. A client never races itself like this: chainwatch
// refreshes one at a time under a lock (api/tokenlock.go).
func TestRefreshConcurrent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.nativeConfig(redirectV4, "offline_access")
	tok := e.login(cfg)

	const workers = 8
	var (
		wg      sync.WaitGroup
		start   = make(chan struct{})
		results = make(chan error, workers)
		tokens  = make(chan *oauth2.Token, workers)
	)
	for range workers {
		wg.Go(func() {
			<-start
			got, err := e.refresh(cfg, tok.RefreshToken)
			if err == nil {
				tokens <- got
			}
			results <- err
		})
	}
	close(start)
	wg.Wait()
	close(results)
	close(tokens)

	wins := 0
	for err := range results {
		if err == nil {
			wins++
			continue
		}
		e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
	}
	if wins != 1 {
		t.Fatalf("%d of %d concurrent uses of one refresh token succeeded, want exactly 1", wins, workers)
	}
	winner := <-tokens
	e.wantDead(winner.AccessToken)
	e.wantDead(tok.AccessToken)
	got, err := e.refresh(cfg, winner.RefreshToken)
	if got != nil {
		t.Fatal("the winner's refresh token works after the others reused the token it replaced")
	}
	e.wantOAuthError(err, "invalid_grant", http.StatusBadRequest)
}
