package cmd

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/oauth2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/config/configtest"
	"chainwatch/model"
	"chainwatch/sandbox"
)

// svcEnv is an environment of explicit settings, each naming its source.
func svcEnv(t *testing.T) map[string]string {
	return map[string]string{
		envBaseURL: "http://127.0.0.1:1/env", envAuthURL: "http://127.0.0.1:1/env-auth", envClientID: "env-id",
		envTokenFile: filepath.Join(t.TempDir(), "none.json"),
	}
}

// TestSessionPrecedenceFlagEnvConfig: each setting comes from the flag,
// else the environment, else the config file, independently.
func TestSessionPrecedenceFlagEnvConfig(t *testing.T) {
	conf := &config.Service{
		BaseURL: "http://127.0.0.1:1/conf", AuthURL: "http://127.0.0.1:1/conf-auth", ClientID: "conf-id",
		ClientSecret: "conf-secret", Path: "/cfg/config.toml",
	}
	flags := serviceFlags{baseURL: "http://127.0.0.1:1/flag", authURL: "http://127.0.0.1:1/flag-auth", clientID: "flag-id", file: conf}
	env := svcEnv(t)
	env[envClientSecret] = "env-secret"
	getenv := func(k string) string { return env[k] }

	check := func(name string, f serviceFlags, base, auth, id, secret string) {
		t.Helper()
		s, err := resolveSession(f, getenv)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer s.close()
		if s.source != fromClientCredentials || s.baseURL != base || s.auth.AuthURL != auth || s.auth.ClientID != id || s.auth.ClientSecret != secret {
			t.Fatalf("%s: %s %s %s %s", name, s.source, s.baseURL, s.auth.AuthURL, s.auth.ClientID)
		}
	}
	check("flags", flags, "http://127.0.0.1:1/flag", "http://127.0.0.1:1/flag-auth", "flag-id", "env-secret")
	check("env", serviceFlags{file: conf}, "http://127.0.0.1:1/env", "http://127.0.0.1:1/env-auth", "env-id", "env-secret")
	delete(env, envBaseURL)
	delete(env, envClientSecret)
	check("config fills what env leaves", serviceFlags{file: conf}, "http://127.0.0.1:1/conf", "http://127.0.0.1:1/env-auth", "env-id", "conf-secret")
	delete(env, envAuthURL)
	delete(env, envClientID)
	check("config", serviceFlags{file: conf}, "http://127.0.0.1:1/conf", "http://127.0.0.1:1/conf-auth", "conf-id", "conf-secret")

	// A secret from the config file without the rest says where it came from, never what it is.
	_, err := resolveSession(serviceFlags{file: &config.Service{ClientSecret: "conf-secret", Path: "/cfg/config.toml"}}, getenv)
	if err == nil || !strings.Contains(err.Error(), "client_secret is set in /cfg/config.toml") || strings.Contains(err.Error(), "conf-secret") {
		t.Fatalf("secret alone: %v", err)
	}
}

// saveLogin stores a login for a service that is never contacted.
func saveLogin(t *testing.T, path string) {
	t.Helper()
	tok := &oauth2.Token{AccessToken: "at", RefreshToken: "rt", TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)}
	svc := &api.LoginService{AuthURL: "http://127.0.0.1:1/login-auth", BaseURL: "http://127.0.0.1:1/login", ClientID: "chainwatch"}
	if err := (api.FileTokenStore{Path: path}).SaveLogin(tok, svc); err != nil {
		t.Fatal(err)
	}
}

// TestSessionConfigAndStoredLogin: the config file's client credentials
// beat a stored login; its base_url alone redirects the login; its
// token_file finds the login.
func TestSessionConfigAndStoredLogin(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token.json")
	saveLogin(t, tokenFile)
	env := map[string]string{envTokenFile: tokenFile}
	getenv := func(k string) string { return env[k] }

	s, err := resolveSession(serviceFlags{file: &config.Service{}}, getenv)
	if err != nil || s.source != fromStoredLogin || s.baseURL != "http://127.0.0.1:1/login" || s.store != tokenFile {
		t.Fatalf("stored login: %+v %v", s, err)
	}
	s, err = resolveSession(serviceFlags{file: &config.Service{BaseURL: "http://127.0.0.1:1/conf"}}, getenv)
	if err != nil || s.source != fromStoredLogin || s.baseURL != "http://127.0.0.1:1/conf" {
		t.Fatalf("config base_url over the login's: %+v %v", s, err)
	}
	conf := &config.Service{BaseURL: "http://127.0.0.1:1/conf", AuthURL: "http://127.0.0.1:1/conf-auth", ClientID: "conf-id", ClientSecret: "x"}
	s, err = resolveSession(serviceFlags{file: conf}, getenv)
	if err != nil || s.source != fromClientCredentials || s.auth.ClientID != "conf-id" {
		t.Fatalf("config credentials over the login: %+v %v", s, err)
	}
	// token_file in the config, nothing in flags or env.
	delete(env, envTokenFile)
	s, err = resolveSession(serviceFlags{file: &config.Service{TokenFile: tokenFile}}, getenv)
	if err != nil || s.source != fromStoredLogin || s.store != tokenFile {
		t.Fatalf("config token_file: %+v %v", s, err)
	}
	// And the flag beats it.
	other := filepath.Join(t.TempDir(), "other.json")
	s, err = resolveSession(serviceFlags{tokenFile: other, file: &config.Service{TokenFile: tokenFile}}, getenv)
	if err != nil || s.source != fromEmbeddedSandbox {
		t.Fatalf("--token-file over token_file: %+v %v", s, err)
	}
	s.close()
}

