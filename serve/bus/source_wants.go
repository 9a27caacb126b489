package bus

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"chainwatch/api"
	"chainwatch/feed"
)

// wants sets a host's wants on the monitor: chainwatch.wants.<mode>.<host>.
// Only wants of the subject's mode count: the subject is what the host's
// permissions allow, so a host cannot ask for a mode it may not run.
func (s *Source) wants(msg *nats.Msg) {
	parts := strings.Split(msg.Subject, ".")
	if len(parts) != 4 {
		return
	}
	mode := api.Mode(parts[2])
	att, ws, err := decodeWants(msg.Data)
	if err != nil {
		s.o.Log.Warn("bus: a host's wants do not decode", "host", parts[3], "err", err)
		return
	}
	keep := ws[:0]
	for _, w := range ws {
		if w.Feed != feed.FeedJob && w.Query.Mode == mode {
			w.Job = nil
			keep = append(keep, w)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mon == nil {
		return
	}
	k := parts[2] + "." + parts[3]
	h := s.hosts[k]
	if h == nil {
		h = &hostSub{sub: s.mon.Subscribe()}
		s.hosts[k] = h
		s.o.Log.Info("bus: host joined", "host", parts[3], "mode", mode)
		go drain(s.ctx, h.sub)
	}
	h.last = time.Now()
	h.sub.Set(att, keep...)
}

// wantsMsg is a host's wants in one mode, with whether anybody on the
// host looks at them (feed.Monitor.Attention).
type wantsMsg struct {
	Attention feed.Attention `json:"attention"`
	Wants     []feed.Want    `json:"wants"`
}

// decodeWants reads a wants message. A bare list is a host of the first
// version, which sent no attention: it counts as looked at.
func decodeWants(data []byte) (feed.Attention, []feed.Want, error) {
	var m wantsMsg
	if err := json.Unmarshal(data, &m); err == nil {
		return m.Attention, m.Wants, nil
	}
	var ws []feed.Want
	if err := json.Unmarshal(data, &ws); err != nil {
		return feed.Attention{}, nil, err
	}
	return feed.Attention{Focused: true}, ws, nil
}

// drain empties a host's mailbox: the host reads the answers from the
// bus, not the replies.
func drain(ctx context.Context, sub *feed.Subscription) {
	for {
		if _, ok := sub.Next(ctx); !ok {
			return
		}
	}
}

// observe publishes a failed fetch of the monitor (a host's screen then
// says what the source's says).
func (s *Source) observe(msg any) {
	r, ok := msg.(feed.Reply)
	if !ok {
		return
	}
	resp, at, err := r.Answer()
	if err == nil || errors.Is(err, context.Canceled) {
		return
	}
	q := r.Asked()
	ep := endpointOf(msg)
	if resp != nil && resp.Endpoint != 0 {
		ep = resp.Endpoint
	}
	if ep == 0 || q.Mode == "" {
		return
	}
	sym := q.Symbol
	switch msg.(type) {
	case feed.QuotesMsg, feed.EventsMsg:
		sym = "" // one request for the watchlist's symbols
	}
	s.enqueue(item{fail: &manifest{Endpoint: ep, Symbol: sym, At: at, Err: err.Error()}, mode: q.Mode})
}

// endpointOf is the endpoint a failed reply's feed asks, when the reply
// carries no response.
func endpointOf(msg any) api.Endpoint {
	switch msg.(type) {
	case feed.ChainMsg, feed.TermMsg, feed.ContractQuoteMsg:
		return api.EndpointOptionQuotes
	case feed.TapeMsg:
		return api.EndpointOptionTrades
	case feed.CalendarMsg, feed.EventsMsg:
		return api.EndpointCalendar
	case feed.QuotesMsg:
		return api.EndpointUnderlyingQuotes
	case feed.ContractTradesMsg, feed.TapeGreeksMsg:
		return api.EndpointTradesWithGreeks
	case feed.ContractTAQMsg:
		return api.EndpointTradesAndQuotes
	}
	return 0
}
