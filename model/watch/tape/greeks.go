package tape

// The selected print's contract (enter opens its page) and the tape's
// IV, delta and premium columns.

import (
	"math"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/ui"
)

// greeksState is the tape's IV, delta and premium columns: shown or not,
// and how far each contract's trades have had their greeks fetched. The
// premium needs no fetch (price x size x 100); IV and delta come from
// option-trades-with-greeks, one contract per request, for the contracts
// on screen only, so a busy tape costs what the budget allows and no
// more.
type greeksState struct {
	on      bool
	refused bool             // the account is not entitled: no more requests
	note    string           // why IV and delta stay dashes, for the title
	done    map[string]int64 // per contract, the highest sequence number asked for
}

func (g *greeksState) reset() {
	clear(g.done)
}

// GreeksOn reports whether the columns are shown.
func (t *Model) GreeksOn() bool { return t.greeks.on }

// GreeksWanted reports whether the tape's greeks feed should be polled:
// the columns are shown and the account may have them.
func (t *Model) GreeksWanted() bool { return t.greeks.on && !t.greeks.refused }

// NextGreeks picks the contract whose greeks to fetch next, among the
// contracts on screen (newest print first, at most
// config.TapeGreeksMaxContracts of them) with a print not yet asked for:
// the selected print's contract (the tape focused), else the ladder's
// selected contract (prefer, an OSI symbol; "" none), else the one with the most such prints
// on screen (the newest on a tie). One request covers a contract's
// prints, and the budget allows one every few seconds while a busy tape
// brings several prints a second: asking for the contract that fills
// the most dashes is what keeps the column filled. from and minTime are
// that contract's oldest such print held. ok is false when every
// visible print has been asked for.
func (t *Model) NextGreeks(prefer string) (osi api.OSI, from int64, minTime api.TimeOfDay, ok bool) {
	if !t.GreeksWanted() {
		return osi, 0, 0, false
	}
	var keys [config.TapeGreeksMaxContracts]api.OSI
	var counts [config.TapeGreeksMaxContracts]int
	seen, best := 0, -1
	for i := range t.vis {
		v := &t.vis[i]
		o := api.OSI{Root: v.Root, Expiry: v.Expiry, Type: v.Type, StrikeMilli: int64(math.Round(v.Strike * 1000))}
		k := slotOf(keys[:], &seen, o)
		if k < 0 {
			continue
		}
		if v.SeqNo <= t.greeks.done[o.String()] || !math.IsNaN(v.IV) {
			continue
		}
		counts[k]++
		switch {
		case t.Focused && i == t.cur:
			counts[k] += 2 * len(t.vis) // the selected print's contract first
		case prefer != "" && counts[k] == 1 && o.String() == prefer:
			counts[k] += len(t.vis) // then the ladder's
		}
		if best < 0 || counts[k] > counts[best] {
			best = k
		}
	}
	if best < 0 {
		return osi, 0, 0, false
	}
	o := keys[best]
	from, minTime = t.oldestAfter(o, t.greeks.done[o.String()])
	return o, from, minTime, true
}

// slotOf is o's index among keys[:*seen], added when new; -1 when keys
// are full.
func slotOf(keys []api.OSI, seen *int, o api.OSI) int {
	for k := range *seen {
		if keys[k] == o {
			return k
		}
	}
	if *seen == len(keys) {
		return -1
	}
	keys[*seen] = o
	*seen++
	return *seen - 1
}

// oldestAfter is the oldest held print of o past sequence number done,
// and its time: one request from it covers every such print.
func (t *Model) oldestAfter(o api.OSI, done int64) (from int64, minTime api.TimeOfDay) {
	from = math.MaxInt64
	for j := range t.r.len() {
		e := t.r.at(j)
		if e.tr.SeqNo > done && e.tr.SeqNo < from && e.tr.Root == o.Root && e.tr.Expiry == o.Expiry &&
			e.tr.Type == o.Type && e.strikeMilli == o.StrikeMilli {
			from, minTime = e.tr.SeqNo, e.tr.Time
		}
	}
	return from, minTime
}

// ApplyGreeks fills the IV and delta of the held prints a reply names,
// by sequence number. A refusal for want of the subscription stops the
// columns' requests and says so in the title.
func (t *Model) ApplyGreeks(m feed.TapeGreeksMsg) bool {
	ok := t.applyGreeks(m)
	t.layout()
	return ok
}

func (t *Model) applyGreeks(m feed.TapeGreeksMsg) bool {
	if m.Query.Gen != t.q.Gen {
		return false
	}
	if feed.NotEntitled(m.Err) {
		t.greeks.refused, t.greeks.note = true, "IV, delta need OPRA"
		return true
	}
	if m.Err != nil && !api.IsNoData(m.Err) {
		return true // the scheduler backs off; the next pick asks again
	}
	if t.greeks.done == nil {
		t.greeks.done = map[string]int64{}
	}
	asked := m.From
	byseq := make(map[int64]int, len(m.Trades))
	for i := range m.Trades {
		byseq[m.Trades[i].SequenceNumber] = i
		asked = max(asked, m.Trades[i].SequenceNumber)
	}
	o, err := api.ParseOSI(m.OSI)
	if err != nil {
		return false
	}
	for j := range t.r.len() {
		e := t.r.at(j)
		if e.tr.Root != o.Root || e.tr.Expiry != o.Expiry || e.tr.Type != o.Type || e.strikeMilli != o.StrikeMilli {
			continue
		}
		if e.tr.SeqNo >= m.From {
			asked = max(asked, e.tr.SeqNo) // held when asked: its greeks came, or there are none
			e.tr.GreeksAsked = true
		}
		if i, ok := byseq[e.tr.SeqNo]; ok && m.Trades[i].Size == e.tr.Size {
			// The print's own IV replaces its quote's; the service's null
			// (no bid, too wide) does not erase the quote's.
			if iv := api.OrNaN(m.Trades[i].IV); !math.IsNaN(iv) || !e.tr.IVQuote {
				e.tr.IV, e.tr.Delta, e.tr.IVQuote = iv, api.OrNaN(m.Trades[i].Delta), false
			}
		}
	}
	t.greeks.done[m.OSI] = max(t.greeks.done[m.OSI], asked)
	return true
}

// SelectedOSI is the contract of the selected print ("" when the tape
// shows none), for enter to open its page: the row the user sees
// highlighted, as the last View drew it.
func (t *Model) SelectedOSI() string {
	if t.cur >= len(t.vis) {
		return ""
	}
	tr := &t.vis[t.cur]
	o := api.OSI{Root: tr.Root, Expiry: tr.Expiry, Type: tr.Type, StrikeMilli: int64(math.Round(tr.Strike * 1000))}
	if _, err := api.ParseOSI(o.String()); err != nil {
		return ""
	}
	return o.String()
}

// Selected is the selected print, as SelectedOSI's.
func (t *Model) Selected() (ui.TapeTrade, bool) {
	if t.cur >= len(t.vis) {
		return ui.TapeTrade{}, false
	}
	return t.vis[t.cur], true
}

// GreeksFilled counts the held prints whose IV has arrived.
func (t *Model) GreeksFilled() int {
	n := 0
	for i := range t.r.len() {
		if !math.IsNaN(t.r.at(i).tr.IV) {
			n++
		}
	}
	return n
}
