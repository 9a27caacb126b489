package cmd

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
	addr := strings.TrimPrefix(runSandboxCmd(t)["base_url"], "http://")
	_, _, err := cli{}.run(t, "sandbox", "--listen", addr)
	if err == nil || !strings.Contains(err.Error(), "--listen") {
		t.Fatalf("a busy port gave %v, want advice about --listen", err)
	}
}

// --token-ttl shortens access tokens, so a user can watch chainwatch renew.
func TestSandboxCommandTokenTTL(t *testing.T) {
	resp := demoToken(t, runSandboxCmd(t, "--token-ttl", "90s"))
	defer resp.Body.Close()
	var tok struct {
		ExpiresIn int `json:"expires_in"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.ExpiresIn != 90 {
		t.Fatalf("expires_in %d (%v), want 90", tok.ExpiresIn, err)
	}
}

// A bad data flag is one clear line before anything starts: nothing on
// stdout, no listener.
func TestSandboxCommandBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--plan", "gold"}, `--plan "gold": want one of trial, standard, professional`},
		{[]string{"--rate", "-1"}, "--rate -1: want a number of requests per second >= 0 (0 for no limit)"},
		{[]string{"--rate", "NaN"}, "--rate NaN: want a number"},
		{[]string{"--rate", "fast"}, `--rate "fast": want a number`},
		{[]string{"--faults", "2"}, `--faults: rate must be a number in (0, 1], got "2"`},
		{[]string{"--faults", "0.1:boom"}, `--faults: unknown kind "boom"`},
		{[]string{"--entitlements", "cta"}, `--entitlements: unknown entitlement "cta"`},
		{[]string{"--entitlements", ""}, `--entitlements: unknown entitlement ""`},
	} {
		args := append([]string{"sandbox", "--listen", "127.0.0.1:0"}, c.args...)
		out, _, err := cli{}.run(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || out != "" {
			t.Errorf("%v: error %v, stdout %q; want one line with %q", c.args, err, out, c.want)
		}
	}
}

// The data flags reach the sandbox: a trial plan without a rate limit or
// subscriptions still prints its four lines and reports the trial's points.
func TestSandboxCommandDataFlags(t *testing.T) {
	kv := runSandboxCmd(t, "--plan", "trial", "--rate", "0", "--entitlements", "none", "--faults", "")
	resp := demoToken(t, kv)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err := json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, kv["base_url"]+"/v1/live/reference/exchanges", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Monthly-Points-Left") != "500" {
		t.Errorf("exchanges: %d with %q points left, want 200 and the trial's 500", resp.StatusCode, resp.Header.Get("X-Monthly-Points-Left"))
	}
}

// runSandboxCmd runs `chainwatch sandbox --listen 127.0.0.1:0 args...`
// until the test ends and returns its four lines as keys and values.
func runSandboxCmd(t *testing.T, args ...string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	// Stopped and waited for: a sandbox with --state writes it as it stops.
	t.Cleanup(func() { cancel(); <-done })
	out := &syncBuffer{}
	go func() {
		defer close(done)
		_, _, _ = cli{ctx: ctx, out: out}.run(t, append([]string{"sandbox", "--listen", "127.0.0.1:0"}, args...)...)
	}()
	waitFor(t, "the four lines", func() bool { return len(sandboxLines(out.String())) == 4 })
	return sandboxLines(out.String())
}

// demoToken asks the sandbox of kv for a client-credentials token as its
// demo client; the caller closes the response's body.
func demoToken(t *testing.T, kv map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, kv["auth_url"]+"/connect/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth(kv["client_id"], kv["client_secret"])
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestSandboxFixedSecretAndState: --client-secret fixes the demo secret;
// --state keeps the one a sandbox made, in a private file.
func TestSandboxFixedSecretAndState(t *testing.T) {
	const secret = "my-fixed-sandbox-secret"
	kv := runSandboxCmd(t, "--client-secret", secret)
	if kv["client_secret"] != secret {
		t.Fatalf("client_secret %q, want the fixed one", kv["client_secret"])
	}
	resp := demoToken(t, kv)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("token with the fixed secret: %d", resp.StatusCode)
	}
	dir := t.TempDir()
	first := runSandboxCmd(t, "--state", dir)
	second := runSandboxCmd(t, "--state", dir)
	if first["client_secret"] == "" || first["client_secret"] != second["client_secret"] {
		t.Fatal("the state did not keep the demo secret")
	}
}
