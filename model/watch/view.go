package watch

import (
	"strings"
	"time"

	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/ui"
)

// SetSize is the page's size (the frame less the status bar); every pane
// is given its rectangle.
func (s *Screen) SetSize(w, h int) {
	s.w, s.h = max(w, 0), max(h, 0)
	lay := s.layout()
	s.chain.SetSize(lay.Ladder.W, lay.Ladder.H)
	s.tape.SetSize(lay.Tape.W, lay.Tape.H)
	s.cal.SetSize(lay.Calendar.W, lay.Calendar.H)
	s.focusParts()
}

// SetFocused: the ladder loses the focus under a prompt, whose keys are
// its own, and while another page is on top.
func (s *Screen) SetFocused(f bool) {
	s.focused = f
	s.focusParts()
}

// focusParts tells each pane whether it has the focus.
func (s *state) focusParts() {
	s.chain.SetFocused(s.focus == paneLadder && s.focused)
	s.tape.SetFocused(s.focus == paneTape)
	s.cal.SetFocused(s.focus == paneCalendar)
}

// layout is the frame's layout: the page and the root's status bar under
// it, with room for the first-run banner while it shows.
func (s *state) layout() ui.Layout {
	lay := ui.NewLayout(s.w, s.frameH(), s.showTape, s.showCal)
	return lay.WithBanner(len(s.bannerLines(lay.Ladder.W)))
}

// frameH is the frame's height: the page's and the status bar's.
func (s *state) frameH() int {
	if s.h == 0 && s.w == 0 {
		return 0
	}
	return s.h + 1
}

// View is the header, the tabs and strip, the ladder, the details, the
// tape and the calendar, and the first-run banner where the layout puts it.
func (s *Screen) View() []string {
	st := s.sh.Styles
	now := s.sh.Now()
	lay := s.layout()
	h := s.Header(now)
	panes := make([]ui.Pane, 0, 8)
	panes = append(panes,
		ui.Pane{R: lay.Header, Lines: ui.Header(&h, lay.Header.W, st)},
		ui.Pane{R: lay.Tabs, Lines: []string{s.chain.TabsView(lay.Tabs.W)}},
		ui.Pane{R: lay.Ladder, Lines: s.chain.View()},
	)
	if r := lay.Banner; !r.Empty() {
		panes = append(panes, ui.Pane{R: r, Lines: s.bannerLines(r.W)[:r.H]})
	}
	if r := lay.Strip; !r.Empty() {
		panes = append(panes, ui.Pane{R: r, Lines: []string{s.chain.StripView(r.W)}})
	}
	if r := lay.Details; r.W > 0 && r.H > 0 {
		panes = append(panes, ui.Pane{R: r, Lines: s.chain.DetailsView(r.W, r.H)})
	}
	if r := lay.Tape; r.W > 0 && r.H > 0 {
		panes = append(panes, ui.Pane{R: r, Lines: s.tape.View()})
	}
	if r := lay.Calendar; r.W > 0 && r.H > 0 {
		panes = append(panes, ui.Pane{R: r, Lines: s.cal.View()})
	}
	return s.compose(lay, panes)
}

// compose draws panes into the page, the status bar's row left blank
// under it so that the borders are drawn as in the whole frame, and
// returns the page's lines.
func (s *state) compose(lay ui.Layout, panes []ui.Pane) []string {
	if s.w == 0 || s.h == 0 {
		return make([]string, s.h)
	}
	panes = append(panes, ui.Pane{R: lay.Status})
	return splitLines(ui.Compose(s.w, s.frameH(), panes, s.sh.Styles), s.h)
}

// splitLines is a composed frame's first n lines.
func splitLines(frame string, n int) []string {
	return strings.SplitN(frame, "\n", n+1)[:n]
}

// bannerLines is the first-run banner at width w while it shows; the
// layout says where it goes (ui.Layout.WithBanner).
func (s *state) bannerLines(w int) []string {
	if !s.banner {
		return nil
	}
	now := s.sh.Now()
	return ui.FirstRunBanner(&ui.FirstRun{
		Source: s.cfg.Source, BaseURL: s.cfg.BaseURL, Mode: s.q.Mode,
		Historical: s.q.Historical(now), Date: s.q.Day(now), HelpKey: s.sh.Keys.Help.Help().Key,
	}, w, s.sh.Styles)
}

// Header is the chain's quote plus where the data comes from, in which
// mode, and how old it is.
func (s *state) Header(now time.Time) ui.HeaderData {
	h := s.chain.Header()
	h.Source = s.cfg.Source
	h.Mode = s.q.Mode
	h.Date = feed.ShownDay(s.q, now)
	h.Historical = s.q.Historical(now)
	h.Closed = !h.Historical && !market.SessionLive(now, s.q.Mode)
	last := s.chain.LastOK()
	h.Loading = s.chain.Loading()
	if !last.IsZero() {
		h.Age = max(now.Sub(last), 0)
	}
	switch fe, _ := s.chain.Err().(*feed.FetchError); {
	case h.Loading:
	case last.IsZero() && fe != nil:
		h.NoData = true // an age from nothing would freeze at 0s
	case fe != nil && fe.At.After(last):
		h.Stale = true
	case market.SessionLive(now, s.q.Mode) && !h.Historical:
		limit := config.StaleAfter*s.snap.Feeds[feed.FeedChain].Interval + 5*time.Second
		h.Stale = h.Age > limit
	}
	return h
}
