// Package strategy is the strategy page: the ticket the ladder's space
// and z fill (or a template built at its cursor), its legs marked by a
// job of the monitor, its figures and risk graph (package
// chainwatch/strategy computes them, ui draws them), and saving it as a
// position.
package strategy

import (
	"chainwatch/pricing"
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	strat "chainwatch/strategy"
)

// markEvery is the interval the legs are asked to be marked at; the
// monitor stretches it to stay within the budget.
const markEvery = 5 * time.Second

// riskPoints is the risk graph's resolution: prices across the range.
const riskPoints = 200

// Page is the strategy page.
type Page struct {
	sh   *common.Common
	keys keymap.StrategyKeys
	path string // the positions file; "": not saved

	common.Laid // size and lines, laid out on a change

	q        feed.Query // the watch screen's: mode and day
	st       strat.Strategy
	cur      strat.Cursor
	hasCur   bool
	tpl      strat.Template // the next template t builds
	built    strat.Template // the template last built, when hasBuilt
	hasBuilt bool
	width    float64 // the templates' width in points, 0: strat.DefaultWidth strikes
	delta    float64 // the short strikes' delta, 0: by width
	sel      int
	days     int     // the chosen date, days from today; -1: half-way to expiry
	shift    float64 // vol points added to every IV
	rollOf   int     // the position the ticket rolls, 0: none
	chain    *api.SymbolWithOptions
	markAt   time.Time
	err      error
	errAt    time.Time
	job      *feed.Job
	jobName  string
	shown    bool // on the stack, as of the last Feeds
}

var _ common.Page = (*Page)(nil)

// NewPage returns the page with an empty ticket.
func NewPage(sh *common.Common, cfg common.Config) *Page {
	return &Page{sh: sh, keys: keymap.Strategy(), path: cfg.PositionsPath, days: -1, delta: deltas[0]}
}

// SavedMsg is a position written (or not) to the positions file.
type SavedMsg struct {
	ID  int
	Err error
}

// Strategy is the ticket.
func (p *Page) Strategy() strat.Strategy { return p.st }

// Update takes the ladder's legs and cursor, the page's keys, the legs'
// marks and the outcome of a save.
func (p *Page) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	var act common.Action
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case common.QueryMsg:
		p.q = msg.Query
	case common.TicketMsg:
		act = p.onTicket(msg)
	case common.LoadTicketMsg:
		p.st, p.rollOf, p.sel, p.hasBuilt = msg.Strategy, msg.RollOf, 0, false
	case feed.JobMsg:
		p.onMarks(msg)
	case SavedMsg:
		if msg.Err != nil {
			return nil, common.Notice{Text: msg.Err.Error()}
		}
		return func() tea.Msg { return common.PositionsChangedMsg{} }, common.Notice{Text: fmt.Sprintf("saved as position %d", msg.ID), Info: true}
	case tea.KeyPressMsg:
		cmd, act = p.onKey(msg)
	default:
		return nil, nil // a frame (DrawMsg) draws what is laid out
	}
	p.layout()
	return cmd, act
}

// onTicket adds the ladder's leg (a contract already held adds to its
// quantity); a leg on another symbol starts a new ticket.
func (p *Page) onTicket(m common.TicketMsg) common.Action {
	p.cur, p.hasCur = m.Cursor, true
	if m.Add.Qty == 0 {
		return nil
	}
	p.hasBuilt = false // { } D no longer rebuild over the legs added by hand
	if p.st.Symbol != m.Cursor.Symbol {
		p.st, p.rollOf, p.chain = strat.Strategy{Symbol: m.Cursor.Symbol}, 0, nil
	}
	for i := range p.st.Legs {
		l := &p.st.Legs[i]
		if l.Kind == m.Add.Kind && l.Strike == m.Add.Strike && l.Expiry == m.Add.Expiry && l.Root == m.Add.Root {
			l.Qty += m.Add.Qty
			if l.Qty == 0 {
				p.remove(i)
			}
			return common.Notice{Text: p.ticketNote(), Info: true}
		}
	}
	if len(p.st.Legs) == strat.MaxLegs {
		return common.Notice{Text: fmt.Sprintf("the ticket holds at most %d legs", strat.MaxLegs)}
	}
	p.st.Legs = append(p.st.Legs, m.Add)
	return common.Notice{Text: p.ticketNote(), Info: true}
}

// ticketNote says what the ticket holds and how to see it.
func (p *Page) ticketNote() string {
	if len(p.st.Legs) == 0 {
		// A sale of the one leg bought: not "0 legs of 0 legs".
		return "ticket: empty, the legs cancelled out"
	}
	name := p.st.Name()
	if !strings.HasPrefix(name, "custom") { // "custom, 3 legs" says its count
		name += fmt.Sprintf(" of %d legs", len(p.st.Legs))
	}
	return fmt.Sprintf("ticket: %s on %s; %s opens it", name, p.st.Symbol, p.sh.Keys.Ticket.Help().Key)
}

