package serve

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"chainwatch/api"
)

// usageSess is a session's two records (no end when end is zero).
func usageSess(id, key, host, device string, realTime bool, start, end time.Time) []UsageRecord {
	r := UsageRecord{Event: UsageStart, ID: id, Key: key, Host: host, Device: device, Kind: UsageCommand, RealTime: realTime, At: start}
	out := []UsageRecord{r}
	if !end.IsZero() {
		r.Event, r.At = UsageEnd, end
		out = append(out, r)
	}
	return out
}

func join(parts ...[]UsageRecord) []UsageRecord {
	var out []UsageRecord
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func byKey(rep []KeyUsage) map[string]KeyUsage {
	m := map[string]KeyUsage{}
	for _, k := range rep {
		m[k.Key] = k
	}
	return m
}

func TestReportDevicesAndRealTime(t *testing.T) {
	recs := join(
		usageSess("a1", "bob", "desk1", "10.0.0.7", true, usageAt(2, 10, 0), usageAt(2, 10, 30)),
		usageSess("a2", "bob", "desk2", "10.0.0.7", false, usageAt(2, 11, 0), usageAt(2, 13, 0)), // delayed: no minutes
		usageSess("a3", "bob", "desk1", "10.0.0.9", true, usageAt(5, 9, 30), usageAt(5, 9, 45)),
		usageSess("b1", "alice", "desk1", "", true, usageAt(7, 9, 30), usageAt(7, 9, 31)),
	)
	now := usageAt(28, 12, 0)
	rep := Report(recs, usageAt(15, 0, 0), now)
	want := []KeyUsage{
		{Key: "alice", Sessions: 1, RealTimeMinutes: 1, Devices: 0, Hosts: []string{"desk1"}, DeviceList: []string{}},
		{Key: "bob", Sessions: 3, RealTimeMinutes: 45, Devices: 2, Hosts: []string{"desk1", "desk2"}, DeviceList: []string{"10.0.0.7", "10.0.0.9"}},
	}
	if !reflect.DeepEqual(rep, want) {
		t.Fatalf("report\n%+v\nwant\n%+v", rep, want)
	}
	if rep := Report(recs, usageAt(1, 0, 0).AddDate(0, -1, 0), now); len(rep) != 0 {
		t.Fatalf("October: %+v; want no key", rep)
	}
}

// A session across a month's end counts in both months, its minutes
// clipped to each; one whose start was before the records read counts
// from the month's start.
func TestReportMonthClip(t *testing.T) {
	nov30 := time.Date(2026, 11, 30, 23, 0, 0, 0, api.Eastern)
	dec1 := time.Date(2026, 12, 1, 1, 30, 0, 0, api.Eastern)
	recs := usageSess("x", "carol", "desk1", "10.0.0.1", true, nov30, dec1)
	now := time.Date(2027, 1, 5, 0, 0, 0, 0, api.Eastern)
	nov := byKey(Report(recs, usageAt(10, 0, 0), now))["carol"]
	dec := byKey(Report(recs, dec1, now))["carol"]
	if nov.Sessions != 1 || nov.RealTimeMinutes != 60 || dec.Sessions != 1 || dec.RealTimeMinutes != 90 {
		t.Fatalf("November %+v, December %+v; want one session in each, 60 and 90 minutes", nov, dec)
	}
	// November 1st, 2026 is the night daylight time ends: midnight EDT to
	// 03:00 EST is four hours.
	endOnly := []UsageRecord{{Event: UsageEnd, ID: "y", Key: "carol", Host: "desk1", RealTime: true, At: usageAt(1, 3, 0)}}
	if k := byKey(Report(endOnly, usageAt(1, 0, 0), now))["carol"]; k.Sessions != 1 || k.RealTimeMinutes != 240 {
		t.Fatalf("an end without its start: %+v; want one session of 240 minutes from the month's start", k)
	}
	// The month is Eastern: 00:30 on December 1st in UTC is November.
	utc := usageSess("z", "dave", "desk1", "", true, time.Date(2026, 12, 1, 0, 30, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 40, 0, 0, time.UTC))
	if k := byKey(Report(utc, usageAt(10, 0, 0), now))["dave"]; k.Sessions != 1 || k.RealTimeMinutes != 10 {
		t.Fatalf("a session at 00:30 UTC on December 1st: %+v; want it in November", k)
	}
}

// A session with a start and no end runs to now in the current month,
// and to its host's last record in a past one.
func TestReportOpenSession(t *testing.T) {
	recs := join(
		usageSess("open", "erin", "desk1", "10.0.0.2", true, usageAt(3, 10, 0), time.Time{}),
		usageSess("later", "frank", "desk1", "10.0.0.3", false, usageAt(3, 12, 0), usageAt(3, 12, 15)),
		usageSess("other", "frank", "desk2", "10.0.0.3", false, usageAt(20, 12, 0), usageAt(20, 12, 5)),
	)
	current := byKey(Report(recs, usageAt(3, 0, 0), usageAt(3, 10, 20)))["erin"]
	if current.Sessions != 1 || current.RealTimeMinutes != 20 {
		t.Fatalf("current month: %+v; want one session of 20 minutes (to now)", current)
	}
	past := byKey(Report(recs, usageAt(3, 0, 0), time.Date(2027, 2, 1, 0, 0, 0, 0, api.Eastern)))["erin"]
	if past.Sessions != 1 || past.RealTimeMinutes != 135 {
		t.Fatalf("past month: %+v; want one session of 135 minutes (to desk1's last record, not desk2's)", past)
	}
	alone := usageSess("alone", "gina", "desk3", "", true, usageAt(4, 10, 0), time.Time{})
	if k := byKey(Report(alone, usageAt(4, 0, 0), time.Date(2027, 2, 1, 0, 0, 0, 0, api.Eastern)))["gina"]; k.Sessions != 1 || k.RealTimeMinutes != 0 {
		t.Fatalf("a start that is its host's last record: %+v; want one session of no minutes", k)
	}
}

func TestMonthBoundsEastern(t *testing.T) {
	from, to := MonthBounds(time.Date(2026, 11, 1, 3, 30, 0, 0, time.UTC)) // Oct 31st, 23:30 EDT
	if from.Month() != time.October || to.Month() != time.November || to.In(time.UTC).Hour() != 4 {
		t.Fatalf("bounds %v .. %v; want October in Eastern", from, to)
	}
}

// BenchmarkReportMonth is a busy desk's month: 50,000 sessions of 200
// keys on 4 hosts.
func BenchmarkReportMonth(b *testing.B) {
	var recs []UsageRecord
	for i := range 50000 {
		at := usageAt(1+i%28, 9+i%7, i%60)
		recs = append(recs, usageSess(NewUsageID(), "key"+strconv.Itoa(i%200), "desk"+strconv.Itoa(i%4),
			"10.0.0."+strconv.Itoa(i%250), i%3 != 0, at, at.Add(time.Duration(i%90)*time.Minute))...)
	}
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, api.Eastern)
	b.ReportAllocs()
	for b.Loop() {
		if rep := Report(recs, usageAt(15, 0, 0), now); len(rep) != 200 {
			b.Fatalf("%d keys", len(rep))
		}
	}
}
