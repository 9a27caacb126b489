// Package alerts is the alerts page: the rules (on, off, delete, edit),
// the log of what fired, and the dialog that makes a rule from what is
// selected on another page (A on a ladder row, a tape print, a watchlist
// row). The rules are evaluated by the alert engine on the data monitor,
// off the page; the page hears what fired through the monitor's posts
// (alert.FiredMsg) and tells the trader: a status-bar line, the bell and
// a desktop notification, a flood of events one notice with a count.
package alerts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/alert"
	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/scan"
	"chainwatch/ui"
)

// Page is the alerts page.
type Page struct {
	sh   *common.Common
	cfg  common.Config
	eng  *alert.Engine
	keys keymap.AlertKeys
	common.Frame

	rules  []alert.Status // as of the last message (refresh)
	log    []alert.Record
	cursor int
	offset int
	note   ui.Note
	start  time.Time // the session's start: events after it are new

	flood    flood // notices of what fired
	fetching bool  // the engine's own fetches were started
	told     bool  // the status bar said why alerts are off (cfg.AlertsOff)
}

var (
	_ common.Page      = (*Page)(nil)
	_ common.Overlayer = (*Page)(nil)
)

// logShown is how many fired events the page keeps to show.
const logShown = 200

// NewPage is the page on cfg's engine (none: the page says so).
func NewPage(sh *common.Common, cfg common.Config) *Page {
	p := &Page{sh: sh, cfg: cfg, eng: cfg.Alerts, keys: keymap.Alerts(), start: sh.Now()}
	p.refresh()
	return p
}

// refresh takes the rules' states and the log from the engine, so that
// View reads and changes nothing.
func (p *Page) refresh() {
	if p.eng == nil {
		return
	}
	p.rules = p.eng.Statuses(p.sh.Now())
	p.log = p.log[:0]
	for _, r := range p.eng.Log().Recent(logShown * 2) {
		if r.Type == alert.Fired && len(p.log) < logShown {
			p.log = append(p.log, r)
		}
	}
	p.keepCursor()
}

// keepCursor keeps the cursor on a rule and its row in sight.
func (p *Page) keepCursor() {
	p.cursor = min(max(p.cursor, 0), max(len(p.rules)-1, 0))
	body := ui.AlertsRulesBody(p.H)
	p.offset = min(p.offset, p.cursor)
	if p.cursor >= p.offset+body {
		p.offset = p.cursor - body + 1
	}
}

// Update takes what its engine fired and said at any time (the page need
// not be shown to ring the bell; another engine's, on a monitor served to
// several traders, is not this screen's), and its keys while on top.
func (p *Page) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	if _, early := msg.(common.QueryMsg); !early && p.eng == nil && p.cfg.AlertsOff != "" && !p.told {
		p.told = true
		return nil, common.Notice{Text: p.cfg.AlertsOff}
	}
	if _, early := msg.(common.QueryMsg); p.eng != nil && !p.fetching && !early {
		// The first message after the pages were built comes once the
		// screen has said what it wants: the rules' own fetches start
		// now, for what it does not fetch itself.
		p.fetching = true
		p.eng.Fetch()
	}
	switch msg := msg.(type) {
	case alert.FiredMsg:
		if msg.From != p.eng {
			return nil, nil
		}
		p.refresh()
		return p.fired(msg.Events)
	case alert.NoticeMsg:
		if msg.From != p.eng {
			return nil, nil
		}
		p.refresh()
		return nil, common.Notice{Text: msg.Text, Info: !msg.Warn}
	case alert.ChangedMsg:
		if msg.From == p.eng {
			p.refresh()
		}
	case common.DrawMsg:
		p.refresh()
	case tea.KeyPressMsg:
		if p.Focused {
			return p.onKey(msg)
		}
	}
	return nil, nil
}

// onKey: movement, on/off, edit, delete, back.
func (p *Page) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(p.sh, k); act != nil {
		return nil, act
	}
	nav := p.sh.Keys
	switch {
	case key.Matches(k, p.keys.Back):
		return nil, common.Back{}
	case key.Matches(k, nav.Up):
		p.cursor--
	case key.Matches(k, nav.Down):
		p.cursor++
	case key.Matches(k, nav.Top):
		p.cursor = 0
	case key.Matches(k, nav.Bottom):
		p.cursor = len(p.rules) - 1
	case p.eng == nil || len(p.rules) == 0:
	case key.Matches(k, p.keys.Toggle):
		p.toggle()
	case key.Matches(k, p.keys.Delete):
		p.delete()
	case key.Matches(k, p.keys.Edit):
		return nil, common.ProposeAlert{Edit: p.rules[p.cursor].Name}
	}
	p.refresh()
	return nil, nil
}

// toggle turns the selected rule on or off, and saves it.
func (p *Page) toggle() {
	st := p.rules[p.cursor]
	r, err := p.eng.SetEnabled(st.Name, !st.Enabled)
	if err != nil {
		p.note = ui.Note{Text: err.Error(), Tone: ui.ToneWarn}
		return
	}
	p.note = ui.Note{Text: fmt.Sprintf("%s is %s", r.Name, map[bool]string{true: "on", false: "off"}[r.Enabled])}
	p.saved(p.save(st.Name, r))
}