func (p *Page) remove(i int) {
	p.st.Legs = append(p.st.Legs[:i], p.st.Legs[i+1:]...)
	p.sel = min(p.sel, max(len(p.st.Legs)-1, 0))
}

// onMarks takes the legs job's run: the chain the legs are marked on.
func (p *Page) onMarks(m feed.JobMsg) {
	if p.job == nil || m.Name != p.job.Name {
		return
	}
	res, _ := m.Value.(feed.LegsResult)
	p.err, p.errAt = m.Err, m.At
	for _, r := range res {
		if r.Symbol == p.st.Symbol && r.Chain != nil {
			p.chain, p.markAt = r.Chain, r.At
		}
	}
}

// onKey is the page's keys; the others it shares with every page.
func (p *Page) onKey(k tea.KeyPressMsg) (tea.Cmd, common.Action) {
	if act := common.SharedKey(p.sh, k); act != nil {
		return nil, act
	}
	keys, nav := &p.keys, &p.sh.Keys
	switch {
	case key.Matches(k, keys.Back):
		return nil, common.Back{}
	case key.Matches(k, nav.Positions):
		return nil, common.Open{Page: common.PagePositions, Msg: common.PositionsChangedMsg{}}
	case key.Matches(k, nav.Up):
		p.sel = max(p.sel-1, 0)
	case key.Matches(k, nav.Down):
		p.sel = min(p.sel+1, max(len(p.st.Legs)-1, 0))
	case key.Matches(k, keys.Template):
		return nil, p.template()
	case key.Matches(k, keys.Narrower, keys.Wider, keys.Delta):
		return nil, p.reshape(k)
	case key.Matches(k, keys.DatePrev, keys.DateNext):
		p.moveDate(key.Matches(k, keys.DateNext))
	case key.Matches(k, keys.IVUp):
		p.shift = math.Min(p.shift+1, 50)
	case key.Matches(k, keys.IVDown):
		p.shift = math.Max(p.shift-1, -50)
	case key.Matches(k, keys.Save, keys.SaveNatural):
		return p.save(key.Matches(k, keys.SaveNatural))
	default:
		return nil, p.legKey(k)
	}
	return nil, nil
}

// legKey changes the selected leg: quantity, side, removal; or clears.
func (p *Page) legKey(k tea.KeyPressMsg) common.Action {
	keys := &p.keys
	if key.Matches(k, keys.Clear) {
		p.st.Legs, p.sel, p.rollOf, p.hasBuilt = nil, 0, 0, false
		return nil
	}
	if p.sel >= len(p.st.Legs) {
		return nil
	}
	l := &p.st.Legs[p.sel]
	step := 1
	if l.Kind == strat.Stock {
		step = pricing.Multiplier
	}
	switch {
	case key.Matches(k, keys.QtyUp, keys.QtyDown):
		d := step
		if key.Matches(k, keys.QtyDown) {
			d = -step
		}
		if l.Qty < 0 {
			d = -d // more sold, fewer sold
		}
		if n := l.Qty + d; n != 0 && n <= strat.MaxQty && n >= -strat.MaxQty {
			l.Qty = n
		}
	case key.Matches(k, keys.Flip):
		l.Qty = -l.Qty
	case key.Matches(k, keys.Remove):
		p.remove(p.sel)
	}
	return nil
}

// moveDate moves the chosen date a day, between today and the first expiry.
func (p *Page) moveDate(later bool) {
	exps := p.st.Expiries()
	if len(exps) == 0 {
		return
	}
	n := max(api.Today(p.sh.Now()).DaysUntil(exps[0]), 0)
	if p.days < 0 {
		p.days = n / 2
	}
	if later {
		p.days = min(p.days+1, n)
	} else {
		p.days = max(p.days-1, 0)
	}
}

// save writes the ticket as a new position, filled at mid or the natural,
// off the update loop.
func (p *Page) save(natural bool) (tea.Cmd, common.Action) {
	m, ok := p.market()
	if !ok {
		return nil, common.Notice{Text: "not saved: the legs are not marked yet"}
	}
	fills, ok := strat.Fills(&p.st, &m, natural)
	if !ok {
		return nil, common.Notice{Text: "not saved: a leg has no price to fill at"}
	}
	if p.path == "" {
		return nil, common.Notice{Text: "not saved: no config directory (pass --config)"}
	}
	path, st, now, rollOf := p.path, p.st, p.sh.Now(), p.rollOf
	p.rollOf = 0
	return func() tea.Msg { return saveCmd(path, &st, fills, now, rollOf) }, nil
}

// saveCmd appends the position and marks the one it rolls.
func saveCmd(path string, st *strat.Strategy, fills []float64, now time.Time, rollOf int) SavedMsg {
	pos, err := config.AddPosition(path, strat.Saved(0, st, fills, now), rollOf)
	if err != nil {
		return SavedMsg{ID: pos.ID, Err: err}
	}
	return SavedMsg{ID: pos.ID}
}
