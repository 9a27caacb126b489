package bus

import (
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"chainwatch/api"
)

// ServerOptions start the embedded bus: a NATS server with JetStream in
// the source's serve process.
type ServerOptions struct {
	Listen   string // HOST:PORT (port 0: any)
	StoreDir string // JetStream's files
	// Users are who may join (ReadUsers); none: anybody, which only a
	// loopback address allows (CheckExposed).
	Users []User
	// TLS, when set, is required of every client.
	TLS *tls.Config
}

// Server is the embedded bus.
type Server struct {
	ns *server.Server
	// source is the user the source's own connection logs in as: made at
	// start, never written anywhere.
	sourceUser, sourcePass string
}

// StartServer starts the embedded bus and waits until it takes
// connections.
func StartServer(o ServerOptions) (*Server, error) {
	host, port, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("--bus-listen %q: want HOST:PORT", o.Listen)
	}
	if err := CheckExposed("--bus-listen", host, len(o.Users) > 0, o.TLS != nil); err != nil {
		return nil, err
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("--bus-listen %q: the port is not a number", o.Listen)
	}
	opts := &server.Options{Host: host, Port: p, JetStream: true, StoreDir: o.StoreDir,
		NoSigs: true, NoLog: true, ServerName: "chainwatch-bus", MaxPayload: 1 << 20}
	if p == 0 {
		opts.Port = server.RANDOM_PORT
	}
	s := &Server{}
	if len(o.Users) > 0 {
		s.sourceUser, s.sourcePass = "chainwatch-source", rand.Text()
		opts.Users = append(opts.Users, &server.User{Username: s.sourceUser, Password: s.sourcePass})
		for _, u := range o.Users {
			perm := u.permissions()
			if u.Nkey != "" {
				opts.Nkeys = append(opts.Nkeys, &server.NkeyUser{Nkey: u.Nkey, Permissions: perm})
			} else {
				opts.Users = append(opts.Users, &server.User{Username: u.Name, Password: u.Password, Permissions: perm})
			}
		}
	}
	if o.TLS != nil {
		opts.TLSConfig, opts.TLS, opts.TLSTimeout = o.TLS, true, 2
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("the bus: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("the bus did not start on %s", o.Listen)
	}
	s.ns = ns
	return s, nil
}

// URL is where clients join: nats://HOST:PORT (tls:// with TLS).
func (s *Server) URL() string { return s.ns.ClientURL() }

// Addr is the address it listens on.
func (s *Server) Addr() net.Addr { return s.ns.Addr() }

// SourceOptions are the connection options of the source in the same
// process: its own user when the bus has users.
func (s *Server) SourceOptions() []nats.Option {
	opts := []nats.Option{nats.InProcessServer(s.ns)}
	if s.sourceUser != "" {
		opts = append(opts, nats.UserInfo(s.sourceUser, s.sourcePass))
	}
	return opts
}

// Close stops the server and waits for it.
func (s *Server) Close() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// CheckExposed refuses a bus on an address other machines reach without
// both credentials and TLS: the bus carries real-time data that only the
// desk's users may see (OPRA counts every viewer), and passwords.
func CheckExposed(flag, host string, creds, tls bool) error {
	if api.IsLoopbackHost(host) || creds && tls {
		return nil
	}
	var miss []string
	if !creds {
		miss = append(miss, "credentials (--bus-users on the source, --bus-creds on a host)")
	}
	if !tls {
		miss = append(miss, "TLS (--bus-tls-cert and --bus-tls-key, or --bus-tls-ca on a host)")
	}
	msg := fmt.Sprintf("%s: %s is not a loopback address, and a bus there needs %s", flag, host, miss[0])
	if len(miss) > 1 {
		msg += " and " + miss[1]
	}
	return errors.New(msg)
}
