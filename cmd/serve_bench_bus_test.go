package cmd

import (
	"crypto/ed25519"
	"crypto/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// BenchmarkServeSessionsBusHost is BenchmarkServeSessions for a host on a
// bus: the source (`serve --bus-listen`, on the embedded sandbox at the
// same open market) runs in a child process, this process is a host
// (`serve --bus`, no credentials) whose screens take every answer from
// the bus, and the clients run in another child. Its figures are the
// host's own: the CPU a second with one screen and with ten, what each
// screen past the first adds, and the live heap each adds; set them
// beside BenchmarkServeSessions's (a local serve, which also carries
// the sandbox and the fetching).
//
//	go test -run '^$' -bench 'ServeSessions' -benchtime 1x ./cmd
func BenchmarkServeSessionsBusHost(b *testing.B) {
	url := startBusSource(b)
	benchSessions(b, startServeBench(b, "--bus", url, "--bus-name", "host"))
}

// startBusSource runs a bus source, `chainwatch serve --bus-listen`, in
// a child process (this test binary, as main runs it) in a home of its
// own, until the benchmark ends, and returns its bus's URL.
func startBusSource(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	keys := filepath.Join(root, "authorized_keys")
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(keys, gossh.MarshalAuthorizedKey(sshPub), 0o600); err != nil {
		b.Fatal(err)
	}
	if _, _, err := serve.HostKey(filepath.Join(root, "host_key")); err != nil {
		b.Fatal(err)
	}
	port := freePort(b)
	child := exec.Command(os.Args[0])
	child.Env = []string{
		"HOME=" + filepath.Join(root, "home"), "XDG_CONFIG_HOME=" + filepath.Join(root, "config"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"), "PATH=" + os.Getenv("PATH"),
		childArgsEnv + "=" + strings.Join([]string{"serve", "--listen", "127.0.0.1:0",
			"--authorized-keys", keys, "--host-key", filepath.Join(root, "host_key"),
			"--bus-listen", "127.0.0.1:" + port, "--bus-name", "source", "--sandbox-clock", "2026-11-24T10:00:00-05:00"}, "\n"),
	}
	log := &syncBuffer{}
	child.Stdout, child.Stderr = log, log
	if err := child.Start(); err != nil {
		b.Fatal(err)
	}
	done, ended := make(chan error, 1), make(chan struct{})
	go func() {
		done <- child.Wait()
		close(ended)
	}()
	b.Cleanup(func() {
		_ = child.Process.Signal(os.Interrupt)
		select {
		case <-ended:
		case <-time.After(20 * time.Second):
			_ = child.Process.Kill()
			b.Error("the source did not stop within 20 s")
		}
	})
	for i := 0; !strings.Contains(log.String(), "bus: the source"); i++ {
		select {
		case err := <-done:
			b.Fatalf("the source ended: %v; its log: %s", err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if i == 1200 {
			b.Fatalf("the source did not start its bus within 60 s; its log: %s", log.String())
		}
	}
	return "nats://127.0.0.1:" + port
}

// freePort is a loopback port nothing listens on now.
func freePort(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}
