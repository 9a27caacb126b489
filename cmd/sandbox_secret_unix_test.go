//go:build unix

package cmd

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeMode writes a file with exactly the mode given, whatever the umask.
func writeMode(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestSandboxClientSecretFile: --client-secret-file fixes the demo secret
// from a private file (the secret alone, or the client_secret= line of a
// file --print-credentials wrote), so it never needs the command line;
// --print-credentials writes the four lines to a 0600 file, replacing one
// that others could read, and nothing to stdout.
func TestSandboxClientSecretFile(t *testing.T) {
	dir := t.TempDir()
	const secret = "a-secret-kept-in-a-file-0123"
	secretFile := filepath.Join(dir, "secret")
	writeMode(t, secretFile, secret+"\n", 0o600)
	kv := runSandboxCmd(t, "--client-secret-file", secretFile)
	if kv["client_secret"] != secret {
		t.Fatalf("client_secret %q, want the file's", kv["client_secret"])
	}
	if resp := demoToken(t, kv); resp.StatusCode != http.StatusOK {
		t.Fatalf("a token with the file's secret: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}

	creds := filepath.Join(dir, "sandbox.env")
	writeMode(t, creds, "old and readable by all\n", 0o644)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	out, errOut := &syncBuffer{}, &syncBuffer{}
	go func() {
		defer close(done)
		_, _, _ = cli{ctx: ctx, out: out, errOut: errOut}.run(t, "sandbox", "--listen", "127.0.0.1:0", "--print-credentials", creds)
	}()
	waitFor(t, "the credentials file", func() bool {
		b, _ := os.ReadFile(creds)
		return len(sandboxLines(string(b))) == 4
	})
	fi, err := os.Stat(creds)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	b, _ := os.ReadFile(creds)
	written := sandboxLines(string(b))
	if resp := demoToken(t, written); resp.StatusCode != http.StatusOK {
		t.Fatalf("a token with the written credentials: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}
	if out.String() != "" || strings.Contains(errOut.String(), written["client_secret"]) || !strings.Contains(errOut.String(), "credentials written") {
		t.Fatalf("stdout %q; stderr:\n%s", out, errOut)
	}
	again := runSandboxCmd(t, "--client-secret-file", creds)
	if again["client_secret"] != written["client_secret"] {
		t.Fatal("--client-secret-file did not take the secret from the credentials file")
	}
}

// TestSandboxSecretFileRefusals: a secret file others may read or write,
// one that is missing, not a regular file, too large, empty or holding a
// bad secret, both secret flags at once, and a credentials file that
// cannot be one: each is refused with exit status 2 before anything
// starts, in one line that never quotes the file.
func TestSandboxSecretFileRefusals(t *testing.T) {
	dir := t.TempDir()
	const secret = "a-secret-nobody-may-see-0123"
	file := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		writeMode(t, p, body, mode)
		return p
	}
	readable := file("readable", secret, 0o644)
	groupWritable := file("group-writable", secret, 0o620)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--client-secret-file", readable}, "--client-secret-file " + readable + " is readable by others (mode 0644); run: chmod 600 " + readable},
		{[]string{"--client-secret-file", groupWritable}, "is writable by others (mode 0620)"},
		{[]string{"--client-secret-file", filepath.Join(dir, "none")}, "no such file"},
		{[]string{"--client-secret-file", "/dev/zero"}, "--client-secret-file /dev/zero is a character device, not a regular file"},
		{[]string{"--client-secret-file", fifo}, "is a named pipe (FIFO), not a regular file"},
		{[]string{"--client-secret-file", dir}, "is a directory, not a regular file"},
		{[]string{"--client-secret-file", file("large", strings.Repeat(secret, 200), 0o600)}, "more than the 4096"},
		{[]string{"--client-secret-file", file("empty", "\n", 0o600)}, "is empty"},
		{[]string{"--client-secret-file", file("short", "short\n", 0o600)}, "the client secret has 5 characters"},
		{[]string{"--client-secret-file", file("blank", "two words here, long enough\n", 0o600)}, "without blanks"},
		{[]string{"--client-secret", secret, "--client-secret-file", file("ok", secret, 0o600)}, "give one of them"},
		{[]string{"--print-credentials", dir}, "--print-credentials " + dir + " is not a regular file"},
	} {
		args := append([]string{"sandbox", "--listen", "127.0.0.1:0"}, tc.args...)
		var out, errOut syncBuffer
		c := cli{env: homeEnv(t), ctx: t.Context()}
		code := make(chan int, 1)
		go func() { code <- Execute(c.deps(&out, &errOut), args) }()
		select {
		case got := <-code:
			if got != ExitInput || !strings.Contains(errOut.String(), tc.want) || out.String() != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, got, out.String(), errOut.String(), tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: the sandbox started, or the command hangs", tc.args)
		}
		if strings.Contains(errOut.String(), "nobody-may-see") || strings.Contains(errOut.String(), "two words") {
			t.Errorf("%q: stderr quotes the file: %q", tc.args, errOut.String())
		}
	}
}
