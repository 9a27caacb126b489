package model

import (
	"time"

	"chainwatch/model/common"
	"chainwatch/ui"
)

// statusLine is the prompt while one is open, else the points and timers.
func (a *App) statusLine(width int, now time.Time) string {
	if p := a.promptOpen(); p != nil {
		return p.View()[0]
	}
	d := a.statusData(now)
	return ui.Status(&d, width, a.sh.Styles)
}

// statusData is what the status bar shows at now (the top page's, and
// the notice while no failure outranks it); the frame clock reads it
// too, to know whether a countdown is on screen.
func (a *App) statusData(now time.Time) ui.StatusData {
	d := common.StackStatus(a.stack, a.built[:], now).Bar(&a.link.Snap, a.q, now)
	if k := a.sh.Keys; a.overlay == a.scan {
		// Letters are typed into the scanner's form: how to leave it.
		d.Hint = k.Close.Help().Key + " close scanner  " + k.Interrupt.Help().Key + " quit"
	}
	a.scr.notice.Onto(&d)
	if d.Err == "" {
		d.Err = common.HistoryNotice(a.cfg.Client)
	}
	return d
}
