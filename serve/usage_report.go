package serve

import (
	"cmp"
	"math"
	"slices"
	"time"

	"chainwatch/api"
)

// KeyUsage is one key's month: what a desk reports to its data provider.
type KeyUsage struct {
	Key             string   `json:"key"`
	Sessions        int      `json:"sessions"`          // sessions open at any time in the month (screens and commands)
	RealTimeMinutes float64  `json:"real_time_minutes"` // minutes of those that could see real-time data, within the month
	Devices         int      `json:"devices"`           // distinct client addresses
	Hosts           []string `json:"hosts"`             // the serve hosts that ran them, sorted
	DeviceList      []string `json:"device_list"`       // the client addresses, sorted
}

// MonthBounds is the calendar month (Eastern) holding t: [start, end).
func MonthBounds(t time.Time) (start, end time.Time) {
	y, m, _ := t.In(api.Eastern).Date()
	start = time.Date(y, m, 1, 0, 0, 0, 0, api.Eastern)
	return start, start.AddDate(0, 1, 0)
}

// usageSession is one session put together from its records.
type usageSession struct {
	key, host, device string
	realTime          bool
	start, end        time.Time
	hasStart, hasEnd  bool
}

// Report is the month holding month (any instant in it; months are
// Eastern) per key, sorted by key. recs are the ledger's records in any
// order; they should be the month's and its neighbours' (UsageLedger.Month
// of the months before and after), since a session across a month's end
// has its start in one file and its end in the next. The arithmetic:
//
//   - A session counts in every month it was open in, so one across a
//     month's end counts in both, and its minutes are clipped to each.
//   - A session with an end and no start (it began before the records
//     given) is taken to have begun at the month's start.
//   - A session with a start and no end crashed with its host or is still
//     open. In the current month (now before the month's end) it runs to
//     now: it may be open, and a desk rather reports a minute too many.
//     In a past month it runs to the last record its host wrote (the last
//     moment the host is known to have been up), at least to its start.
//   - Real-time minutes are those of the sessions whose start or end
//     record says they could see real-time data, rounded to hundredths.
//   - Devices are the distinct client addresses, an unknown one ("") not
//     counted; a key's hosts are those its sessions ran on.
func Report(recs []UsageRecord, month time.Time, now time.Time) []KeyUsage {
	from, to := MonthBounds(month)
	byID := map[string]*usageSession{}
	lastOf := map[string]time.Time{} // each host's last record
	var order []string
	for _, r := range recs {
		if r.At.After(lastOf[r.Host]) {
			lastOf[r.Host] = r.At
		}
		s := byID[r.ID]
		if s == nil {
			s = &usageSession{key: r.Key, host: r.Host, device: r.Device}
			byID[r.ID] = s
			order = append(order, r.ID)
		}
		s.realTime = s.realTime || r.RealTime
		switch {
		case r.Event == UsageStart && (!s.hasStart || r.At.Before(s.start)):
			s.start, s.hasStart = r.At, true
		case r.Event == UsageEnd && (!s.hasEnd || r.At.After(s.end)):
			s.end, s.hasEnd = r.At, true
		}
	}
	keys := map[string]*keyTally{}
	for _, id := range order {
		s := byID[id]
		start, end := s.start, s.end
		if !s.hasStart {
			start = earliest(from, end)
		}
		if !s.hasEnd {
			end = lastOf[s.host]
			if now.Before(to) {
				end = now
			}
			end = latest(end, start)
		}
		// Open in the month: it began before the month's end and ended
		// after its start (a session of no length counts where it began).
		if !start.Before(to) || !(end.After(from) || !start.Before(from)) {
			continue
		}
		k := keys[s.key]
		if k == nil {
			k = &keyTally{hosts: map[string]bool{}, devices: map[string]bool{}}
			keys[s.key] = k
		}
		k.sessions++
		k.hosts[s.host] = true
		if s.device != "" {
			k.devices[s.device] = true
		}
		if s.realTime {
			k.realTime += earliest(end, to).Sub(latest(start, from))
		}
	}
	out := make([]KeyUsage, 0, len(keys))
	for name, k := range keys {
		out = append(out, KeyUsage{Key: name, Sessions: k.sessions,
			RealTimeMinutes: math.Round(k.realTime.Minutes()*100) / 100,
			Devices:         len(k.devices), Hosts: sortedKeys(k.hosts), DeviceList: sortedKeys(k.devices)})
	}
	slices.SortFunc(out, func(a, b KeyUsage) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

// keyTally is one key's sums while Report adds them up.
type keyTally struct {
	sessions int
	realTime time.Duration
	hosts    map[string]bool
	devices  map[string]bool
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
