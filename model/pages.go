package model

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/model/common"
	"chainwatch/model/help"
	"chainwatch/model/prompt"
)

// The page stack and the overlay slot. Keys go to the overlay if one is
// open, else to the top page; the frame is the top page's with the
// overlay drawn over it. What a page or an overlay asks for comes back as
// an Action, which do carries out.

// topID is the page that shows, top the page itself.
func (a *App) topID() common.PageID { return a.stack[len(a.stack)-1] }
func (a *App) top() common.Page     { return a.built[a.topID()] }

// send hands msg to page id and carries out what it asks.
func (a *App) send(id common.PageID, msg tea.Msg) tea.Cmd {
	cmd, act := a.built[id].Update(msg)
	return tea.Batch(cmd, a.do(act))
}

// toPages hands msg to every page, on the stack or not: the monitor's
// replies, the query, the pages' own timers and saves.
func (a *App) toPages(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for id := range a.built {
		cmds = append(cmds, a.send(common.PageID(id), msg))
	}
	return tea.Batch(cmds...)
}

// onKey routes a key: the overlay takes everything while one is open,
// else the top page (which returns Quit or OpenHelp for the keys every
// page shares).
func (a *App) onKey(k tea.KeyPressMsg) tea.Cmd {
	a.scr.lastInput = a.sh.Now() // no longer idle: the feeds speed up (syncFeeds)
	if key.Matches(k, a.sh.Keys.Interrupt) {
		return a.quit()
	}
	if a.overlay != nil {
		return a.onOverlay(k)
	}
	if r := a.cfg.Replay; r != nil {
		if n, again, ok := common.ReplayKey(r, a.sh.Replay, k); ok {
			a.link.Sub.Refresh(again...)
			a.scr.notice = n
			return nil
		}
	}
	return a.send(a.topID(), k)
}

// do carries out a page's Action.
func (a *App) do(act common.Action) tea.Cmd {
	switch act := act.(type) {
	case common.Quit:
		return a.quit()
	case common.Notice:
		a.scr.notice = act
	case common.Open:
		a.scr.notice = common.Notice{}
		a.push(act.Page)
		if act.Msg != nil {
			return a.send(act.Page, act.Msg)
		}
	case common.Back:
		if len(a.stack) > 1 {
			a.stack = a.stack[:len(a.stack)-1]
		}
		if act.Symbol != "" && act.Symbol != a.q.Symbol {
			q := a.q
			q.Symbol = act.Symbol
			a.changeQuery(q)
		}
	case common.ChangeQuery:
		a.changeQuery(act.Query)
		if act.Msg != nil {
			return a.toPages(act.Msg)
		}
	case common.Refresh:
		if t := a.link.Sub.Refresh(act.Feeds...).Text(); t != "" {
			a.scr.notice = common.Notice{Text: t} // nothing fetched: the session is held
		}
	case common.Refetch:
		a.link.Sub.Refetch(act.Feed)
	case common.Remember:
		return a.syms.Remember(act.Symbol)
	case common.NoSuchSymbol:
		a.scr.notice = common.Notice{Text: a.syms.NoSuch(act.Symbol, prompt.Known(a.known()), a.sh.Keys.Symbol.Help().Key)}
	case common.AskSymbol, common.AskDate, common.OpenScanner, common.OpenHelp, common.ProposeAlert:
		return a.open(act)
	}
	return nil
}

// push shows page id: on top of the stack, or, when it is on the stack
// already, by popping the pages above it (back to it, as a browser's
// history goes), so that the stack never holds a page twice and as many
// esc as pages opened lead back to the watch screen.
func (a *App) push(id common.PageID) {
	if i := slices.Index(a.stack, id); i >= 0 {
		a.stack = a.stack[:i+1]
		return
	}
	a.stack = append(a.stack, id)
}

// open opens the overlay act asks for, unless one is open.
func (a *App) open(act common.Action) tea.Cmd {
	if a.overlay != nil {
		return nil
	}
	switch act := act.(type) {
	case common.AskSymbol:
		if act.Add {
			a.overlay = prompt.NewWatchSymbol(a.sh, act.Have, a.syms.Recent, a.syms.Unknown)
		} else {
			a.overlay = prompt.NewSymbol(a.sh, a.q.Symbol, a.known(), a.syms.Unknown)
		}
	case common.AskDate:
		a.overlay = prompt.NewDate(a.sh, a.q.Date, a.q.Mode)
	case common.OpenScanner:
		a.scr.notice = common.Notice{}
		return a.openScanner()
	case common.OpenHelp:
		keys := a.top().FullHelp()
		if a.cfg.Replay != nil {
			keys = append(keys, a.sh.Replay.Bindings())
		}
		a.overlay = help.New(a.sh, keys)
	case common.ProposeAlert: // the dialog is the alerts page's
		a.overlay = a.built[common.PageAlerts].(common.Overlayer).Overlay(act)
	}
	return nil
}

// promptOpen is the symbol or date prompt, if it is the overlay.
func (a *App) promptOpen() *prompt.Model {
	p, _ := a.overlay.(*prompt.Model)
	return p
}

// onOverlay hands msg to the overlay and carries out its Action.
func (a *App) onOverlay(msg tea.Msg) tea.Cmd {
	if a.overlay == a.scan {
		return a.onScanner(msg)
	}
	cmd, act := a.overlay.Update(msg)
	return tea.Batch(cmd, a.fromOverlay(a.overlay, act))
}

// fromOverlay carries out an overlay's Action: Quit quits, a Notice goes
// to the status bar, and the rest (a symbol or a day picked, Close) goes
// to the top page once the overlay is shut.
func (a *App) fromOverlay(from common.Overlay, act common.Action) tea.Cmd {
	switch act := act.(type) {
	case nil:
		return nil
	case common.Quit:
		return a.quit()
	case common.Notice:
		a.scr.notice = act
		return nil
	case common.PickSymbol:
		a.close(from)
		return a.send(a.topID(), common.PickSymbol{Symbol: strings.ToUpper(act.Symbol), Known: act.Known})
	}
	a.close(from)
	return a.send(a.topID(), act)
}

// close shuts overlay o (one that stays built, the scanner, is hidden).
func (a *App) close(o common.Overlay) {
	if c, ok := o.(interface{ Close() }); ok {
		c.Close()
	}
	if a.overlay == o {
		a.overlay = nil
	}
}

// known are the symbols the prompt completes from and trusts.
func (a *App) known() []string { return a.syms.KnownOf(a.built[:]) }
