package bus

import (
	"encoding/json"
	"fmt"
	"slices"
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

// sendWants publishes ws by mode, with att, when they changed, or
// always; false when nothing was sent.
func (h *Host) sendWants(ws []feed.Want, att feed.Attention, always bool) bool {
	by := map[api.Mode][]feed.Want{}
	for _, w := range ws {
		if w.Feed == feed.FeedJob || !slices.Contains(h.o.Modes, w.Query.Mode) {
			continue
		}
		w.Job = nil
		by[w.Query.Mode] = append(by[w.Query.Mode], w)
	}
	sent := false
	for _, m := range h.o.Modes {
		list := by[m]
		slices.SortFunc(list, func(a, b feed.Want) int { return compareKeys(a.Key(), b.Key()) })
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

func compareKeys(a, b feed.Key) int {
	x, y := fmt.Sprint(a), fmt.Sprint(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