// delete drops the selected rule from the engine and the config file.
func (p *Page) delete() {
	name := p.rules[p.cursor].Name
	if err := p.eng.Remove(name); err != nil {
		p.note = ui.Note{Text: err.Error(), Tone: ui.ToneWarn}
		return
	}
	p.note = ui.Note{Text: "deleted " + name}
	if p.cfg.DeleteAlert != nil {
		p.saved(p.cfg.DeleteAlert(name))
	}
}

// save writes r in place of the rule named old, when saving is on.
func (p *Page) save(old string, r alert.Rule) error {
	if p.cfg.SaveAlert == nil {
		return nil
	}
	return p.cfg.SaveAlert(old, r)
}

// saved says a failed save: the change holds for the session.
func (p *Page) saved(err error) {
	if err != nil {
		p.note = ui.Note{Text: "for this session only; " + err.Error(), Tone: ui.ToneWarn}
	}
}

// Overlay is the alert dialog a ProposeAlert asks for.
func (p *Page) Overlay(act common.Action) common.Overlay {
	pa, ok := act.(common.ProposeAlert)
	if !ok {
		return nil
	}
	return newDialog(p, pa)
}

// View is the page at its size.
func (p *Page) View() []string {
	v := p.viewData(p.sh.Now())
	return ui.Alerts(&v, p.W, p.H, p.sh.Styles)
}

// viewData is what View draws.
func (p *Page) viewData(now time.Time) ui.AlertsView {
	v := ui.AlertsView{Cursor: p.cursor, Offset: p.offset, Note: p.note}
	if p.eng == nil {
		v.Message = p.unavailable()
		return v
	}
	total := 0.0
	for i := range p.rules {
		st := &p.rules[i]
		if st.Enabled {
			total += st.Cost.PerHour
		}
		v.Rules = append(v.Rules, rowOf(st))
	}
	if len(v.Rules) == 0 {
		v.Message = "no alert rules: " + p.sh.Keys.Alert.Help().Key + " on a ladder row, a tape print or a watchlist row proposes one; or [[alert]] in the config file"
	}
	plural := "s"
	if len(p.rules) == 1 {
		plural = ""
	}
	v.Summary = fmt.Sprintf("%d rule%s · %s pts/h of their own now · %s data", len(p.rules), plural, scan.GroupDigits(int64(total+0.5)), p.eng.Mode())
	for _, r := range p.log {
		v.Log = append(v.Log, ui.AlertLogRow{Time: r.Time.In(api.Eastern).Format("Jan 2 15:04:05"), Text: r.Text, New: r.FiredAt.After(p.start)})
	}
	return v
}

// unavailable says why there are no alerts: cfg.AlertsOff, else that the
// session has none.
func (p *Page) unavailable() string {
	if p.cfg.AlertsOff != "" {
		return p.cfg.AlertsOff
	}
	return "alerts are not available in this session"
}

// rowOf is a rule as the page draws it.
func rowOf(st *alert.Status) ui.AlertRow {
	row := ui.AlertRow{Name: st.Name, On: st.Enabled, Problem: st.Problem}
	switch {
	case !st.Enabled:
		row.State, row.Cost = "off", ""
	case !st.Armed:
		row.State, row.Fired = "fired "+st.LastFired.In(api.Eastern).Format("15:04:05")+"; re-arms past the margin", true
	case st.Fired > 0:
		row.State = fmt.Sprintf("armed · fired %d× this session", st.Fired)
	default:
		row.State = "armed"
	}
	if st.Enabled {
		row.Cost = costShort(st.Cost)
	}
	switch {
	case !st.Seen || st.Kind == alert.KindScan || st.Kind == alert.KindBlock || st.Kind == alert.KindSweep || st.Kind == alert.KindUnusual:
	case st.Kind == alert.KindIV || st.Kind == alert.KindIV30:
		row.Last = strconv.FormatFloat(st.Last*100, 'f', 1, 64) + "%"
	default:
		row.Last = strconv.FormatFloat(math.Round(st.Last*1e4)/1e4, 'f', -1, 64)
	}
	return row
}

// costShort is a rule's cost in a column: "on screen", "shared", "480 pts/h".
func costShort(c alert.Cost) string {
	switch {
	case c.Covered:
		return "on screen"
	case c.Shared:
		return "shared"
	}
	return scan.GroupDigits(int64(c.PerHour+0.5)) + " pts/h"
}

// Covers: the page fills the frame: the pages beneath are not polled
// while the rules are read (the engine fetches what its rules need
// that nothing shown brings).
func (p *Page) Covers() bool { return true }

// Wants: the engine wants its own feed; the page none.
func (p *Page) Wants(common.Sight) []feed.Want { return nil }

// Status: the page counts nothing down; the hint is its keys and, as on
// every page, the help key, which the bar keeps when the rest goes.
func (p *Page) Status(time.Time) common.Status {
	var hint []string
	for _, b := range append(p.keys.ShortHelp(), p.sh.Keys.Help) {
		hint = append(hint, b.Help().Key+" "+b.Help().Desc)
	}
	return common.Status{Shown: feed.FeedChain, Title: "chainwatch · alerts", Hint: strings.Join(hint, "  ")}
}

// ShortHelp and FullHelp are the page's keys.
func (p *Page) ShortHelp() []key.Binding  { return p.keys.ShortHelp() }
func (p *Page) FullHelp() [][]key.Binding { return p.keys.FullHelp(p.sh.Keys) }

// SetSize keeps the cursor's row in sight.
func (p *Page) SetSize(w, h int) {
	p.Frame.SetSize(w, h)
	p.keepCursor()
}
