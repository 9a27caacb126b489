package feed

import "testing"

// TestMonitorAttentionIsTheUnion: focused when some subscriber is, idle
// only when every one is; nobody subscribed is neither.
func TestMonitorAttentionIsTheUnion(t *testing.T) {
	m := NewMonitor(MonitorOptions{Fetcher: nil, Spawn: func(func()) {}})
	defer m.Close()
	if got := m.Attention(); got != (Attention{}) {
		t.Fatalf("no subscriber: %+v", got)
	}
	a, b := m.Subscribe(), m.Subscribe()
	a.Set(Attention{Focused: true})
	b.Set(Attention{Idle: true})
	if got := m.Attention(); got != (Attention{Focused: true}) {
		t.Fatalf("one focused, one idle: %+v, want focused and not idle", got)
	}
	a.Set(Attention{Idle: true})
	if got := m.Attention(); got != (Attention{Idle: true}) {
		t.Fatalf("both idle: %+v, want idle", got)
	}
	b.Close()
	a.Set(Attention{Focused: true})
	if got := m.Attention(); got != (Attention{Focused: true}) {
		t.Fatalf("the one left focused: %+v", got)
	}
}
