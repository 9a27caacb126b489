// Package vol is the vol page: the selected expiry's smile, the term
// structure of ATM IV, and every expiry's expected move, risk reversal,
// butterfly and put/call ratios, at a glance. It draws what the root
// hands it (the held chain, the ladder's expiry and cursor, what the
// term structure costs); the figures are computed by chainwatch/vol, the
// same code `chainwatch vol` prints with.
package vol

import (
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/model/common"
	"chainwatch/theme"
	"chainwatch/ui"
	volfig "chainwatch/vol"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Model is the vol page. It holds no chain of its own: the root sets the
// surface (the chain the ladder holds) before each View, and reads back
// nothing but the keys it did not take.
type Model struct {
	sh *common.Common
	common.Frame

	data   ui.VolData
	charts ui.VolCharts // drawn again only when what they show changes
	// lines are the page drawn at the size and in the styles of drawn by
	// Set, SetSize and Update, for View to return: drawing keeps charts.
	lines []string
	drawn struct {
		w, h int
		st   *theme.Styles
	}
	both bool // the smile shows calls and puts, not the OTM side merged
}

// New is an empty page; Set fills it.
func New(sh *common.Common) *Model {
	return &Model{sh: sh, data: ui.VolData{Selected: -1, Earnings: -1, Cursor: math.NaN()}}
}

// Input is what the page shows: the held chain, the expiry and strike
// the ladder has selected, the next earnings report, what the term
// structure costs, and a message instead of all of it (loading, no such
// symbol, a failure before any data).
type Input struct {
	Surface  *volfig.Surface
	Expiry   api.Date
	Cursor   float64
	Earnings api.Date
	Term     ui.TermCost
	Message  string
	// Next is the next earnings report (a zero date: none known) and
	// Moves the last reports' realized moves, from the store of past days;
	// Missing the last reports whose closes the store lacks.
	Next    api.EarningsEvent
	Moves   []volfig.EarningsMove
	Missing []api.EarningsEvent
}

// Set computes the figures of in and draws the page. The surface is read
// here and not kept beyond the smile's rows, drawn here too.
func (m *Model) Set(in Input) {
	m.set(in)
	m.draw()
}

func (m *Model) set(in Input) {
	d := &m.data
	*d = ui.VolData{Selected: -1, Earnings: -1, Cursor: in.Cursor, Both: m.both, Term: in.Term, Message: in.Message,
		Figures: d.Figures[:0], Spot: math.NaN(), Charts: &m.charts}
	s := in.Surface
	if s == nil {
		return
	}
	d.Symbol, d.Spot, d.IV30 = s.Symbol, s.Spot, s.IV30
	for i := range s.Exps {
		d.Figures = append(d.Figures, volfig.Compute(&s.Exps[i], s.Spot))
	}
	d.Earnings = ui.EarningsIndex(d.Figures, in.Earnings)
	d.Realized, d.Missing = in.Moves, in.Missing
	if len(in.Missing) > 0 {
		d.BackfillDays = volfig.BackfillDays(in.Missing, s.Day)
	}
	if in.Next.ReportDate != 0 {
		if im, ok := volfig.ImpliedMove(in.Next, d.Figures, s.Spot); ok {
			d.Implied = &im
		}
	}
	if i := s.Find(in.Expiry); i >= 0 {
		d.Selected = i
		rows := s.Exps[i].Rows
		lo, hi := volfig.SmileWindow(rows, s.Spot, d.Figures[i].Move, in.Cursor)
		d.Smile = rows[lo:hi]
	}
}

// Figures is every expiry's figures as last Set, for the tests.
func (m *Model) Figures() []volfig.Figures { return m.data.Figures }

// Both reports whether the smile shows calls and puts apart.
func (m *Model) Both() bool { return m.both }

// Update takes the page's own key: the smile's mode. Everything else
// (expiry, strike, closing) is the watch package's, which owns the ladder.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.sh.Keys.Smile) {
		m.both = !m.both
		m.data.Both = m.both
		m.draw()
	}
	return m, nil
}

// View is the page at the set size.
func (m *Model) View() []string {
	if d := m.drawn; m.lines != nil && d.w == m.W && d.h == m.H && d.st == m.sh.Styles {
		return m.lines
	}
	data := m.data
	data.Charts = nil // drawn now, not kept
	return ui.VolPage(&data, m.W, m.H, m.sh.Styles)
}

// SetSize sets the page's size and draws it at that size.
func (m *Model) SetSize(width, height int) {
	m.Frame.SetSize(width, height)
	if m.W != m.drawn.w || m.H != m.drawn.h {
		m.draw()
	}
}

// draw draws the page for View, keeping its charts until what they show
// changes.
func (m *Model) draw() {
	m.lines = ui.VolPage(&m.data, m.W, m.H, m.sh.Styles)
	m.drawn.w, m.drawn.h, m.drawn.st = m.W, m.H, m.sh.Styles
}

// ShortHelp is the page's keys for the status bar.
func (m *Model) ShortHelp() []key.Binding {
	k := &m.sh.Keys
	return []key.Binding{k.Close, k.PrevExpiry, k.NextExpiry, k.Smile, k.Help}
}

// FullHelp is every key the page answers to.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.sh.Keys
	expiry := key.NewBinding(key.WithKeys(append(k.Up.Keys(), k.Down.Keys()...)...), key.WithHelp(k.Up.Help().Key+" "+k.Down.Help().Key, "expiry"))
	strike := key.NewBinding(key.WithKeys(append(k.Left.Keys(), k.Right.Keys()...)...), key.WithHelp(k.Left.Help().Key+" "+k.Right.Help().Key, "strike (the ladder's cursor)"))
	return [][]key.Binding{
		{expiry, k.PrevExpiry, k.NextExpiry, strike, k.Smile},
		{k.Refresh, k.Symbol, k.Date, k.Mode},
		{k.Close, k.Vol, k.Help, k.Quit, k.Interrupt},
	}
}
