// Package positions is the positions page: the strategies saved with
// their fills (positions.toml), each marked to market at mid on the
// monitor's data (a job, one chain request per underlying held), its P&L
// today and since open, a summary above; closing one writes its closing
// fills, rolling one closes it and hands its legs to the ticket.
package positions

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/pricing"
	strat "chainwatch/strategy"
	"chainwatch/ui"
)

const markEvery = 10 * time.Second

// Page is the positions page.
type Page struct {
	sh   *common.Common
	keys keymap.PositionsKeys
	path string

	common.Laid // size and lines, laid out on a change

	q       feed.Query
	ps      []strat.Position
	loadErr error
	sel     int
	chains  map[string]*api.SymbolWithOptions
	err     error
	errAt   time.Time
	job     *feed.Job
	jobName string
	// asked is the close (or roll) a key asked for, waiting for its
	// answer; undo the position as it was before the last close, kept
	// until it is opened again or another is closed.
	asked *ask
	undo  *config.Position
}

// ask is a close or a roll waiting for its confirmation.
type ask struct {
	id   int
	roll bool
}

var _ common.Page = (*Page)(nil)

// NewPage returns the page; the file is read when it is opened.
func NewPage(sh *common.Common, cfg common.Config) *Page {
	return &Page{sh: sh, keys: keymap.Positions(), path: cfg.PositionsPath, chains: map[string]*api.SymbolWithOptions{}}
}

// LoadedMsg is the positions file read.
type LoadedMsg struct {
	Positions []strat.Position
	Err       error
}

// WrittenMsg is a position closed (or not).
type WrittenMsg struct{ Err error }

// Load reads the positions file.
func Load(path string) LoadedMsg {
	saved, err := config.LoadPositions(path)
	if err != nil {
		return LoadedMsg{Err: err}
	}
	var ps []strat.Position
	for _, s := range saved {
		p, err := strat.FromSaved(s)
		if err != nil {
			return LoadedMsg{Err: err}
		}
		ps = append(ps, p)
	}
	return LoadedMsg{Positions: ps}
}

// Positions are the positions held, as read last.
func (p *Page) Positions() []strat.Position { return p.ps }

// Update takes the page's keys, the file read, the marks.
func (p *Page) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	var cmd tea.Cmd
	var act common.Action
	switch msg := msg.(type) {
	case common.QueryMsg:
		p.q = msg.Query
	case common.PositionsChangedMsg:
		path := p.path
		return func() tea.Msg { return Load(path) }, nil
	case LoadedMsg:
		p.loadErr = msg.Err
		if msg.Err == nil {
			p.ps = msg.Positions
			p.sel = min(p.sel, max(len(p.ps)-1, 0))
		}
	case WrittenMsg:
		if msg.Err != nil {
			act = common.Notice{Text: msg.Err.Error()}
		}
		path := p.path
		cmd = func() tea.Msg { return Load(path) }
	case feed.JobMsg:
		p.onMarks(msg)
	case tea.KeyPressMsg:
		cmd, act = p.onKey(msg)
	default:
		return nil, nil // a frame (DrawMsg) draws what is laid out
	}
	p.layout()
	return cmd, act
}

func (p *Page) onMarks(m feed.JobMsg) {
	if p.job == nil || m.Name != p.job.Name {
		return
	}
	p.err, p.errAt = m.Err, m.At
	res, _ := m.Value.(feed.LegsResult)
	for _, r := range res {
		if r.Chain != nil {
			p.chains[r.Symbol] = r.Chain
		}
	}
}

func (p *Page) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(p.sh, k); act != nil {
		return nil, act
	}
	keys, nav := &p.keys, &p.sh.Keys
	if a := p.asked; a != nil {
		// A close asks first: y closes (or rolls), any other key keeps it.
		p.asked = nil
		if key.Matches(k, keys.Confirm) {
			return p.close(a)
		}
		return nil, common.Notice{Text: fmt.Sprintf("position %d kept open", a.id), Info: true}
	}
	switch {
	case key.Matches(k, keys.Back):
		return nil, common.Back{}
	case key.Matches(k, nav.Ticket):
		return nil, common.Open{Page: common.PageStrategy}
	case key.Matches(k, nav.Up):
		p.sel = max(p.sel-1, 0)
	case key.Matches(k, nav.Down):
		p.sel = min(p.sel+1, max(len(p.ps)-1, 0))
	case key.Matches(k, keys.Close, keys.Roll):
		return p.ask(key.Matches(k, keys.Roll))
	case key.Matches(k, keys.Undo):
		return p.reopen()
	}
	return nil, nil
}

