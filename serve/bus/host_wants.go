package bus

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"chainwatch/api"
	"chainwatch/feed"
)

// Attach sends mon's wants to the source: at once when they change, and
// with every heartbeat, so the source keeps them.
func (h *Host) Attach(mon *feed.Monitor) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(beat / 4)
		defer t.Stop()
		last := time.Time{}
		for {
			every := time.Since(last) >= beat
			if h.sendWants(mon.Wants(), mon.Attention(), every) && every {
				last = time.Now()
			}
			select {
			case <-h.ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// sendWants publishes ws (Monitor.Wants: no job among them) by mode,
// with att, when they changed, or always; false when nothing was sent.
func (h *Host) sendWants(ws []feed.Want, att feed.Attention, always bool) bool {
	by := map[api.Mode][]feed.Want{}
	for _, w := range ws {
		if slices.Contains(h.o.Modes, w.Query.Mode) {
			by[w.Query.Mode] = append(by[w.Query.Mode], w)
		}
	}
	sent := false
	for _, m := range h.o.Modes {
		list := by[m]
		// The monitor's order is a map's: sorted, unchanged wants are
		// the same message.
		slices.SortFunc(list, func(a, b feed.Want) int { return strings.Compare(fmt.Sprint(a.Key()), fmt.Sprint(b.Key())) })
		data, err := json.Marshal(wantsMsg{Attention: att, Wants: list})
		if err != nil {
			continue
		}
		if !always && string(data) == h.lastSent[m] {
			continue
		}
		if len(list) == 0 && h.lastSent[m] == "" {
			continue // never wanted anything of m
		}
		if h.nc.Publish(subjWants+"."+string(m)+"."+h.o.Name, data) == nil {
			h.lastSent[m], sent = string(data), true
		}
	}
	return sent
}
