package bus

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"chainwatch/api"
)

// HostOptions are a host's: a serve on the bus without the service's
// credentials, which takes every answer from the bus.
type HostOptions struct {
	Name   string     // the host's name on the bus (its wants' subject)
	Modes  []api.Mode // the modes its credentials may run; default both
	Window time.Duration
	Log    *slog.Logger
}

// Host mirrors the bus's answers into memory and answers its client's
// requests from them (api.Replay): its monitor, sessions, generations,
// STALE and badges are a local serve's.
type Host struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	o      HostOptions
	codec  *codec
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	sub    *nats.Subscription

	mu       sync.Mutex
	answers  map[api.Mode]map[string]held      // by request key: the latest
	pages    map[api.Mode]map[string][]held    // by family: the tape's pages, oldest first
	fails    map[api.Mode]map[string]manifest  // by failKey: the source's latest failure
	okAt     map[api.Mode]map[string]time.Time // by failKey: the latest answer's time
	changed  chan struct{}                     // closed and replaced when anything arrives
	beatAt   time.Time                         // when the source's heartbeat was last heard
	source   lockInfo
	offset   time.Duration       // the source's service clock less this machine's
	lastSent map[api.Mode]string // the wants last sent (Attach's goroutine only)
	pruned   map[api.Mode]time.Time
}

