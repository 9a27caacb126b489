package cmd

import (
	"encoding/json"

	"chainwatch/serve"
	"chainwatch/serve/bus"
)

// usage is the desk's usage sink on the bus (serve/bus/usage.go): a host
// relays its sessions' records to the source, and the source appends
// them, with its own, to its ledger (sink): one ledger for the desk's
// report, whichever host a trader used. Off the bus it is sink.
func (b *deskBus) usage(sink serve.UsageSink) serve.UsageSink {
	switch {
	case b == nil:
		return sink
	case b.host != nil:
		return usageRelay{b.host.UsageRelay()}
	case b.source != nil && sink != nil:
		err := b.source.ConsumeUsage(func(data []byte) error {
			var r serve.UsageRecord
			if err := json.Unmarshal(data, &r); err != nil {
				return err
			}
			return sink.Append(r)
		})
		if err != nil {
			b.log.Warn("bus: the hosts' sessions are not recorded for the usage report", "err", err)
		}
	}
	return sink
}

// usageRelay is a host's sink: each record published to the source.
type usageRelay struct{ r *bus.UsageRelay }

func (u usageRelay) Append(r serve.UsageRecord) error { return u.r.Publish(r) }
