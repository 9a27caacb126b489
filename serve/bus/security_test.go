package bus_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"chainwatch/api"
	"chainwatch/serve/bus"
)

const (
	fullPass    = "full-secret-9f2"
	delayedPass = "delayed-secret-41c"
)

// usersBus is a bus with two users: full (both modes) and slow (delayed
// only), read from a private users file.
func usersBus(t *testing.T) *bus.Server {
	t.Helper()
	path := writeFile(t, "users", "# desk hosts\nfull "+fullPass+" live,delayed\nslow "+delayedPass+" delayed\n", 0o600)
	users, err := bus.ReadUsers(path)
	if err != nil {
		t.Fatal(err)
	}
	return startBus(t, users...)
}

// TestBusLoginsAndFiles: a wrong password is refused, and its error
// holds no secret; files that others may read are refused; a good
// credentials file logs in.
func TestBusLoginsAndFiles(t *testing.T) {
	srv := usersBus(t)
	_, err := bus.Connect(srv.URL(), "x", bus.Creds{User: "full", Password: "wrong-guess-77"}, false, nil)
	if err == nil {
		t.Fatal("a wrong password joined the bus")
	}
	if strings.Contains(err.Error(), "wrong-guess-77") {
		t.Fatalf("the error holds the password: %v", err)
	}
	if _, err := bus.Connect(srv.URL(), "x", bus.Creds{}, false, nil); err == nil {
		t.Fatal("no login joined a bus with users")
	}
	open := writeFile(t, "creds", "full "+fullPass+"\n", 0o644)
	if _, err := bus.ReadCreds(open); err == nil || strings.Contains(err.Error(), fullPass) || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a 0644 credentials file: %v", err)
	}
	if _, err := bus.ReadUsers(writeFile(t, "users", "full "+fullPass+" live\n", 0o640)); err == nil || strings.Contains(err.Error(), fullPass) {
		t.Fatalf("a 0640 users file: %v", err)
	}
	if _, err := bus.ReadUsers(writeFile(t, "users", "full "+fullPass+" realtime\n", 0o600)); err == nil || strings.Contains(err.Error(), fullPass) {
		t.Fatalf("a mode that is none: %v", err)
	}
	c, err := bus.ReadCreds(writeFile(t, "creds", "full "+fullPass+"\n", 0o600))
	if err != nil {
		t.Fatal(err)
	}
	nc, err := bus.Connect(srv.URL(), "x", c, false, nil)
	if err != nil {
		t.Fatalf("the right login: %v", err)
	}
	nc.Close()
}

// TestExposedBusNeedsCredentialsAndTLS: a bus on an address other
// machines reach starts only with users and TLS, and a host joins one
// only with both.
func TestExposedBusNeedsCredentialsAndTLS(t *testing.T) {
	_, err := bus.StartServer(bus.ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "credentials") || !strings.Contains(err.Error(), "TLS") {
		t.Fatalf("an open bus on every address: %v", err)
	}
	if _, err := bus.Connect("nats://10.1.2.3:4222", "x", bus.Creds{User: "u", Password: "p"}, true, nil); err == nil || !strings.Contains(err.Error(), "TLS") {
		t.Fatalf("a password over plain TCP to another machine: %v", err)
	}
	if err := bus.CheckExposed("--bus", "127.0.0.1", false, false); err != nil {
		t.Fatalf("loopback needs nothing: %v", err)
	}
}

// TestDelayedUserCannotRunLive: a delayed-only host can neither ask for
// live feeds nor see live answers, nor send wants in another host's name;
// its delayed wants and answers work.
func TestDelayedUserCannotRunLive(t *testing.T) {
	srv := usersBus(t)
	src, err := sourceOn(t, srv, "a", bus.SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	live := chainAnswer("SPY", []byte(`{"live":1}`), time.Now().UTC())
	src.Record(live)
	delayed := live
	delayed.Mode, delayed.Body = api.Delayed, []byte(`{"delayed":1}`)
	src.Record(delayed)

	denied := make(chan error, 16)
	slow, err := bus.Connect(srv.URL(), "slow", bus.Creds{User: "slow", Password: delayedPass}, false, nil,
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			select {
			case denied <- err:
			default:
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(slow.Close)
	if _, err := slow.Subscribe("chainwatch.answer.live.>", func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	_ = slow.Publish("chainwatch.wants.live.slow", []byte(`[]`))
	_ = slow.Flush()
	_ = slow.Publish("chainwatch.wants.delayed.full", []byte(`[]`)) // another host's name
	_ = slow.Flush()
	for range 3 {
		select {
		case err := <-denied:
			if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permission") {
				t.Fatalf("want a permissions violation, got %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a live subscription, live wants or another host's wants of a delayed-only user went through")
		}
	}
	js, err := jetstream.New(slow)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if kv, err := js.KeyValue(ctx, "cw_live"); err == nil {
		if _, err := kv.Get(ctx, "anything"); err == nil || errors.Is(err, jetstream.ErrKeyNotFound) {
			t.Fatalf("a delayed-only user reads the live bucket: %v", err)
		}
	}
	h, err := bus.OpenHost(slow, bus.HostOptions{Name: "slow", Modes: []api.Mode{api.Delayed}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := h.Replay(api.WithReplayMode(ctxFor(t, 5*time.Second), api.Delayed), []string{delayed.Key})
		if err == nil {
			if string(got.Body) != `{"delayed":1}` {
				t.Fatalf("the delayed answer: %q", got.Body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a delayed-only host gets no delayed answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := h.Replay(ctxFor(t, 10*time.Second), []string{live.Key}); !bus.IsUnavailable(err) {
		t.Fatalf("a delayed-only host answered a live request: %v", err)
	}
}
