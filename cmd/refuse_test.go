package cmd

import (
	"io"
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

// TestBadInputExitsTwoEverywhere: issue 30's bad inputs, each of which
// exited 1 (or 0) before: every one is the caller's mistake, exit status 2
// with one line saying what and why, and nothing is spent or started.
func TestBadInputExitsTwoEverywhere(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tape-size", "0"}, "--tape-size 0: want 100 to"},
		{[]string{"--budget-share", "2"}, "--budget-share 2: want a share"},
		{[]string{"--theme", "neon"}, `--theme "neon": want auto, dark or light`},
		{[]string{"--block-size", "0"}, "--block-size 0: want a trade size"},
		{[]string{"--date", "2030-01-02"}, "2030-01-02 is in the future"},
		{[]string{"frobnicate"}, `unknown command or symbol "frobnicate"`},
		{[]string{"sandbox", "--plan", "free"}, `--plan "free": want one of`},
		{[]string{"sandbox", "--rate", "-1"}, "--rate -1: want a number"},
		{[]string{"sandbox", "--faults", "2"}, "--faults: rate must be a number in (0, 1]"},
		{[]string{"sandbox", "--entitlements", "nasdaq"}, `unknown entitlement "nasdaq"`},
		{[]string{"sandbox", "--listen", "nohost"}, `--listen "nohost": missing port in address`},
		{[]string{"sandbox", "--listen", "127.0.0.1:99999"}, `--listen "127.0.0.1:99999": invalid port`},
		{[]string{"login", "--auth-url", "http://evil.example/auth"}, "--auth-url http://evil.example/auth must use https"},
		{[]string{"login", "--auth-url", "http://127.0.0.1:1/auth", "--base-url", "http://evil.example"}, "--base-url http://evil.example must use https"},
		{[]string{"login"}, "login needs the token service's address"},
		{[]string{"chain", "SPY", "--watch", "0"}, "--watch 0s: want a positive interval"},
		{[]string{"trades", "SPY", "--block-size", "-1"}, "--block-size -1: want a trade size of at least 1"},
		{[]string{"completion", "tcsh"}, `completion "tcsh": no completion script for that shell; want one of bash, fish, powershell, zsh`},
		{[]string{"taq", "SPY", "--since", "10:00"}, "taq wants an OSI option symbol such as SPY261120C00600000"},
		{[]string{"--date", "2003-01-01"}, "the first trading day is Thu 2003-01-02"},
		{[]string{"chain", "SPY", "--date", "2003-01-01"}, "the first trading day is Thu 2003-01-02"},
		{[]string{"chain", "\x1b[2J\x1b[H"}, `symbol "\x1b[2J\x1b[H": a control character`},
	} {
		var out, errOut syncBuffer
		c := cli{env: homeEnv(t)}
		code := Execute(c.deps(&out, &errOut), tc.args)
		if code != ExitInput || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
		if out.Len() != 0 {
			t.Errorf("%q: stdout %q, want nothing", tc.args, out.String())
		}
		if strings.Contains(errOut.String(), "\x1b") {
			t.Errorf("%q: stderr holds an escape character: %q", tc.args, errOut.String())
		}
	}
}

// TestHelpHoldsNoNUL: --json's "all fields" marker was "\x00all", and every
// headless command's --help printed the NUL byte to the terminal.
func TestHelpHoldsNoNUL(t *testing.T) {
	root := NewCmdRoot(cli{}.deps(io.Discard, io.Discard), nil)
	cmds := []string{""}
	for _, c := range root.Commands() {
		cmds = append(cmds, c.Name())
	}
	for _, name := range cmds {
		args := []string{"--help"}
		if name != "" {
			args = []string{name, "--help"}
		}
		var out, errOut syncBuffer
		if code := Execute(cli{env: homeEnv(t)}.deps(&out, &errOut), args); code != 0 {
			t.Errorf("%q: exit %d: %s", args, code, errOut.String())
		}
		if strings.ContainsRune(out.String()+errOut.String(), 0) {
			t.Errorf("%q prints a NUL byte", args)
		}
		if !strings.Contains(out.String(), "Usage:") {
			t.Errorf("%q printed no usage:\n%s", args, out.String())
		}
	}
}

// TestJSONAloneStillMeansEveryField: with the marker now the word "all",
// --json alone and --json=all both print every field.
func TestJSONAloneStillMeansEveryField(t *testing.T) {
	f := exportFlags{json: allFields}.format()
	if f.err != nil || f.fields != nil || f.kind != kindJSON {
		t.Errorf("--json alone: %+v", f)
	}
}
