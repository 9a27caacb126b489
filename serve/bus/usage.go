package bus

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The desk's usage ledger over the bus: OPRA has a distributor report
// every user and device that can see real-time data, so every host's
// sessions go into the source's one ledger. A host publishes each record
// to a work-queue stream, which keeps it until the source has appended it
// (a month at most), whether or not the source is up.
const (
	subjUsage    = "chainwatch.usage" // .<host>: one record (JSON)
	usageStream  = "CW_USAGE"
	usageKeep    = 31 * 24 * time.Hour
	usageTries   = 20 // a record the ledger refuses this often is dropped
	usageConsume = "ledger"
)

// usageStreamConfig is the usage stream's: each record once, to the
// source's one consumer.
func usageStreamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{Name: usageStream, Subjects: []string{subjUsage + ".>"},
		Retention: jetstream.WorkQueuePolicy, MaxAge: usageKeep, Storage: jetstream.FileStorage}
}

// UsageRelay is a host's side of the ledger.
type UsageRelay struct {
	js      jetstream.JetStream
	subject string
}

// UsageRelay is the relay of h's usage records to the source.
func (h *Host) UsageRelay() *UsageRelay {
	return &UsageRelay{js: h.js, subject: subjUsage + "." + h.o.Name}
}

// Publish sends one record (JSON) without waiting: while the bus is away
// the connection holds it and sends it on reconnecting.
func (r *UsageRelay) Publish(rec any) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = r.js.PublishAsync(r.subject, data)
	return err
}

// ConsumeUsage appends every record the hosts relay with add (the desk's
// file ledger), acknowledging it once appended; a record add fails is
// tried again later, usageTries times at most. It runs until Close.
func (s *Source) ConsumeUsage(add func(data []byte) error) error {
	ctx, stop := context.WithTimeout(s.ctx, 10*time.Second)
	defer stop()
	cons, err := s.js.CreateOrUpdateConsumer(ctx, usageStream, jetstream.ConsumerConfig{Durable: usageConsume,
		AckPolicy: jetstream.AckExplicitPolicy, MaxDeliver: usageTries, AckWait: 30 * time.Second})
	if err != nil {
		return err
	}
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		if err := add(msg.Data()); err != nil {
			s.o.Log.Warn("bus: a host's usage record not kept yet", "err", err)
			_ = msg.NakWithDelay(5 * time.Second)
			return
		}
		_ = msg.Ack()
	})
	if err != nil {
		return err
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		<-s.ctx.Done()
		cc.Stop()
	}()
	return nil
}
