package cmd

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"chainwatch/serve"
)

// serveBenchWindow is how long each measurement of BenchmarkServeSessions
// lasts, once every screen shows its ladder: long enough for a few chain
// refreshes and a minute's worth of quotes and prints at real speed.
const serveBenchWindow = 20 * time.Second

// BenchmarkServeSessions is `chainwatch serve` as a desk runs it: the
// embedded sandbox on an open market (--sandbox-clock), the server's
// SSH and each session's renderer, with n x/crypto/ssh clients on SPY
// screens of 160x48 that read everything sent to them. The clients run in
// a child process (this test binary again, clientsEnv), so that the CPU
// this process spends is the server's alone, as the one process serving
// a desk. Each iteration measures one screen, then ten, each over the same
// window, and reports the server's CPU a second with one and with ten
// (user and system, getrusage), their ratio, what each screen past the
// first adds (the ratio counts the embedded sandbox, which one screen and
// ten share, so a faster sandbox raises the ratio while the desk's own
// cost a screen stays what this says), the collections a second at
// ten (a memory limit too tight for the desk shows there), the live heap
// each screen past the first adds, and the bytes a screen received a
// second. With -cpuprofile the profile is the server's.
//
//	go test -run '^$' -bench ServeSessions -benchtime 3x ./cmd
func BenchmarkServeSessions(b *testing.B) {
	benchSessions(b, startServeBench(b, "--sandbox-clock", "2026-11-24T10:00:00-05:00"))
}

// benchSessions measures rig's server with one screen, then ten, each
// iteration, and reports BenchmarkServeSessions's figures.
func benchSessions(b *testing.B, rig *serveBench) {
	var cpu1, cpu10, gc10, bytes10 float64
	var heap float64
	for b.Loop() {
		one := rig.measure(b, 1)
		ten := rig.measure(b, 10)
		cpu1 += one.cpuPerSec
		cpu10 += ten.cpuPerSec
		bytes10 += ten.bytesPerSec
		gc10 += ten.gcPerSec
		heap += (ten.heap - one.heap) / 9
	}
	n := float64(b.N)
	b.ReportMetric(cpu1/n, "cpu-ms/s@1")
	b.ReportMetric(cpu10/n, "cpu-ms/s@10")
	b.ReportMetric(cpu10/cpu1, "ratio-10:1")
	b.ReportMetric((cpu10-cpu1)/9/n, "cpu-ms/s/extra-session")
	b.ReportMetric(gc10/n, "gc/s@10")
	b.ReportMetric(heap/n, "MB/extra-session")
	b.ReportMetric(bytes10/n/1000, "kB/s/session")
	b.ReportMetric(0, "ns/op")
}

// serveBench is a server running in this process and what its clients
// need to reach it.
type serveBench struct {
	addr    string
	log     *syncBuffer
	clients []string // the child's environment: where to connect, with which keys
}

// startServeBench runs `chainwatch serve args...` in this process with
// no credentials (so on the embedded sandbox, or a bus host with --bus),
// in a home of its own, until the benchmark ends.
func startServeBench(b *testing.B, args ...string) *serveBench {
	root := b.TempDir()
	env := map[string]string{"HOME": filepath.Join(root, "home"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_STATE_HOME": filepath.Join(root, "state")}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		b.Fatal(err)
	}
	authKeys, hostKeyPath := filepath.Join(root, "authorized_keys"), filepath.Join(root, "host_key")
	if err := os.WriteFile(authKeys, []byte(strings.TrimSpace(string(gossh.MarshalAuthorizedKey(sshPub)))+" trader@desk\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	host, _, err := serve.HostKey(hostKeyPath)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	log, done := startServeCmd(ctx, env, func(a net.Addr) { addr <- a.String() },
		append([]string{"--authorized-keys", authKeys, "--host-key", hostKeyPath}, args...)...)
	b.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			b.Error("the server did not stop within 20 s")
		}
	})
	r := &serveBench{log: log}
	select {
	case r.addr = <-addr:
	case err := <-done:
		b.Fatalf("serve: %v; its log: %s", err, log.String())
	case <-time.After(60 * time.Second):
		b.Fatal("the server did not listen within 60 s")
	}
	r.clients = []string{
		"addr=" + r.addr,
		"key=" + hex.EncodeToString(priv.Seed()),
		"host=" + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(host.PublicKey()))),
		"size=160x48",
	}
	return r
}

