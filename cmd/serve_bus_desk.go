package cmd

import (
	"encoding/json"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model"
	"chainwatch/record"
)

// The desk's side of the bus, once it runs (serve_bus.go opens it).

// attach puts the desk on the bus: a source fetches the hosts' wants on
// its monitor, publishes its failures and its own alert rules' events; a
// host sends its wants and logs the source's alert events.
func (b *deskBus) attach(d *desk, cfg model.Config) {
	if b == nil {
		return
	}
	d.host = b.name // two serves on one machine are two hosts of the desk's ledger
	if b.source != nil {
		b.mu.Lock()
		b.now = cfg.Now
		b.mu.Unlock()
		b.source.SetBadge(cfg.Source)
		b.source.Attach(d.mon)
		if d.server != nil {
			go b.relayAlerts(d)
		}
	}
	if b.host != nil {
		b.host.Attach(d.mon)
		b.host.FollowAlerts(func(data []byte) {
			var ev alert.Event
			if json.Unmarshal(data, &ev) == nil {
				d.log.Info("desk alert fired on the source", "rule", ev.Rule, "event", ev.Text)
			}
		})
	}
}

// relayAlerts publishes the events of the source's own rules until the
// bus closes.
func (b *deskBus) relayAlerts(d *desk) {
	sub := d.mon.Subscribe()
	defer sub.Close()
	sub.Set(feed.Attention{Idle: true}) // it shows nothing
	for {
		msg, ok := sub.Next(b.ctx)
		if !ok {
			return
		}
		if m, ok := msg.(alert.FiredMsg); ok && m.From == d.server {
			for _, ev := range m.Events {
				if err := b.source.PublishAlert(ev); err != nil {
					d.log.Warn("bus: an alert event not published", "err", err)
				}
			}
		}
	}
}

// withRecorders are the client's recorders: the flight recorder and a
// second one (the bus's source), each optional.
func withRecorders(rec *record.Recorder, extra api.Recorder) []api.Option {
	switch {
	case extra == nil:
		return withRecorder(rec)
	case rec == nil:
		return []api.Option{api.WithRecorder(extra)}
	}
	return []api.Option{api.WithRecorder(teeRecorder{rec, extra})}
}

// teeRecorder hands every answer to both.
type teeRecorder [2]api.Recorder

func (t teeRecorder) Record(a api.Answer) {
	t[0].Record(a)
	t[1].Record(a)
}
