package cmd

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"chainwatch/model"
	"chainwatch/model/modeltest"
	"chainwatch/serve"
)

// The "done when": ten `scan --all` over ssh against a 100-point
// day spend at most 250 points. A scan of all results is 150 points, so
// each is refused before it is sent, with the figures and exit status 2,
// and the scanner is never asked.
func TestServeCommandsDrawOnTheDesksBudget(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 100 }, "alice")
	c := r.login("alice")
	for i := range 10 {
		_, errOut, code := runOver(t, c, "scan --name 'High IV' --all --json")
		if code != ExitInput || !strings.Contains(errOut, "would spend 150 points, past the desk's budget") ||
			!strings.Contains(errOut, "of its 100 points today") {
			t.Fatalf("scan %d: status %d, %q; want 2 and the figures", i, code, errOut)
		}
	}
	if spent := r.desk.mon.Stats(modeltest.Now).SessionSpent; spent > 250 {
		t.Fatalf("ten scans spent %d points of a 100-point day", spent)
	}
	if n := r.reqs.Count("/custom-scanner"); n != 0 {
		t.Fatalf("the scanner was asked %d times", n)
	}
	// What fits is run and charged: a chain is 4 points.
	_, errOut, code := runOver(t, c, "chain SPY --json=option")
	if code != 0 || !strings.Contains(errOut, "points spent") {
		t.Fatalf("a chain within the day: status %d, %q", code, errOut)
	}
	if st := r.desk.mon.Stats(modeltest.Now); st.DaySpent == 0 || st.DaySpent > 100 {
		t.Fatalf("the day's points after a chain: %+v", st)
	}
}

// Each key has its own share of the desk's day: by default the day split
// evenly among the file's keys. Alice's chains stop at her 50 of the 100
// (refused with her figures), and Bob still has his.
func TestServeEachKeyHasItsShare(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(_ *deskRig, cfg *model.Config) { cfg.Budget.PerDay = 100 }, "alice", "bob")
	alice := r.login("alice")
	refused := ""
	for range 20 {
		_, errOut, code := runOver(t, alice, "chain SPY --json=option")
		if code == ExitInput {
			refused = errOut
			break
		}
		if code != 0 {
			t.Fatalf("alice's chain: status %d, %q", code, errOut)
		}
	}
	if !strings.Contains(refused, "past this key's share") || !strings.Contains(refused, "of its 50 (") {
		t.Fatalf("alice was not refused at her share: %q", refused)
	}
	if spent := r.desk.mon.Stats(modeltest.Now).DaySpent; spent > 50 {
		t.Fatalf("alice's chains spent %d points of her 50", spent)
	}
	if _, errOut, code := runOver(t, r.login("bob"), "chain SPY --json=option"); code != 0 {
		t.Fatalf("bob's share is his: status %d, %q", code, errOut)
	}
}

// [serve] key_share sets a key's share: a twentieth of a 100-point day is
// 5 points, one chain (4) and not two.
func TestServeKeyShareFromConfig(t *testing.T) {
	r := startDeskWith(t, serve.Options{}, func(r *deskRig, cfg *model.Config) {
		cfg.Budget.PerDay, r.keyShare = 100, 0.05
	}, "alice", "bob")
	c := r.login("bob")
	if _, errOut, code := runOver(t, c, "chain SPY --json=option"); code != 0 {
		t.Fatalf("bob's first chain: status %d, %q", code, errOut)
	}
	if _, errOut, code := runOver(t, c, "chain SPY --json=option"); code != ExitInput || !strings.Contains(errOut, "this key 4 of its 5 (1 left)") {
		t.Fatalf("bob past a key_share of 0.05: status %d, %q", code, errOut)
	}
}

// `chainwatch serve` itself reads [serve] key_share from its config file
// (and the day from [budget]), and refuses at start an authorized_keys
// line with an option it does not honour, saying its line.
func TestServeCommandReadsKeyShareAndChecksKeys(t *testing.T) {
	env := homeEnv(t)
	conf := filepath.Join(env["XDG_CONFIG_HOME"], "chainwatch")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[budget]\npoints_per_day = 100\n\n[serve]\nkey_share = 0.05\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := newKey(t)
	keys := filepath.Join(conf, authorizedKeysFile)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key.PublicKey()))) + " alice@desk\n"
	serveCmd := func(ctx context.Context, ready func(net.Addr)) (*cobra.Command, *syncBuffer) {
		errOut := &syncBuffer{}
		cmd := NewCmdServe(cli{env: env}.deps(&syncBuffer{}, errOut), func(o *ServeOptions) error {
			o.Context, o.Ready = ctx, ready
			return serveRun(o)
		})
		cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--sandbox-clock", "2026-11-24T10:30:00-05:00"})
		cmd.SetErr(errOut)
		return cmd, errOut
	}

	if err := os.WriteFile(keys, []byte(`command="chain SPY" `+line), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, _ := serveCmd(t.Context(), func(net.Addr) { t.Error("serve listened with a command= line") })
	if err := cmd.Execute(); exitCode(err) != ExitInput || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "command") {
		t.Fatalf("a command= line at start: %v", err)
	}

	if err := os.WriteFile(keys, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	addrs := make(chan string, 1)
	cmd, errOut := serveCmd(ctx, func(a net.Addr) { addrs <- a.String() })
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30s")
		}
	}()
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
	if _, errOut, code := runOver(t, c, "chain SPY --json=option"); code != 0 {
		t.Fatalf("the first chain: status %d, %q", code, errOut)
	}
	if _, errOut, code := runOver(t, c, "chain SPY --json=option"); code != ExitInput || !strings.Contains(errOut, "this key 4 of its 5 (1 left)") {
		t.Fatalf("past a key_share of 0.05 of 100: status %d, %q", code, errOut)
	}
}
