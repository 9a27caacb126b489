package cmd

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// TestExitStatusesAsREADMESays: item 13's twenty cases that exited 0 or
// 1 where docs/scripting.md's table says 2: bad service URLs given to a command that
// does not connect, an --exec-timeout under 1ms, a rule on a symbol the
// embedded sandbox does not list, a local store that is not a chainwatch
// store (a local file that does not load, as for positions), and a
// sandbox clock outside the service's days.
func TestExitStatusesAsREADMESays(t *testing.T) {
	zeros := func(t *testing.T, path string) { write(t, path, make([]byte, 64<<10)) }
	corrupt := func(t *testing.T, path string) {
		write(t, path, []byte("SQLite format 3\x00"+strings.Repeat("garbage", 600)))
	}
	foreign := func(t *testing.T, path string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", path)
		if err == nil {
			_, err = db.Exec("CREATE TABLE notes (body TEXT)")
			db.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	rule := func(t *testing.T, env map[string]string) {
		write(t, filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch", "config.toml"),
			[]byte("[[alert]]\nkind = \"price\"\nsymbol = \"SPYY\"\nabove = 700\n"))
	}
	store := func(make func(*testing.T, string)) func(*testing.T, map[string]string) {
		return func(t *testing.T, env map[string]string) { make(t, historyPath(env)) }
	}
	for _, tc := range []struct {
		args  []string
		setup func(*testing.T, map[string]string)
		want  string
	}{
		{[]string{"alerts", "--base-url", "ftp://x"}, nil, `scheme "ftp" is not supported`},
		{[]string{"alerts", "--base-url", "http://example.com"}, nil, "must use https unless the host is loopback"},
		{[]string{"alerts", "--base-url", ""}, nil, "--base-url is empty"},
		{[]string{"alerts", "--base-url", "https://"}, nil, "must be an absolute URL with a host"},
		{[]string{"alerts", "--base-url", "not a url"}, nil, "must be an absolute URL with a host"},
		{[]string{"alerts", "--base-url", "http://[::1"}, nil, "--base-url is not a valid URL"},
		{[]string{"alerts", "--auth-url", "ftp://x", "--cost"}, nil, `--auth-url ftp://x: scheme "ftp"`},
		{[]string{"alerts", "--exec-timeout", "1ns"}, nil, "--exec-timeout 1ns: want a duration from 1ms"},
		{[]string{"alerts"}, rule, "no symbol SPYY; did you mean SPY?"},
		{[]string{"alerts", "--cost"}, rule, "no symbol SPYY; did you mean SPY?"},
		{[]string{"history"}, store(corrupt), "is not a readable SQLite database"},
		{[]string{"history"}, store(foreign), "another program's SQLite database"},
		{[]string{"history"}, store(zeros), "is not a readable SQLite database"},
		{[]string{"history", "prune", "--before", "2020-01-02"}, store(foreign), "another program's SQLite database"},
		{[]string{"history", "backfill", "SPY", "--days", "2", "--yes"}, store(zeros), "backfill needs the store"},
		{[]string{"chain", "SPY", "--sandbox-clock", "0001-01-01T00:00:00Z"}, nil, "want an instant from 2003-01-01 to 2099-12-31"},
		{[]string{"quotes", "SPY", "--sandbox-clock", "0001-01-01T00:00:00Z"}, nil, "want an instant from 2003-01-01"},
		{[]string{"alerts", "--watch", "--sandbox-clock", "0001-01-01T00:00:00Z"}, nil, "want an instant from 2003-01-01"},
		{[]string{"chain", "SPY", "--sandbox-clock", "9999-12-31T23:59:59Z"}, nil, "want an instant from 2003-01-01"},
		{[]string{"sandbox", "--clock", "1999-01-01T10:00:00-05:00"}, nil, "want an instant from 2003-01-01"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			env := homeEnv(t)
			if tc.setup != nil {
				tc.setup(t, env)
			}
			var out, errOut syncBuffer
			code := Execute(cli{env: env}.deps(&out, &errOut), tc.args)
			if code != ExitInput || !strings.Contains(errOut.String(), tc.want) || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", code, out.String(), errOut.String(), tc.want)
			}
		})
	}
}

// write makes path (and its directory) hold b.
func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Clone(b), 0o600); err != nil {
		t.Fatal(err)
	}
}