// startServeCmd runs `chainwatch serve --listen 127.0.0.1:0 ARGS...` in
// this process, in env, until ctx ends; ready is told its address. Its
// log is returned, and its error once it has stopped.
func startServeCmd(ctx context.Context, env map[string]string, ready func(net.Addr), args ...string) (*syncBuffer, <-chan error) {
	done := make(chan error, 1)
	log := &syncBuffer{}
	cmd := NewCmdServe(cli{env: env}.deps(&syncBuffer{}, log), func(o *ServeOptions) error {
		o.Context, o.Ready = ctx, ready
		return serveRun(o)
	})
	cmd.SetOut(&syncBuffer{})
	cmd.SetErr(log)
	cmd.SetArgs(append([]string{"--listen", "127.0.0.1:0"}, args...))
	go func() { done <- cmd.Execute() }()
	return log, done
}

// sample is one measurement with n screens open.
type sample struct {
	cpuPerSec   float64 // the server's CPU, ms a second
	gcPerSec    float64 // collections a second
	heap        float64 // live heap after a collection, MB
	bytesPerSec float64 // bytes a screen received a second
}

// measure opens n screens from a child process, waits until each shows
// its ladder, lets the screens settle, measures the window, then closes
// them and waits until the server has seen every one end.
func (r *serveBench) measure(b *testing.B, n int) sample {
	b.Helper()
	closed := strings.Count(r.log.String(), "screen closed")
	child := exec.Command(os.Args[0])
	child.Env = []string{clientsEnv + "=" + strings.Join(append(r.clients, "n="+strconv.Itoa(n)), "\n")}
	stdin, err := child.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var errOut syncBuffer
	child.Stderr = &errOut
	if err := child.Start(); err != nil {
		b.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "ready" {
		child.Process.Kill()
		child.Wait()
		b.Fatalf("the clients said %q; their stderr: %s", lines.Text(), errOut.String())
	}
	time.Sleep(2 * time.Second) // the first frames' aftermath
	cpu0, gc0, wall0 := cpuTime(b), gcCycles(), time.Now()
	fmt.Fprintln(stdin, "mark")
	time.Sleep(serveBenchWindow)
	fmt.Fprintln(stdin, "mark")
	wall := time.Since(wall0)
	cpu, gc := cpuTime(b)-cpu0, gcCycles()-gc0
	heap := liveHeap()
	stdin.Close()
	var received int64
	if lines.Scan() {
		received, _ = strconv.ParseInt(lines.Text(), 10, 64)
	}
	if err := child.Wait(); err != nil || received == 0 {
		b.Fatalf("the clients: %v, %d bytes received in the window; their stderr: %s", err, received, errOut.String())
	}
	for i := 0; strings.Count(r.log.String(), "screen closed") < closed+n; i++ {
		if i == 1000 {
			b.Fatalf("the server saw %d of %d screens close in 20 s", strings.Count(r.log.String(), "screen closed")-closed, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s := sample{
		heap:        heap,
		gcPerSec:    float64(gc) / wall.Seconds(),
		cpuPerSec:   float64(cpu) / float64(time.Millisecond) / wall.Seconds(),
		bytesPerSec: float64(received) / float64(n) / wall.Seconds(),
	}
	return s
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gcCycles is how many collections this process has made.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// liveHeap is the heap after a full collection, in MB.
func liveHeap() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}