// ask puts the close (or roll) of the selected open position as a
// question above the table; nothing is written until it is answered.
func (p *Page) ask(roll bool) (tea.Cmd, common.Action) {
	if p.sel >= len(p.ps) || !p.ps[p.sel].Open() {
		return nil, common.Notice{Text: "no open position selected"}
	}
	p.asked = &ask{id: p.ps[p.sel].ID, roll: roll}
	return nil, nil
}

// question is what the page asks before a close or a roll.
func (p *Page) question() string {
	a := p.asked
	if a == nil {
		return ""
	}
	what := "Close"
	if a.roll {
		what = "Roll (close, its legs to the ticket)"
	}
	return fmt.Sprintf("%s position %d at mid now? %s yes, any other key no; %s undoes a close", what, a.id,
		p.keys.Confirm.Help().Key, p.keys.Undo.Help().Key)
}

// reopen undoes the last close: the position written back as it was.
func (p *Page) reopen() (tea.Cmd, common.Action) {
	if p.undo == nil {
		return nil, common.Notice{Text: "nothing to undo: no position closed here"}
	}
	before, path := *p.undo, p.path
	p.undo = nil
	write := func() tea.Msg { return WrittenMsg{Err: config.SavePosition(path, before)} }
	return write, common.Notice{Text: fmt.Sprintf("position %d open again", before.ID), Info: true}
}

// close closes the position asked about at its legs' mids now, keeping
// it as it was for an undo; a roll then hands its legs to the ticket,
// whose save records the roll.
func (p *Page) close(a *ask) (tea.Cmd, common.Action) {
	i := slices.IndexFunc(p.ps, func(x strat.Position) bool { return x.ID == a.id })
	if i < 0 || !p.ps[i].Open() {
		return nil, common.Notice{Text: fmt.Sprintf("position %d is no longer open", a.id)}
	}
	roll := a.roll
	pos := p.ps[i]
	ch := p.chains[pos.Strategy.Symbol]
	if ch == nil {
		return nil, common.Notice{Text: "not closed: the position is not marked yet"}
	}
	m, err := strat.MarketOf(&pos.Strategy, ch, p.sh.Now())
	if err != nil {
		return nil, common.Notice{Text: "not closed: " + err.Error()}
	}
	open := pos.Strategy
	open.Legs = append([]strat.Leg(nil), open.Legs...)
	for i := range open.Legs {
		open.Legs[i].Price = math.NaN() // close at mid, not at the fills
	}
	fills, ok := strat.Fills(&open, &m, false)
	if !ok {
		return nil, common.Notice{Text: "not closed: a leg has no mid"}
	}
	saved := pos.Position
	if !roll {
		before := pos.Position
		p.undo = &before
	}
	saved.Closed, saved.Close = p.sh.Now(), fills
	path := p.path
	write := func() tea.Msg { return WrittenMsg{Err: config.SavePosition(path, saved)} }
	if !roll {
		return write, common.Notice{Text: fmt.Sprintf("position %d closed at mid; %s undoes it", pos.ID, p.keys.Undo.Help().Key), Info: true}
	}
	load := func() tea.Msg { return common.LoadTicketMsg{Strategy: open, RollOf: pos.ID} }
	return tea.Sequence(write, load), common.Open{Page: common.PageStrategy}
}

