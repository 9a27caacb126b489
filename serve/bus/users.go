package bus

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"chainwatch/api"
)

// User is one line of the users file (--bus-users): who may join the
// embedded bus, by password or nkey, and which modes its hosts may run.
type User struct {
	Name     string
	Password string // or
	Nkey     string // the user's public nkey (U...)
	Modes    []api.Mode
}

// ReadUsers reads the users file: one user a line, NAME SECRET MODES,
// where SECRET is a password or a public nkey and MODES is live,delayed
// or one of them; # starts a comment. The file must be private (0600):
// it holds passwords. Errors name the line, never its secret.
func ReadUsers(path string) ([]User, error) {
	data, err := api.ReadPrivateFile("the bus users file", path, 1<<20)
	if err != nil {
		return nil, err
	}
	var out []User
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want NAME PASSWORD-OR-NKEY MODES (e.g. hostb s3cret live,delayed), %d fields", path, n, len(f))
		}
		u := User{Name: f[0]}
		if nkeys.IsValidPublicUserKey(f[1]) {
			u.Nkey = f[1]
		} else {
			u.Password = f[1]
		}
		for _, m := range strings.Split(f[2], ",") {
			mode := api.Mode(strings.ToLower(strings.TrimSpace(m)))
			if !slices.Contains(Modes, mode) {
				return nil, fmt.Errorf("%s:%d: mode %q: want live, delayed or live,delayed", path, n, m)
			}
			u.Modes = append(u.Modes, mode)
		}
		out = append(out, u)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s names no user", path)
	}
	return out, nil
}

// permissions are what u's host may do: publish its wants and its usage
// records under its own name only (a host cannot replace another's
// wants), read the desk's alert events, and read the answers of its
// modes only (the JetStream API of its modes' streams and
// buckets, by name), so a delayed-only host can neither ask for nor see
// live data.
func (u User) permissions() *server.Permissions {
	pub := []string{"$JS.API.INFO", subjUsage + "." + token(u.Name)}
	sub := []string{"_INBOX.>", subjSource}
	streams := []string{alertsStream}
	for _, m := range u.Modes {
		pub = append(pub, subjWants+"."+string(m)+"."+token(u.Name))
		sub = append(sub, subjAnswer+"."+string(m)+".>", subjTape+"."+string(m)+".>")
		streams = append(streams, answerStream(m), tapeStream(m), "KV_"+answerBucket(m))
	}
	for _, s := range streams {
		pub = append(pub, "$JS.API.STREAM.INFO."+s, "$JS.API.STREAM.MSG.GET."+s,
			"$JS.API.DIRECT.GET."+s, "$JS.API.DIRECT.GET."+s+".>",
			"$JS.API.CONSUMER.CREATE."+s, "$JS.API.CONSUMER.CREATE."+s+".>",
			"$JS.API.CONSUMER.INFO."+s+".*", "$JS.API.CONSUMER.DELETE."+s+".*",
			"$JS.API.CONSUMER.MSG.NEXT."+s+".*", "$JS.FC."+s+".>")
	}
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: pub},
		Subscribe: &server.SubjectPermission{Allow: sub},
	}
}

// Creds are a host's (or a source's) login to the bus: a user and
// password, or an nkey seed; and TLS.
type Creds struct {
	User, Password string
	Seed           []byte
	TLS            *tls.Config
}

// ReadCreds reads --bus-creds: a private (0600) file with one line, USER
// PASSWORD, or an nkey seed (SU...). Errors never hold the secret.
func ReadCreds(path string) (Creds, error) {
	data, err := api.ReadPrivateFile("the bus credentials file", path, 64<<10)
	if err != nil {
		return Creds{}, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "SU") {
			if _, err := nkeys.FromSeed([]byte(line)); err != nil {
				return Creds{}, fmt.Errorf("%s: the line looks like an nkey seed but is not a valid one", path)
			}
			return Creds{Seed: []byte(line)}, nil
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return Creds{}, fmt.Errorf("%s: want one line USER PASSWORD, or an nkey seed (SU...)", path)
		}
		return Creds{User: f[0], Password: f[1]}, nil
	}
	return Creds{}, fmt.Errorf("%s holds no credentials", path)
}

// Set reports whether c holds a login.
func (c Creds) Set() bool { return c.User != "" || len(c.Seed) > 0 }

// Connect joins the bus at rawURL as name. It keeps trying for ever once
// connected (and, with retry, before: a host may start before the bus),
// so the bus coming back needs no restart. A non-loopback URL needs
// credentials and TLS (CheckExposed).
func Connect(rawURL, name string, c Creds, retry bool, log *slog.Logger, extra ...nats.Option) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.Timeout(5 * time.Second), nats.PingInterval(time.Second), nats.MaxPingsOutstanding(3)}
	if rawURL != "" {
		u, err := url.Parse(rawURL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("--bus %q: want nats://HOST:PORT", rawURL)
		}
		if u.User != nil {
			return nil, fmt.Errorf("--bus: give the login in --bus-creds, not in the URL")
		}
		if err := CheckExposed("--bus", u.Hostname(), c.Set(), c.TLS != nil || u.Scheme == "tls"); err != nil {
			return nil, err
		}
	}
	if c.User != "" {
		opts = append(opts, nats.UserInfo(c.User, c.Password))
	}
	if len(c.Seed) > 0 {
		kp, err := nkeys.FromSeed(c.Seed)
		if err != nil {
			return nil, fmt.Errorf("the bus credentials: not a valid nkey seed")
		}
		pub, _ := kp.PublicKey()
		opts = append(opts, nats.Nkey(pub, kp.Sign))
	}
	if c.TLS != nil {
		opts = append(opts, nats.Secure(c.TLS))
	}
	if retry {
		opts = append(opts, nats.RetryOnFailedConnect(true))
	}
	if log != nil {
		opts = append(opts, nats.ErrorHandler(errorLog(log)))
	}
	nc, err := nats.Connect(rawURL, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("the bus at %s: %w", rawURL, err)
	}
	return nc, nil
}

// errorLog logs the bus's asynchronous errors (a permission refused, a
// slow consumer), each distinct one at most once a minute: a refused
// subject would otherwise be logged at every heartbeat.
func errorLog(log *slog.Logger) nats.ErrHandler {
	var mu sync.Mutex
	last := map[string]time.Time{}
	return func(_ *nats.Conn, s *nats.Subscription, err error) {
		subj := ""
		if s != nil {
			subj = s.Subject
		}
		k := subj + "\x00" + err.Error()
		mu.Lock()
		quiet := time.Since(last[k]) < time.Minute
		if !quiet {
			if len(last) > 1000 {
				clear(last)
			}
			last[k] = time.Now()
		}
		mu.Unlock()
		if !quiet {
			log.Warn("bus", "subject", subj, "err", err)
		}
	}
}
