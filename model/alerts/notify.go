package alerts

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"chainwatch/alert"
	"chainwatch/config"
	"chainwatch/model/common"
	"chainwatch/scan"
)

// flood coalesces what fires: the status bar's notice counts the events
// of the last second instead of flashing one after another, and the bell
// and the desktop notification come at most once a second, saying how
// many.
type flood struct {
	since time.Time // the window the count is of
	count int
	rang  time.Time // the last bell
}

// fired is the notice, bell and desktop notification of evs.
func (p *Page) fired(evs []alert.Event) (tea.Cmd, common.Action) {
	if len(evs) == 0 {
		return nil, nil
	}
	f, now := &p.flood, p.sh.Now()
	if now.Sub(f.since) >= config.AlertNoticeEvery || now.Before(f.since) {
		f.since, f.count = now, 0
	}
	f.count += len(evs)
	last := evs[len(evs)-1].Text
	text := "ALERT " + last
	if f.count > 1 {
		text = fmt.Sprintf("ALERT ×%s in %s; the last: %s", scan.GroupDigits(int64(f.count)), config.AlertNoticeEvery, last)
	}
	if now.Sub(f.rang) < config.AlertNoticeEvery && !now.Before(f.rang) {
		return nil, common.Notice{Text: text}
	}
	f.rang = now
	var seq string
	if !p.cfg.NoBell {
		seq = "\a"
	}
	body := last
	if len(evs) > 1 {
		body = fmt.Sprintf("%d alerts; the last: %s", len(evs), last)
	}
	seq += p.cfg.Desktop.Sequence("chainwatch alert", body)
	if seq == "" {
		return nil, common.Notice{Text: text}
	}
	return tea.Raw(seq), common.Notice{Text: text}
}
