package model

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/model/prompt"
	"chainwatch/ui"
)

// page is a screen of the stack: the watch screen at the bottom, the vol,
// contract and watchlist pages pushed over it. Keys go to the overlay if
// one is open, else to the top page; the frame is the top page's with the
// overlay drawn over it. What a page wants polled while it shows it marks
// in the scheduler's Conditions (feeds), the one seam to the poller.
type page interface {
	// key is a key no overlay took, after the keys every page shares.
	key(k tea.KeyPressMsg) tea.Cmd
	// modal says whether the page takes k before the shared keys (the
	// first-run banner: any key only dismisses it).
	modal(k tea.KeyPressMsg) bool
	// mouse is a click (wheel false) or a turn of the wheel.
	mouse(m tea.Mouse, wheel bool) tea.Cmd
	// act carries out what the overlay over the page asked for.
	act(act common.Action) tea.Cmd
	// feeds marks what the page wants polled while it shows.
	feeds(c *feed.Conditions)
	// draw is the frame, under any overlay; it writes nothing.
	draw(now time.Time) string
	// shown is the feed whose refresh the status bar counts down; errs
	// the parts whose failures it reports.
	shown() feed.Feed
	errs() []error
	// status adds the page's own to the status bar's data.
	status(d *ui.StatusData, now time.Time)
	hint() string
	help() [][]key.Binding
	title() string
}

// top is the page that shows.
func (a *App) top() page { return a.pages[len(a.pages)-1] }

// push shows p over the page that shows.
func (a *App) push(p page) { a.pages = append(a.pages, p) }

// pop goes back to the page under the top one; the watch screen stays.
func (a *App) pop() {
	if len(a.pages) > 1 {
		a.pages = a.pages[:len(a.pages)-1]
	}
}

// onTop reports whether the top page is of p's kind.
func onTop[P page](a *App) bool {
	_, ok := a.top().(P)
	return ok
}

// helpOverlay is the help screen over the top page: its keys and the
// ones every page shares.
type helpOverlay struct{ keys *common.Common }

func (h helpOverlay) SetSize(int, int)          {}
func (h helpOverlay) View() []string            { return nil }
func (h helpOverlay) ShortHelp() []key.Binding  { return nil }
func (h helpOverlay) FullHelp() [][]key.Binding { return nil }
func (h helpOverlay) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	keys := h.keys.Keys
	switch {
	case !ok:
	case key.Matches(k, keys.Quit):
		return nil, common.Quit{}
	case key.Matches(k, keys.Help), key.Matches(k, keys.Close):
		return nil, common.Close{}
	}
	return nil, nil
}

// promptOpen is the symbol or date prompt, if it is the overlay.
func (a *App) promptOpen() *prompt.Model {
	p, _ := a.overlay.(*prompt.Model)
	return p
}

// onOverlay hands msg to the overlay and carries out its Action.
func (a *App) onOverlay(msg tea.Msg) tea.Cmd {
	if a.overlay == a.parts.scan {
		return a.onScanner(msg)
	}
	cmd, act := a.overlay.Update(msg)
	return tea.Batch(cmd, a.do(a.overlay, act))
}

// do carries out an overlay's Action: Close closes it, Quit quits, a
// Notice goes to the status bar, and what the page under it must do (a
// symbol or a day picked) goes to the top page once the overlay is shut.
func (a *App) do(from common.Overlay, act common.Action) tea.Cmd {
	switch act := act.(type) {
	case nil:
		return nil
	case common.Quit:
		return a.quit()
	case common.Notice:
		a.scr.notice = act.Text
		return nil
	case common.PickSymbol:
		act.Symbol = strings.ToUpper(act.Symbol)
		a.close(from)
		return a.top().act(act)
	}
	a.close(from)
	return a.top().act(act)
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
