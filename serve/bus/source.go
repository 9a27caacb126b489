package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"chainwatch/api"
	"chainwatch/feed"
)

// SourceOptions are the source's: the serve that holds the service's
// credentials and fetches for every host.
type SourceOptions struct {
	Host   string           // this serve's name, in the lock and a second source's refusal
	Clock  func() time.Time // the service's clock, which hosts follow; default time.Now
	Window time.Duration    // how long tape pages and answers are kept; default DefaultWindow
	// ChunkSize is the largest part of a body in one message; 0: the
	// bus's max payload less room for headers.
	ChunkSize int
	Log       *slog.Logger
}

// TakenError is a second source on a bus: one bus has one source, so that
// the desk spends one budget.
type TakenError struct {
	Host  string
	Since time.Time
}

func (e *TakenError) Error() string {
	return fmt.Sprintf("the bus already has a source: %s, since %s; a bus has one source (one subscription, one budget): join it with --bus and no service credentials",
		e.Host, e.Since.UTC().Format(time.RFC3339))
}

// lockInfo is the lock's value and the heartbeat's: who the source is,
// since when, and (the heartbeat) its service clock.
type lockInfo struct {
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
	Now   time.Time `json:"now,omitzero"`
	// Badge is the source's screens' badge (PRODUCTION, LOCAL, SANDBOX):
	// a host's screens show the same.
	Badge string `json:"badge,omitempty"`
	// Gone is the source's last word as it stops: hosts refuse at once
	// instead of after sourceLost.
	Gone bool `json:"gone,omitempty"`
}

// Source publishes every answer its client receives (it is the client's
// second api.Recorder) and fetches, on its monitor, what the hosts want.
type Source struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	o      SourceOptions
	codec  *codec
	since  time.Time
	lock   jetstream.KeyValue
	rev    uint64
	queue  chan item
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	sub    *nats.Subscription

	mu    sync.Mutex
	mon   *feed.Monitor
	hosts map[string]*hostSub // by "<mode>.<host>"
	kv    map[api.Mode]jetstream.KeyValue
	unobs func()
	drops int
	badge string
}

// item is one thing to publish: an answer, or a failure's manifest.
type item struct {
	answer *api.Answer
	fail   *manifest
	mode   api.Mode
}

// hostSub is one host's wants in one mode: a subscription of the source's
// monitor whose replies nobody reads (the host reads the answers).
type hostSub struct {
	sub  *feed.Subscription
	last time.Time
}

// OpenSource takes the bus's source lock, makes its streams and buckets,
// and starts publishing. A second source gets a *TakenError.
func OpenSource(ctx context.Context, nc *nats.Conn, o SourceOptions) (*Source, error) {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.ChunkSize <= 0 {
		o.ChunkSize = int(nc.MaxPayload()) - chunkRoom
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	cd, err := newCodec()
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	s := &Source{nc: nc, js: js, o: o, codec: cd, since: time.Now().UTC(), kv: map[api.Mode]jetstream.KeyValue{},
		queue: make(chan item, 256), hosts: map[string]*hostSub{}}
	if err := s.takeLock(ctx); err != nil {
		return nil, err
	}
	if err := s.makeStreams(ctx); err != nil {
		_ = s.lock.Delete(ctx, lockKey)
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if s.sub, err = nc.Subscribe(subjWants+".*.*", s.wants); err != nil {
		s.Close()
		return nil, err
	}
	s.wg.Add(2)
	go s.publishing()
	go s.beating()
	return s, nil
}

// takeLock creates the lock key, or names who holds it.
func (s *Source) takeLock(ctx context.Context) error {
	kv, err := s.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: lockBucket, History: 1,
		TTL: lockTTL, Storage: jetstream.MemoryStorage})
	if err != nil {
		return fmt.Errorf("the bus's source lock: %w", err)
	}
	s.lock = kv
	rev, err := kv.Create(ctx, lockKey, encodeJSON(lockInfo{Host: s.o.Host, Since: s.since}))
	if err == nil {
		s.rev = rev
	}
	if errors.Is(err, jetstream.ErrKeyExists) {
		taken := &TakenError{Host: "another serve"}
		if e, gerr := kv.Get(ctx, lockKey); gerr == nil {
			var li lockInfo
			if json.Unmarshal(e.Value(), &li) == nil {
				if li.Host == s.o.Host && li.Since.Equal(s.since) {
					s.rev = e.Revision() // ours: an update that timed out had landed
					return nil
				}
				taken.Host, taken.Since = li.Host, li.Since
			}
		}
		return taken
	}
	if err != nil {
		return fmt.Errorf("the bus's source lock: %w", err)
	}
	return nil
}

