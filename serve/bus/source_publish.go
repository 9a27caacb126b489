package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"chainwatch/api"
)

// publishing publishes the queue, one item at a time, until Close: a body
// in parts, acknowledged, then its manifest; a tape page on the tape
// stream; a failure's manifest.
func (s *Source) publishing() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case it := <-s.queue:
			if !s.nc.IsConnected() {
				// Waiting for the bus would hold every later answer
				// behind this one; a host away with the bus catches up
				// on the next answer of each feed.
				s.mu.Lock()
				s.drops++
				s.mu.Unlock()
				continue
			}
			var err error
			switch {
			case it.fail != nil:
				err = s.putFail(it.mode, *it.fail)
			case it.answer.Family != "":
				err = s.publishPage(it.mode, *it.answer)
			default:
				err = s.publishAnswer(it.mode, *it.answer)
			}
			if err != nil && s.ctx.Err() == nil {
				s.o.Log.Warn("bus: not published", "err", err)
			}
		}
	}
}

// publishAnswer puts a's body, compressed, in parts on its subject by
// mode, endpoint and symbol, waits for the stream to keep them, then puts
// its manifest in the bucket: a host that sees the manifest finds them.
func (s *Source) publishAnswer(mode api.Mode, a api.Answer) error {
	kv := s.bucket(mode)
	if kv == nil {
		return fmt.Errorf("mode %q is not relayed", mode)
	}
	body := s.codec.compress(a.Body)
	parts := split(body, s.o.ChunkSize)
	if len(parts) > maxParts {
		return fmt.Errorf("%s answer of %d bytes: too large to relay", a.Endpoint, len(a.Body))
	}
	sym := symbolOf(a.Query)
	m := manifest{Key: a.Key, Endpoint: a.Endpoint, Symbol: sym, Status: a.Status, At: a.At, Cost: a.Cost,
		ID: nuid.Next(), Parts: len(parts),
		Subject: subjAnswer + "." + string(mode) + "." + token(a.Endpoint.String()) + "." + token(sym) + "." + keyHash(a.Key)}
	acks := make([]jetstream.PubAckFuture, 0, len(parts))
	for i, p := range parts {
		msg := nats.NewMsg(m.Subject + "." + strconv.Itoa(i))
		msg.Header.Set(hdrID, m.ID)
		msg.Header.Set(hdrPart, strconv.Itoa(i)+"/"+strconv.Itoa(len(parts)))
		msg.Data = p
		f, err := s.js.PublishMsgAsync(msg)
		if err != nil {
			return err
		}
		acks = append(acks, f)
	}
	if err := waitAcks(s.ctx, acks); err != nil {
		return err
	}
	ctx, stop := context.WithTimeout(s.ctx, 10*time.Second)
	defer stop()
	_, err := kv.Put(ctx, answerKVKey(a.Key), encodeJSON(m))
	return err
}

// publishPage puts a tape page on the tape stream in one message, not in
// parts: a page is one request's trades, which the service's page size
// bounds; one that compresses past a message's room is refused.
func (s *Source) publishPage(mode api.Mode, a api.Answer) error {
	body := s.codec.compress(a.Body)
	if len(body) > s.o.ChunkSize {
		return fmt.Errorf("a tape page of %d bytes compressed: too large to relay", len(body))
	}
	m := manifest{Key: a.Key, Family: a.Family, Endpoint: a.Endpoint, Symbol: symbolOf(a.Query), Status: a.Status, At: a.At, Cost: a.Cost}
	msg := nats.NewMsg(subjTape + "." + string(mode) + "." + token(m.Symbol))
	hm, _ := json.Marshal(m)
	msg.Header.Set(hdrManifest, string(hm))
	msg.Data = body
	f, err := s.js.PublishMsgAsync(msg)
	if err != nil {
		return err
	}
	return waitAcks(s.ctx, []jetstream.PubAckFuture{f})
}

// putFail puts a failed fetch in the bucket, by endpoint and symbol.
func (s *Source) putFail(mode api.Mode, m manifest) error {
	kv := s.bucket(mode)
	if kv == nil {
		return nil
	}
	ctx, stop := context.WithTimeout(s.ctx, 10*time.Second)
	defer stop()
	_, err := kv.Put(ctx, failKey(m.Endpoint.String(), m.Symbol), encodeJSON(m))
	return err
}

// waitAcks waits for the stream to keep every message, at most 10 s.
func waitAcks(ctx context.Context, acks []jetstream.PubAckFuture) error {
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	for _, f := range acks {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return err
		case <-t.C:
			return errors.New("the bus did not keep an answer within 10s")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// beating sends the heartbeat (who the source is, its service clock),
// keeps the lock and drops the wants of hosts gone silent, every second.
func (s *Source) beating() {
	defer s.wg.Done()
	t := time.NewTicker(beat)
	defer t.Stop()
	for {
		s.beat()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// retake takes the lock again after it lapsed (the bus was away longer
// than its TTL, or restarted without its store: then the streams are made
// again too), unless another source took it meanwhile.
func (s *Source) retake() {
	ctx, stop := context.WithTimeout(s.ctx, 5*time.Second)
	defer stop()
	err := s.takeLock(ctx)
	var taken *TakenError
	switch {
	case errors.As(err, &taken):
		s.o.Log.Error("bus: another source took the bus while this one was away", "source", taken.Host)
	case err == nil:
		if err := s.makeStreams(ctx); err != nil {
			s.o.Log.Warn("bus: streams", "err", err)
		}
	}
}

func (s *Source) beat() {
	li := lockInfo{Host: s.o.Host, Since: s.since}
	s.mu.Lock()
	badge := s.badge
	s.mu.Unlock()
	_ = s.nc.Publish(subjSource, encodeJSON(lockInfo{Host: s.o.Host, Since: s.since, Now: s.o.Clock(), Badge: badge}))
	ctx, stop := context.WithTimeout(s.ctx, beat)
	defer stop()
	rev, err := s.lock.Update(ctx, lockKey, encodeJSON(li), s.rev)
	if err == nil {
		s.rev = rev
	} else if s.nc.IsConnected() {
		s.retake()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, h := range s.hosts {
		if time.Since(h.last) > hostLost {
			h.sub.Close()
			delete(s.hosts, k)
			s.o.Log.Info("bus: host left", "host", k)
		}
	}
	if s.drops > 0 {
		s.o.Log.Warn("bus: answers dropped, the bus was behind", "answers", s.drops)
		s.drops = 0
	}
}
