package alerts

import (
	"math"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/theme"
)

var now = time.Date(2026, 11, 24, 10, 0, 0, 0, api.Eastern)

// page is an alerts page on an engine that fetches nothing.
func page(t *testing.T, rules ...alert.Rule) *Page {
	t.Helper()
	mon := feed.NewMonitor(feed.MonitorOptions{})
	t.Cleanup(mon.Close)
	eng, err := alert.New(alert.Options{Monitor: mon, Now: func() time.Time { return now }}, rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	sh := &common.Common{Styles: theme.New(theme.Dark(), false), Keys: keymap.Default(), Now: func() time.Time { return now }, Flash: config.FlashFor}
	return NewPage(sh, common.Config{Alerts: eng})
}

func press(d *dialog, keys ...tea.KeyPressMsg) common.Action {
	var act common.Action
	for _, k := range keys {
		_, act = d.Update(k)
	}
	return act
}

func text(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// TestDialogProposals: a print proposes a block of its size on its
// contract; an underlying the next round price above it, or below it
// once flipped; a typed value replaces the proposal; esc arms nothing.
func TestDialogProposals(t *testing.T) {
	p := page(t)
	d := p.Overlay(common.ProposeAlert{Symbol: "SPY", Contract: "SPY261124C00700000", Print: true, Size: 750, Premium: 90_000, Price: 698.75,
		Bid: 1.1, Ask: 1.3, Mid: 1.2, IV: 0.18}).(*dialog)
	if r, err := d.rule(); err != nil || r.Kind != alert.KindBlock || r.MinSize != 750 || r.Contract != "SPY261124C00700000" {
		t.Errorf("a print proposes %+v (%v)", r, err)
	}
	d = p.Overlay(common.ProposeAlert{Symbol: "SPY", Price: 698.75, IV30: math.NaN()}).(*dialog)
	if r, _ := d.rule(); r.Kind != alert.KindPrice || r.Level != 699 || !r.Above || r.Name != "SPY price above 699" {
		t.Errorf("SPY at 698.75 proposes %+v", r)
	}
	press(d, tea.KeyPressMsg{Code: tea.KeyTab})
	if r, _ := d.rule(); r.Above || r.Level != 698 {
		t.Errorf("flipped: %+v", r)
	}
	press(d, text("700")...)
	if r, _ := d.rule(); r.Level != 700 {
		t.Errorf("typed 700: %+v", r)
	}
	if act := press(d, tea.KeyPressMsg{Code: tea.KeyEscape}); act != (common.Close{}) || len(p.eng.Statuses(now)) != 0 {
		t.Errorf("esc: %v, %d rules", act, len(p.eng.Statuses(now)))
	}
}

// TestDialogArmsAndEdits: enter arms the rule (a bad value stays with its
// reason); editing it changes its level in place.
func TestDialogArmsAndEdits(t *testing.T) {
	p := page(t)
	d := p.Overlay(common.ProposeAlert{Symbol: "SPY", Price: 698.75}).(*dialog)
	press(d, tea.KeyPressMsg{Code: tea.KeyBackspace}, tea.KeyPressMsg{Code: tea.KeyBackspace}, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if act := press(d, tea.KeyPressMsg{Code: tea.KeyEnter}); act != nil || d.err == "" {
		t.Fatalf("an empty value armed: %v %q", act, d.err)
	}
	press(d, text("701")...)
	if act := press(d, tea.KeyPressMsg{Code: tea.KeyEnter}); act != (common.Close{}) {
		t.Fatalf("enter: %v %q", act, d.err)
	}
	sts := p.eng.Statuses(now)
	if len(sts) != 1 || sts[0].Level != 701 {
		t.Fatalf("armed %+v", sts)
	}
	e := p.Overlay(common.ProposeAlert{Edit: sts[0].Name}).(*dialog)
	if e.value != "701" {
		t.Errorf("the edit shows %q", e.value)
	}
	press(e, append(text("5"), tea.KeyPressMsg{Code: tea.KeyEnter})...)
	sts = p.eng.Statuses(now)
	if len(sts) != 1 || sts[0].Level != 7015 || sts[0].Name != "SPY price above 7015" {
		t.Errorf("edited %+v", sts)
	}
}