// makeStreams makes each mode's answer stream (the latest body of each
// request, in parts), tape stream (every page for the window) and bucket
// (the latest answer's manifest per request, and failures).
func (s *Source) makeStreams(ctx context.Context) error {
	for _, m := range Modes {
		cfgs := []jetstream.StreamConfig{
			{Name: answerStream(m), Subjects: []string{subjAnswer + "." + string(m) + ".>"}, MaxMsgsPerSubject: 1,
				MaxAge: s.o.Window, AllowDirect: true, Storage: jetstream.FileStorage},
			{Name: tapeStream(m), Subjects: []string{subjTape + "." + string(m) + ".>"},
				MaxAge: s.o.Window, Storage: jetstream.FileStorage},
		}
		for _, c := range cfgs {
			if _, err := s.js.CreateOrUpdateStream(ctx, c); err != nil {
				return fmt.Errorf("the bus's stream %s: %w", c.Name, err)
			}
		}
		kv, err := s.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: answerBucket(m), History: 1,
			TTL: s.o.Window, Storage: jetstream.FileStorage})
		if err != nil {
			return fmt.Errorf("the bus's bucket %s: %w", answerBucket(m), err)
		}
		s.mu.Lock()
		s.kv[m] = kv
		s.mu.Unlock()
	}
	for _, c := range []jetstream.StreamConfig{usageStreamConfig(), s.alertsStreamConfig()} {
		if _, err := s.js.CreateOrUpdateStream(ctx, c); err != nil {
			return fmt.Errorf("the bus's stream %s: %w", c.Name, err)
		}
	}
	return nil
}

// bucket is m's bucket, nil when m is not relayed.
func (s *Source) bucket(m api.Mode) jetstream.KeyValue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kv[m]
}

// Record publishes a: the api.Recorder the source's client hands every
// answer to. It never blocks the request: past a full queue the answer is
// dropped (the next one of the feed replaces it anyway) and counted. The
// body is kept as it is (api.Recorder: the client never writes into it).
func (s *Source) Record(a api.Answer) {
	s.enqueue(item{answer: &a, mode: a.Mode})
}

func (s *Source) enqueue(it item) {
	select {
	case s.queue <- it:
	default:
		s.mu.Lock()
		s.drops++
		s.mu.Unlock()
	}
}

// Attach fetches the hosts' wants on mon (the desk's one monitor) and
// publishes its failed fetches, so a host shows the source's STALE.
func (s *Source) Attach(mon *feed.Monitor) {
	unobs := mon.Observe(s.observe)
	s.mu.Lock()
	s.mon, s.unobs = mon, unobs
	s.mu.Unlock()
}

// SetBadge sets the badge the heartbeat carries to the hosts' screens.
func (s *Source) SetBadge(b string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.badge = b
}

// Close stops publishing, drops the hosts' wants and lets the lock go.
func (s *Source) Close() {
	if s.cancel != nil {
		s.cancel()
	}
	if s.sub != nil {
		_ = s.sub.Unsubscribe()
	}
	s.wg.Wait()
	s.mu.Lock()
	for k, h := range s.hosts {
		h.sub.Close()
		delete(s.hosts, k)
	}
	if s.unobs != nil {
		s.unobs()
	}
	s.mu.Unlock()
	_ = s.nc.Publish(subjSource, encodeJSON(lockInfo{Host: s.o.Host, Since: s.since, Gone: true}))
	ctx, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	_ = s.lock.Delete(ctx, lockKey)
	_ = s.nc.FlushWithContext(ctx)
}
