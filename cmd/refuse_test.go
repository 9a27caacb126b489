package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrorsExitTwo: a malformed URL, a bad duration and an unknown
// flag are mistakes in the call: exit status 2, one clear line, nothing run.
func TestUsageErrorsExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "--base-url", "::::"}, "--base-url is not a valid URL"},
		{[]string{"status", "--auth-url", "ftp://example.com"}, "--auth-url"},
		{[]string{"sandbox", "--token-ttl", "0s"}, "--token-ttl 0s: want a positive duration"},
		{[]string{"sandbox", "--token-ttl", "-5m"}, "--token-ttl -5m0s: want a positive duration"},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"sandbox", "--client-secret", "short"}, "--client-secret: the client secret has 5 characters; use 16 to 128"},
		{[]string{"sandbox", "--clock", "11:30"}, `--clock "11:30": want an instant`},
		{[]string{"sandbox", "--speed", "60"}, "--speed needs --clock"},
	} {
		var out, errOut syncBuffer
		c := cli{env: homeEnv(t)}
		if code := Execute(c.deps(&out, &errOut), tc.args); code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}

// TestLogoutKeepsAFileItDoesNotKnow: --token-file may point anywhere;
// logout deletes only a chainwatch token file.
func TestLogoutKeepsAFileItDoesNotKnow(t *testing.T) {
	for name, body := range map[string]string{"notes.txt": "my notes\n", "other.json": `{"hello": 1}`} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := cli{env: homeEnv(t)}.run(t, "logout", "--token-file", path)
		if err == nil || !strings.Contains(err.Error(), path+" is kept") {
			t.Errorf("%s: %v, want a refusal that keeps it", name, err)
		}
		if got, _ := os.ReadFile(path); string(got) != body {
			t.Errorf("%s was changed or deleted: %q", name, got)
		}
	}
}

// TestStatusOnTheEmbeddedSandbox: status says it checked a sandbox that
// stops with it, instead of printing a port that is dead a moment later.
func TestStatusOnTheEmbeddedSandbox(t *testing.T) {
	out, _, err := cli{env: homeEnv(t)}.run(t, "status")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "the embedded sandbox, started for this check and stopped after it") || strings.Contains(out, "127.0.0.1") {
		t.Errorf("status:\n%s", out)
	}
}