// TestStatusReadsDefaultConfigFile: status, login and logout, which have
// no --config, use the file at the default path, like the watch screen.
func TestStatusReadsDefaultConfigFile(t *testing.T) {
	s := startSandbox(t)
	cfgHome := t.TempDir()
	configtest.Write(t, filepath.Join(cfgHome, "chainwatch"), fmt.Sprintf("[service]\nbase_url = %q\nauth_url = %q\nclient_id = %q\nclient_secret = %q\n",
		s.BaseURL, s.AuthURL, sandbox.DemoClientID, s.DemoSecret), 0o600)
	env := map[string]string{"XDG_CONFIG_HOME": cfgHome, "HOME": t.TempDir()}
	out, errOut, err := cli{env: env}.run(t, "status")
	if err != nil || !strings.Contains(out, "credentials: client credentials") || !strings.Contains(out, "base_url:    "+s.BaseURL) ||
		!strings.Contains(out, "signed in as: "+sandbox.DemoClientID) {
		t.Fatalf("status: %v\n%s", err, out)
	}
	if strings.Contains(out+errOut, s.DemoSecret) {
		t.Fatal("status printed the secret")
	}
	// The same file readable by others: refused, with the fix, without the secret.
	os.Chmod(filepath.Join(cfgHome, "chainwatch", "config.toml"), 0o644)
	out, errOut, err = cli{env: env}.run(t, "status")
	if err == nil || !strings.Contains(err.Error(), "chmod 600") || strings.Contains(out+errOut+err.Error(), s.DemoSecret) {
		t.Fatalf("status with a readable secret: %v", err)
	}
}

// TestEmbeddedSandboxMemoryLimit: the process that embeds the sandbox
// gets its soft memory limit while the session is open, and its own back
// when it closes; GOMEMLIMIT, the user's own, wins.
func TestEmbeddedSandboxMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })

	env := homeEnv(t)
	getenv := func(k string) string { return env[k] }
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	s, err := startEmbedded(nil, getenv, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != sandbox.EmbeddedMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, sandbox.EmbeddedMemoryLimit)
	}
	s.close()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit %d after the session, want the process's own back", got)
	}

	t.Setenv("GOMEMLIMIT", "1GiB") // read by the runtime at start; here only its presence counts
	debug.SetMemoryLimit(1 << 30)
	s, err = startEmbedded(nil, getenv, true)
	if err != nil {
		t.Fatal(err)
	}
	s.close()
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("memory limit %d with GOMEMLIMIT set, want the user's %d", got, 1<<30)
	}
}

// TestMemoryLimitIsTheScreensNotTheDesks: the embedded sandbox's memory
// limit is sized for one screen beside it, so the watch screen sets it
// while it runs, and `serve`, whose sessions each draw a screen, never
// does: under it a desk's collector would run without pause.
func TestMemoryLimitIsTheScreensNotTheDesks(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)

	var screen int64
	res := watchCLI{env: homeEnv(t), during: func(model.Config) error {
		screen = debug.SetMemoryLimit(-1)
		return nil
	}}.run(t)
	if res.err != nil || screen != sandbox.EmbeddedMemoryLimit {
		t.Fatalf("the watch screen on the embedded sandbox: memory limit %d, want %d (err %v)", screen, sandbox.EmbeddedMemoryLimit, res.err)
	}

	env := homeEnv(t)
	keys := filepath.Join(env["HOME"], "authorized_keys")
	if err := os.MkdirAll(env["HOME"], 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keys, append(gossh.MarshalAuthorizedKey(newKey(t).PublicKey()), "trader\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	desk := make(chan int64, 1)
	log, done := startServeCmd(ctx, env, func(net.Addr) { desk <- debug.SetMemoryLimit(-1); cancel() },
		"--authorized-keys", keys, "--host-key", filepath.Join(env["HOME"], "host_key"))
	select {
	case err := <-done:
		t.Fatalf("serve stopped before it listened: %v; its log: %s", err, log.String())
	case got := <-desk:
		if got != math.MaxInt64 {
			t.Errorf("serve on the embedded sandbox set the memory limit to %d; want the process's own, %d", got, int64(math.MaxInt64))
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not listen within 60 s")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30 s")
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit %d after both, want the process's own back", got)
	}
}
