package alerts

import (
	"strings"
	"testing"
	"time"

	"chainwatch/alert"
	"chainwatch/config"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/theme"
)

// TestPageHearsOnlyItsEngine: on a monitor served to several traders, an
// event another engine fired rings no bell and says nothing here; its
// own engine's does.
func TestPageHearsOnlyItsEngine(t *testing.T) {
	p := page(t)
	other, err := alert.New(alert.Options{Pool: p.eng.Pool()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	ev := []alert.Event{{Rule: "QQQ above 500", Text: "QQQ above 500: 520 at 10:00:00"}}
	for _, m := range []any{alert.FiredMsg{Events: ev, From: other}, alert.NoticeMsg{Text: "alert armed: theirs", From: other}} {
		if cmd, act := p.Update(m); cmd != nil || act != nil {
			t.Errorf("%T of another engine: %v, %+v", m, cmd, act)
		}
	}
	if _, act := p.Update(alert.FiredMsg{Events: ev, From: p.eng}); act == nil || !strings.Contains(act.(common.Notice).Text, "ALERT QQQ above 500") {
		t.Errorf("its own engine's event: %+v", act)
	}
}

// TestPageSaysWhyAlertsAreOff: a session whose rules do not hold says why
// on the page, in the dialog and once on the status bar.
func TestPageSaysWhyAlertsAreOff(t *testing.T) {
	why := "alerts are off in this session: /state/serve/ann/config.toml:7: [[alert]] number 1: the service has no symbol SPYY"
	sh := &common.Common{Styles: theme.New(theme.Dark(), false), Keys: keymap.Default(), Now: func() time.Time { return now }, Flash: config.FlashFor}
	p := NewPage(sh, common.Config{AlertsOff: why})
	p.SetSize(60, 20) // narrower than the message: wrapped, not cut
	if view := strings.Join(p.View(), "\n"); !strings.Contains(view, "ann/config.toml:7:") || !strings.Contains(view, "SPYY") {
		t.Errorf("the page:\n%s", view)
	}
	if d := p.Overlay(common.ProposeAlert{Symbol: "SPY"}).(*dialog); d.err != why {
		t.Errorf("the dialog says %q", d.err)
	}
	_, act := p.Update(common.DrawMsg{})
	if n, ok := act.(common.Notice); !ok || n.Text != why {
		t.Errorf("the first message: %+v", act)
	}
	if _, act := p.Update(common.DrawMsg{}); act != nil {
		t.Errorf("said twice: %+v", act)
	}
}
