package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// waitFor polls cond every 10 ms until it holds or 10 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// sandboxLines parses the four key=value lines `chainwatch sandbox` prints.
func sandboxLines(out string) map[string]string {
	kv := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			kv[k] = v
		}
	}
	return kv
}

// TestSandboxCommandCurlClientCredentials runs `chainwatch sandbox`, reads
// its four lines, and obtains a token exactly as the spec's client
// credentials flow describes (what curl -u id:secret -d grant_type=... does).
func TestSandboxCommandCurlClientCredentials(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	out := &syncBuffer{}
	done := make(chan error, 1)
	var errOut string
	go func() {
		var err error
		_, errOut, err = cli{ctx: ctx, out: out}.run(t, "sandbox", "--listen", "127.0.0.1:0")
		done <- err
	}()
	waitFor(t, "the four lines", func() bool { return len(sandboxLines(out.String())) == 4 })
	kv := sandboxLines(out.String())
	if lines := strings.Count(out.String(), "\n"); lines != 4 {
		t.Fatalf("stdout has %d lines, want exactly 4:\n%s", lines, out)
	}
	for _, k := range []string{"base_url", "auth_url"} {
		u, err := url.Parse(kv[k])
		if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" {
			t.Fatalf("%s=%q is not a loopback URL", k, kv[k])
		}
	}
	if kv["client_id"] == "" || len(kv["client_secret"]) < 20 {
		t.Fatalf("client lines: %q", out)
	}

	req, _ := http.NewRequest(http.MethodPost, kv["auth_url"]+"/connect/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(kv["client_id"]+":"+kv["client_secret"])))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken  string `json:"access_token"`
		ExpiresIn    int    `json:"expires_in"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || tok.AccessToken == "" || tok.TokenType != "Bearer" ||
		tok.ExpiresIn < 3590 || tok.ExpiresIn > 3600 || tok.RefreshToken != "" {
		t.Fatalf("token response: status %d, %+v, err %v", resp.StatusCode, tok, err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("sandbox command ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sandbox command did not stop when its context ended")
	}
	if strings.Contains(errOut, kv["client_secret"]) || strings.Contains(errOut, tok.AccessToken) {
		t.Fatal("the sandbox's log holds the secret or the token")
	}
	if !strings.Contains(errOut, "path=/auth/connect/token status=200") {
		t.Fatalf("the token request is not in the log:\n%s", errOut)
	}
}

func TestSandboxCommandBusyPort(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &syncBuffer{}
	go func() { _, _, _ = cli{ctx: ctx, out: out}.run(t, "sandbox", "--listen", "127.0.0.1:0") }()
	waitFor(t, "the first sandbox", func() bool { return len(sandboxLines(out.String())) == 4 })
	addr := strings.TrimPrefix(sandboxLines(out.String())["base_url"], "http://")
	_, _, err := cli{}.run(t, "sandbox", "--listen", addr)
	if err == nil || !strings.Contains(err.Error(), "--listen") {
		t.Fatalf("a busy port gave %v, want advice about --listen", err)
	}
}

// --token-ttl shortens access tokens, so a user can watch chainwatch renew.
func TestSandboxCommandTokenTTL(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &syncBuffer{}
	go func() {
		_, _, _ = cli{ctx: ctx, out: out}.run(t, "sandbox", "--listen", "127.0.0.1:0", "--token-ttl", "90s")
	}()
	waitFor(t, "the four lines", func() bool { return len(sandboxLines(out.String())) == 4 })
	kv := sandboxLines(out.String())
	req, _ := http.NewRequest(http.MethodPost, kv["auth_url"]+"/connect/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth(kv["client_id"], kv["client_secret"])
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		ExpiresIn int `json:"expires_in"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.ExpiresIn != 90 {
		t.Fatalf("expires_in %d (%v), want 90", tok.ExpiresIn, err)
	}
}