// OpenHost starts mirroring the bus (the source may come later: the
// mirror keeps trying) and hearing the source's heartbeat.
func OpenHost(nc *nats.Conn, o HostOptions) (*Host, error) {
	if len(o.Modes) == 0 {
		o.Modes = Modes
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	o.Name = token(o.Name)
	cd, err := newCodec()
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	h := &Host{nc: nc, js: js, o: o, codec: cd, changed: make(chan struct{}),
		answers: map[api.Mode]map[string]held{}, pages: map[api.Mode]map[string][]held{},
		fails: map[api.Mode]map[string]manifest{}, okAt: map[api.Mode]map[string]time.Time{}, lastSent: map[api.Mode]string{}, pruned: map[api.Mode]time.Time{}}
	for _, m := range o.Modes {
		h.answers[m], h.pages[m], h.fails[m] = map[string]held{}, map[string][]held{}, map[string]manifest{}
		h.okAt[m] = map[string]time.Time{}
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	if h.sub, err = nc.Subscribe(subjSource, h.heard); err != nil {
		return nil, err
	}
	for _, m := range o.Modes {
		h.wg.Add(2)
		go h.keep(m, h.mirror)
		go h.keep(m, h.tape)
	}
	return h, nil
}

// held is an answer on the host, with the symbol the source filed it
// under (its failures are filed by endpoint and symbol).
type held struct {
	api.Answer
	symbol string
	got    time.Time // when it came
}

// Close stops the mirror and the wants.
func (h *Host) Close() {
	h.cancel()
	_ = h.sub.Unsubscribe()
	h.wg.Wait()
}

// Now is the source's service clock: the host's screens keep its time.
func (h *Host) Now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return time.Now().Add(h.offset)
}

// Badge waits for the source's heartbeat, at most until ctx ends: the
// badge of its screens, which the host's show; "" when none came.
func (h *Host) Badge(ctx context.Context) string {
	for {
		h.mu.Lock()
		badge, heard, ch := h.source.Badge, !h.beatAt.IsZero(), h.changed
		h.mu.Unlock()
		if heard {
			return badge
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ""
		}
	}
}

// heard is the source's heartbeat.
func (h *Host) heard(msg *nats.Msg) {
	var li lockInfo
	if json.Unmarshal(msg.Data, &li) != nil {
		return
	}
	h.mu.Lock()
	h.beatAt, h.source = time.Now(), li
	if !li.Now.IsZero() {
		h.offset = time.Until(li.Now)
	}
	h.notifyLocked()
	h.mu.Unlock()
}

func (h *Host) notifyLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// keep runs f for m until Close, again a second after it fails (the
// source has not made its streams yet, the bus is away).
func (h *Host) keep(m api.Mode, f func(api.Mode) error) {
	defer h.wg.Done()
	for h.ctx.Err() == nil {
		if err := f(m); err != nil && h.ctx.Err() == nil {
			h.o.Log.Debug("bus: mirror", "mode", m, "err", err)
		}
		select {
		case <-h.ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// mirror follows the mode's bucket: every manifest (the latest answer per
// request, a failure), and each answer's body from the answer stream.
func (h *Host) mirror(m api.Mode) error {
	kv, err := h.js.KeyValue(h.ctx, answerBucket(m))
	if err != nil {
		return err
	}
	st, err := h.js.Stream(h.ctx, answerStream(m))
	if err != nil {
		return err
	}
	w, err := kv.WatchAll(h.ctx)
	if err != nil {
		return err
	}
	defer func() { _ = w.Stop() }()
	for e := range w.Updates() {
		if e == nil || e.Operation() != jetstream.KeyValuePut {
			continue
		}
		var man manifest
		if json.Unmarshal(e.Value(), &man) != nil {
			continue
		}
		if man.Err != "" {
			h.mu.Lock()
			h.fails[m][e.Key()] = man
			h.notifyLocked()
			h.mu.Unlock()
			continue
		}
		body, err := h.body(st, man)
		if err != nil {
			continue // a newer answer replaced its parts meanwhile: its manifest follows
		}
		h.mu.Lock()
		h.answers[m][man.Key] = held{answerOf(man, m, body), man.Symbol, time.Now()}
		if fk := failKey(man.Endpoint.String(), man.Symbol); man.At.After(h.okAt[m][fk]) {
			h.okAt[m][fk] = man.At
		}
		h.pruneLocked(m)
		h.notifyLocked()
		h.mu.Unlock()
	}
	return h.ctx.Err()
}

// pruneLocked forgets, once a minute (or a window), the answers that came longer ago
// than the window (the bus has dropped them too): the screens asked for
// other contracts and symbols since. A failure is one per endpoint and
// symbol: they are few.
func (h *Host) pruneLocked(m api.Mode) {
	if time.Since(h.pruned[m]) < min(time.Minute, h.o.Window) {
		return
	}
	h.pruned[m] = time.Now()
	old := time.Now().Add(-h.o.Window)
	maps.DeleteFunc(h.answers[m], func(_ string, a held) bool { return a.got.Before(old) })
}

// body fetches and joins m's parts.
func (h *Host) body(st jetstream.Stream, m manifest) ([]byte, error) {
	if m.Parts < 1 || m.Parts > maxParts {
		return nil, fmt.Errorf("%d parts", m.Parts)
	}
	var comp []byte
	for i := range m.Parts {
		ctx, stop := context.WithTimeout(h.ctx, 10*time.Second)
		msg, err := st.GetLastMsgForSubject(ctx, fmt.Sprintf("%s.%d", m.Subject, i))
		stop()
		if err != nil {
			return nil, err
		}
		if msg.Header.Get(hdrID) != m.ID {
			return nil, fmt.Errorf("part %d replaced", i)
		}
		comp = append(comp, msg.Data...)
	}
	return h.codec.decompress(comp)
}

// tape follows the mode's tape stream from its start (the window): every
// page, kept by family until it is older than the window.
func (h *Host) tape(m api.Mode) error {
	cons, err := h.js.OrderedConsumer(h.ctx, tapeStream(m), jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		var man manifest
		if json.Unmarshal([]byte(msg.Headers().Get(hdrManifest)), &man) != nil || man.Family == "" {
			return
		}
		body, err := h.codec.decompress(msg.Data())
		if err != nil {
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		old := time.Now().Add(-h.o.Window)
		ps := slices.DeleteFunc(h.pages[m][man.Family], func(p held) bool { return p.got.Before(old) })
		h.pages[m][man.Family] = append(ps, held{answerOf(man, m, body), man.Symbol, time.Now()})
		h.notifyLocked()
	})
	if err != nil {
		return err
	}
	<-h.ctx.Done()
	cc.Stop()
	return nil
}
