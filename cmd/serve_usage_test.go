package cmd

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/config"
	"chainwatch/serve"
)

// The "done when": a plain `chainwatch serve` (no flag for it)
// writes every session down, and `serve usage --json` names the key with
// its sessions and real-time minutes. The sandbox's clock runs at 600x, so
// that a second of a session is ten minutes of the desk's.
func TestServeUsageRecordsScreensAndCommands(t *testing.T) {
	env := homeEnv(t)
	conf := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	key := newKey(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key.PublicKey()))) + " alice@desk\n"
	if err := os.WriteFile(filepath.Join(conf, authorizedKeysFile), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	addrs := make(chan string, 1)
	errOut := &syncBuffer{}
	cmd := NewCmdServe(cli{env: env}.deps(&syncBuffer{}, errOut), func(o *ServeOptions) error {
		o.Context, o.Ready = ctx, func(a net.Addr) { addrs <- a.String() }
		return serveRun(o)
	})
	cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--sandbox-clock", "2026-11-24T10:30:00-05:00", "--sandbox-speed", "600"})
	cmd.SetErr(errOut)
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	var addr string
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("serve ended: %v; %s", err, errOut.String())
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not listen within 60s")
	}
	host, _, err := serve.HostKey(filepath.Join(env["XDG_STATE_HOME"], "chainwatch", hostKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "trader", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.FixedHostKey(host.PublicKey()), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	tm := (&deskRig{t: t}).screen(c)
	tm.waitLadder()
	if _, err := tm.keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tm.ended:
	case <-time.After(15 * time.Second):
		t.Fatal("the screen did not end within 15s of q")
	}
	if _, stderr, code := runOver(t, c, "chain SPY --json=option"); code != 0 {
		t.Fatalf("chain SPY: status %d, %q", code, stderr)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s")
	}

	out, stderr, err := cli{env: env}.run(t, "serve", "usage", "--month", "2026-11", "--json")
	if err != nil {
		t.Fatalf("serve usage: %v, %s", err, stderr)
	}
	var rep []serve.KeyUsage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("serve usage --json: %v: %s", err, out)
	}
	if len(rep) != 1 || rep[0].Key != "alice" || rep[0].Sessions != 2 || rep[0].RealTimeMinutes <= 0 ||
		rep[0].Devices != 1 || !slices.Equal(rep[0].DeviceList, []string{"127.0.0.1"}) || !slices.Equal(rep[0].Hosts, []string{hostName()}) {
		t.Fatalf("serve usage --json: %+v; want alice with 2 sessions from 127.0.0.1 on this host, with real-time minutes", rep)
	}
	table, _, err := cli{env: env}.run(t, "serve", "usage", "--month", "2026-11")
	if err != nil || !strings.HasPrefix(table, "KEY") || !strings.Contains(table, "alice") {
		t.Fatalf("serve usage's table: %v, %q", err, table)
	}
}

// serve usage needs no --listen (serve's required flag is its own), and
// a month that is not one is bad input, as the other commands' flags are.
func TestServeUsageFlags(t *testing.T) {
	env := homeEnv(t)
	out, stderr, err := cli{env: env}.run(t, "serve", "usage", "--json")
	if err != nil || strings.TrimSpace(out) != "[]" || !strings.Contains(stderr, "0 keys, 0 sessions") {
		t.Fatalf("an empty ledger: %v, %q, %q", err, out, stderr)
	}
	for _, m := range []string{"2026-13", "Nov", "2026-11-01"} {
		if _, _, err := (cli{env: env}).run(t, "serve", "usage", "--month", m); exitCode(err) != ExitInput || !strings.Contains(err.Error(), "YYYY-MM") {
			t.Errorf("--month %s: %v; want exit status %d naming YYYY-MM", m, err, ExitInput)
		}
	}
	if _, _, err := (cli{env: env}).run(t, "serve", "usage", "--json=key,nosuch"); exitCode(err) != ExitInput {
		t.Errorf("--json=key,nosuch: %v; want exit status %d", err, ExitInput)
	}
}

// A damaged line in the ledger is skipped, said on stderr, and the rest
// still counts.
func TestServeUsageSkipsDamagedLines(t *testing.T) {
	env := homeEnv(t)
	l, err := usageLedger(config.OpenState(func(k string) string { return env[k] }))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 10, 6, 10, 0, 0, 0, time.UTC)
	for _, r := range []serve.UsageRecord{
		{Event: serve.UsageStart, ID: "s1", Key: "bob", Host: "h1", Device: "10.0.0.1", Kind: serve.UsageCommand, RealTime: false, At: at},
		{Event: serve.UsageEnd, ID: "s1", Key: "bob", Host: "h1", Device: "10.0.0.1", Kind: serve.UsageCommand, RealTime: false, At: at.Add(time.Minute)},
	} {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(filepath.Join(l.Dir(), "2026-10.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"event\": \"sta\n")
	f.Close()
	out, stderr, err := cli{env: env}.run(t, "serve", "usage", "--month", "2026-10", "--jq", ".[0].sessions")
	if err != nil || strings.TrimSpace(out) != "1" || !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "line 3") {
		t.Fatalf("a damaged line: %v, %q, %q", err, out, stderr)
	}
}

// What a command line could see: delayed only when its --mode or the
// config file's mode says so; version, help and refused lines nothing;
// mcp everything (the agent picks each call's mode).
func TestServeCommandRealTime(t *testing.T) {
	env := homeEnv(t)
	d := &desk{getenv: func(k string) string { return env[k] }}
	for line, want := range map[string]bool{
		"chain SPY":                            true,
		"chain SPY --mode delayed":             false,
		"chain SPY --mode=Delayed":             false,
		"chain SPY --mode delayed --mode live": true,
		"chain SPY -- --mode delayed":          true,
		"version":                              false,
		"login":                                false,
		"mcp --mode delayed":                   true,
	} {
		if got := d.commandRealTime(strings.Fields(line)); got != want {
			t.Errorf("%s: real time %v, want %v", line, got, want)
		}
	}
	conf := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte("mode = \"delayed\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if d.commandRealTime([]string{"chain", "SPY"}) || !d.commandRealTime([]string{"chain", "SPY", "--mode", "live"}) {
		t.Error("the config file's mode delayed is not the default of a command, or --mode live does not override it")
	}
}
