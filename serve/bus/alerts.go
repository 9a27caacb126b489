package bus

import (
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"

	"chainwatch/api"
)

// The desk's alert events (the source's own rules, [[alert]] of its
// config file) go on a stream kept for the window: every host's log has
// them too, and a host that joins or reconnects reads the window's.
const (
	subjAlert    = "chainwatch.alert"
	alertsStream = "CW_ALERTS"
)

func (s *Source) alertsStreamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{Name: alertsStream, Subjects: []string{subjAlert},
		MaxAge: s.o.Window, Storage: jetstream.FileStorage}
}

// PublishAlert puts one alert event (JSON) on the stream, without
// waiting.
func (s *Source) PublishAlert(ev any) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	_, err = s.js.PublishAsync(subjAlert, data)
	return err
}

// FollowAlerts calls f with every alert event on the stream, the
// window's first, then each as it comes, until Close; f runs on one
// goroutine, in order.
func (h *Host) FollowAlerts(f func(data []byte)) {
	h.wg.Add(1)
	go h.keep("", func(api.Mode) error {
		cons, err := h.js.OrderedConsumer(h.ctx, alertsStream, jetstream.OrderedConsumerConfig{})
		if err != nil {
			return err
		}
		it, err := cons.Messages()
		if err != nil {
			return err
		}
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-h.ctx.Done():
			case <-done:
			}
			it.Stop()
		}()
		for {
			msg, err := it.Next()
			if err != nil {
				return err
			}
			f(msg.Data())
		}
	})
}
