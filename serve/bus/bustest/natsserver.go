// Package bustest starts what the bus's tests share: a separate
// nats-server (Debian's 2.9 or newer, default-configured but for
// JetStream) on 127.0.0.1, as a desk would run one. It is imported by
// tests only.
package bustest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// NatsServer starts nats-server on 127.0.0.1 with JetStream (its store in
// a temporary directory) until the test ends and returns its URL; the
// test is skipped when none is installed (.ci/run installs it).
func NatsServer(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nats-server"); serr != nil {
			if os.Getenv("CHAINWATCH_REQUIRE_NATS_SERVER") != "" {
				t.Fatal("no nats-server installed, and CHAINWATCH_REQUIRE_NATS_SERVER is set (.ci/run installs Debian's)")
			}
			t.Skip("no nats-server installed (.ci/run installs Debian's package; apt-get install nats-server)")
		}
		bin = "/usr/sbin/nats-server"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-js", "-sd", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	for range 100 {
		if nc, err := nats.Connect(url); err == nil {
			nc.Close()
			return url
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("nats-server did not take connections on %s within 10s", url)
	return ""
}