// layout marks every position and lays the page out.
func (p *Page) layout() {
	if p.W <= 0 || p.H <= 0 {
		return
	}
	d := ui.PositionsData{Confirm: p.question()}
	now := p.sh.Now()
	marks := strat.Mark(p.ps, p.chains, now)
	open, closed := 0, 0
	var today, since, realized, value float64
	var g pricing.Greeks
	syms := map[string]bool{}
	for i := range p.ps {
		pos, mk := &p.ps[i], marks[i]
		r := ui.PositionRow{ID: pos.ID, Name: pos.Name, Legs: pos.Strategy.Symbol + " " + legsText(pos),
			Opened: pos.Opened.In(api.Eastern).Format("Jan02 15:04"), Selected: i == p.sel, Open: pos.Open()}
		switch {
		case !pos.Open():
			closed++
			realized += mk.SinceOpen
			r.Status, r.SinceOp = "closed "+pos.Closed.In(api.Eastern).Format("Jan02"), strat.Money(mk.SinceOpen)
			if pos.RolledTo != 0 {
				r.Status = fmt.Sprintf("rolled to %d", pos.RolledTo)
			}
		case mk.OK:
			open++
			today, since, value = today+mk.Today, since+mk.SinceOpen, value+mk.Value
			r.Status, r.Value, r.Today, r.SinceOp = "open", strat.Money(mk.Value), strat.Money(mk.Today), strat.Money(mk.SinceOpen)
			r.Delta, r.Theta, r.Vega = ui.PositionGreek(mk.Greeks.Delta), ui.PositionGreek(mk.Greeks.Theta), ui.PositionGreek(mk.Greeks.Vega)
			g.Delta, g.Theta, g.Vega = g.Delta+mk.Greeks.Delta, g.Theta+mk.Greeks.Theta, g.Vega+mk.Greeks.Vega
			syms[pos.Strategy.Symbol] = true
		default:
			open++
			r.Status = mk.Err
		}
		d.Rows = append(d.Rows, r)
	}
	d.Summary = ui.PositionsSummary(open, closed, today, since, realized)
	if len(syms) > 0 {
		// The open positions' sums; shares of one underlying do not add
		// to another's, so the delta only when all are on one.
		t := ui.PositionRow{Name: "Total", Status: "open", Value: strat.Money(value), Today: strat.Money(today), SinceOp: strat.Money(since),
			Theta: ui.PositionGreek(g.Theta), Vega: ui.PositionGreek(g.Vega), Open: true}
		if len(syms) == 1 {
			t.Delta = ui.PositionGreek(g.Delta)
		}
		t.Status = "total"
		d.Total = &t
	}
	switch {
	case p.loadErr != nil:
		d.Message = p.loadErr.Error()
	case p.path == "":
		d.Message = "no config directory: positions are not saved (pass --config)"
	case len(p.ps) == 0:
		d.Message = "No positions yet: build a strategy on the ladder (space, z, T) and save it with s"
	}
	p.Lines = ui.PositionsPage(&d, p.W, p.H, p.sh.Styles)
}

// legsText is a position's legs, each expiry said once before its legs:
// "Dec19 -1 P690 +1 P685 -1 C711 +1 C716", so an iron condor fits the
// column at 160 columns (each leg with its date did not).
func legsText(p *strat.Position) string {
	var b strings.Builder
	var exp api.Date
	for i := range p.Strategy.Legs {
		l := &p.Strategy.Legs[i]
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if l.Option() && l.Expiry != exp {
			if exp != 0 {
				b.WriteString("· ")
			}
			exp = l.Expiry
			b.WriteString(l.Expiry.Time(api.Eastern).Format("Jan02") + " ")
		}
		b.WriteString(strings.TrimSuffix(l.String(), " "+l.Expiry.String()))
	}
	return b.String()
}

// SetSize sizes the page.
func (p *Page) SetSize(w, h int) {
	if p.Resize(w, h) {
		p.layout()
	}
}

// SetFocused: the page's keys are its own whenever it is on top.
func (p *Page) SetFocused(bool) {}

// Covers: the page fills the frame; the screen beneath is not polled.
func (p *Page) Covers() bool { return true }

// Wants is the job marking the open positions: one request per
// underlying, kept while the positions are the same.
func (p *Page) Wants(c common.Sight) []feed.Want {
	spans := strat.Spans(p.ps)
	if len(spans) == 0 || c.Historical {
		return nil
	}
	q := feed.Query{Mode: c.Mode}
	var name strings.Builder
	name.WriteString("positions " + string(c.Mode))
	for _, s := range slices.Sorted(maps.Keys(spans)) {
		name.WriteString(" " + s + ":" + spans[s].Key)
	}
	if p.job == nil || p.jobName != name.String() {
		p.job = feed.LegsJob(p.sh.Source(), "positions", q, spans, markEvery)
		p.jobName = name.String()
	}
	return []feed.Want{{Feed: feed.FeedJob, Query: q, Job: p.job}}
}

// Status is the page's for the status bar.
func (p *Page) Status(time.Time) common.Status {
	k, n := p.keys, p.sh.Keys
	return common.Status{Shown: feed.FeedContractQuote, Errs: []error{feed.Failed(p.err, p.errAt)}, Title: "chainwatch · positions",
		Hint: k.Close.Help().Key + " close  " + k.Roll.Help().Key + " roll  " + n.Ticket.Help().Key + " strategy  " + k.Back.Help().Key + " back  " + n.Help.Help().Key + " help"}
}

// ShortHelp and FullHelp are the page's keys.
func (p *Page) ShortHelp() []key.Binding  { return p.keys.ShortHelp() }
func (p *Page) FullHelp() [][]key.Binding { return p.keys.FullHelp(p.sh.Keys) }
