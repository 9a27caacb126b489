package watchlist

import (
	"math"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/common"
	"chainwatch/ui"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Msg is what the page asks of the root.
type Msg interface{ watchlistMsg() }

// OpenChainMsg asks the root to show Symbol's chain.
type OpenChainMsg struct{ Symbol string }

// AddSymbolMsg asks the root for the symbol prompt, whose pick is added
// (Add): the prompt and its rules are the root's to open.
type AddSymbolMsg struct{}

func (OpenChainMsg) watchlistMsg() {}
func (AddSymbolMsg) watchlistMsg() {}
func (SavedMsg) watchlistMsg()     {}

// Update takes a key (when focused), a save's outcome, or a reply.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	defer m.keepCursor()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.Focused {
			return m, m.handleKey(msg)
		}
	case SavedMsg:
		m.saved(msg)
	case feed.QuotesMsg:
		m.Apply(msg)
	case feed.EventsMsg:
		m.ApplyEvents(msg)
	}
	return m, nil
}

func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	keys, nav := &m.keys, &m.sh.Keys
	switch {
	case key.Matches(k, nav.Up):
		m.step(-1)
	case key.Matches(k, nav.Down):
		m.step(1)
	case key.Matches(k, nav.PageUp):
		m.step(-m.page())
	case key.Matches(k, nav.PageDown):
		m.step(m.page())
	case key.Matches(k, nav.Top):
		m.step(-len(m.order))
	case key.Matches(k, nav.Bottom):
		m.step(len(m.order))
	case key.Matches(k, keys.Open):
		return m.open()
	case key.Matches(k, keys.Add):
		if len(m.symbols) >= config.MaxWatchlist {
			m.note = m.fullNote()
			return nil
		}
		return func() tea.Msg { return AddSymbolMsg{} }
	case key.Matches(k, keys.Remove):
		return m.remove()
	case key.Matches(k, keys.Undo):
		return m.restore()
	case key.Matches(k, keys.MoveUp):
		return m.move(-1)
	case key.Matches(k, keys.MoveDown):
		return m.move(1)
	case key.Matches(k, keys.SortPrev):
		m.sortNext(-1)
	case key.Matches(k, keys.SortNext):
		m.sortNext(1)
	case key.Matches(k, keys.SortFlip):
		m.flip()
	}
	return nil
}

// open asks for the selected symbol's chain; one the service does not
// know has none, and the page says so instead of sending the trader to
// an empty screen.
func (m *Model) open() tea.Cmd {
	sym := m.cursor
	switch e := m.rows[sym]; {
	case sym == "":
		return nil
	case e.missing:
		m.note = ui.Note{Text: "no such symbol: " + sym + "; " + m.keys.Remove.Help().Key + " removes it", Tone: ui.ToneWarn}
		return nil
	}
	return func() tea.Msg { return OpenChainMsg{Symbol: sym} }
}

// step moves the cursor by n rows of the order shown.
func (m *Model) step(n int) {
	if len(m.order) == 0 {
		return
	}
	i := max(slices.Index(m.order, m.cursor), 0)
	m.cursor = m.order[min(max(i+n, 0), len(m.order)-1)]
}

// page is how many rows the last View showed.
func (m *Model) page() int {
	return max(ui.WatchlistBody(m.H, len(m.notes())), 1)
}

// Scroll moves the cursor by delta rows (the mouse wheel).
func (m *Model) Scroll(delta int) {
	m.step(delta)
	m.keepCursor()
}

// Click selects the row under (x, y), relative to the page's top left, as
// the last View drew it; a click on a heading sorts by that column, and a
// second one flips the order.
func (m *Model) Click(x, y int) {
	defer m.keepCursor()
	// The page as drawn now: where its columns and rows are.
	v := m.viewData(m.sh.Now())
	ui.Watchlist(&v, m.W, m.H, m.sh.Styles)
	row, col, head := ui.WatchlistHit(&v, x, y)
	switch {
	case head:
		m.sortBy(col)
	case row >= 0 && row < len(m.order):
		m.cursor = m.order[row]
	}
}

// notes are the lines under the table: the config file's skipped entries,
// then the outcome of the last action.
func (m *Model) notes() []ui.Note {
	out := make([]ui.Note, 0, len(m.skipped)+1)
	for _, s := range m.skipped {
		out = append(out, ui.Note{Text: s, Tone: ui.ToneWarn})
	}
	if m.note.Text != "" {
		out = append(out, m.note)
	}
	return out
}

// View is the page at its size.
func (m *Model) View() []string {
	v := m.viewData(m.sh.Now())
	return ui.Watchlist(&v, m.W, m.H, m.sh.Styles)
}

// viewData is what View draws at now, the cursor's row in sight from the
// kept offset (keepCursor); it writes nothing.
func (m *Model) viewData(now time.Time) ui.WatchlistView {
	v := ui.WatchlistView{Rows: make([]ui.WatchRow, 0, len(m.order))}
	var asOf api.TimeOfDay = -1
	for i, sym := range m.order {
		e := m.rows[sym]
		if sym == m.cursor {
			v.Cursor = i
		}
		v.Rows = append(v.Rows, e.watchRow(sym))
		v.Past = v.Past || e.loaded && e.row.HasPast
		if e.loaded && e.row.Quote.Timestamp > asOf {
			asOf = e.row.Quote.Timestamp
		}
	}
	notes := m.notes()
	v.Offset = m.shownOffset(v.Cursor, len(notes))
	v.Manual, v.Sort, v.Desc = m.manual, m.sortCol, m.desc
	v.Source, v.Mode, v.Cost, v.FromHistory = m.source, m.q.Mode, m.cost, m.fromHistory
	// Days to an event count from the day the data shows, as the events
	// pane and the expiry tabs count them (market.DaysLeft).
	v.Date = feed.ShownDay(m.q, now)
	v.Today = v.Date
	v.Historical = m.q.Historical(now)
	v.Closed = !v.Historical && !market.SessionLive(now, m.q.Mode)
	v.AsOf, v.Loading = asOf, m.loading && len(m.symbols) > 0
	m.freshness(&v, now)
	v.Message = m.message()
	if v.Message != "" {
		v.Rows = v.Rows[:0]
	}
	v.Notes = notes
	v.Now, v.Flash = now.UnixNano(), m.sh.Flash.Nanoseconds()
	v.Focused = m.Focused
	return v
}

// freshness sets how old the quotes are, and whether they are missing or
// stale, on v (its Loading, Historical and Closed set).
func (m *Model) freshness(v *ui.WatchlistView, now time.Time) {
	v.Age, v.NoData, v.Stale = 0, false, false
	if !m.lastOK.IsZero() {
		v.Age = max(now.Sub(m.lastOK), 0)
	}
	switch {
	case v.Loading:
	case m.lastOK.IsZero() && m.err != nil:
		v.NoData = true
	case m.err != nil && m.errAt.After(m.lastOK):
		v.Stale = true
	case !v.Historical && !v.Closed && m.interval > 0:
		v.Stale = v.Age > config.StaleAfter*m.interval+5*time.Second
	}
}

// message is what the table says instead of its rows: "" when it shows them.
func (m *Model) message() string {
	switch {
	case len(m.symbols) == 0:
		return "the watchlist is empty: " + m.keys.Add.Help().Key + " adds a symbol"
	case m.lastOK.IsZero() && m.err != nil:
		return "quotes: " + api.Describe(m.err, "")
	}
	return ""
}

// shownOffset is the first row shown with the cursor on row cursor and
// notes notes under the table: the kept offset, moved only as far as
// keeps the cursor's row in sight.
func (m *Model) shownOffset(cursor, notes int) int {
	body := max(ui.WatchlistBody(m.H, notes), 1)
	offset := min(m.offset, cursor)
	if cursor >= offset+body {
		offset = cursor - body + 1
	}
	return offset
}

// keepCursor keeps the offset that shows the cursor's row, after every
// change of the rows, the cursor or the size, so that View reads it.
func (m *Model) keepCursor() {
	m.offset = m.shownOffset(max(slices.Index(m.order, m.cursor), 0), len(m.notes()))
}

// SetSize sets the page's size; the cursor's row stays in sight.
func (m *Model) SetSize(width, height int) {
	m.Frame.SetSize(width, height)
	m.keepCursor()
}

// watchRow is e as the page draws it.
func (e *entry) watchRow(sym string) ui.WatchRow {
	r := ui.WatchRow{Symbol: sym, Loaded: e.loaded, Missing: e.missing}
	if !e.loaded {
		return r
	}
	q := &e.row.Quote
	r.Price, r.Implied, r.Change, r.ChangePct = e.row.Price, e.row.Implied, e.row.Change, e.row.ChangePct
	r.Bid, r.Ask, r.BidSize, r.AskSize = api.OrNaN(q.Bid), api.OrNaN(q.Ask), orNull(q.BidSize), orNull(q.AskSize)
	r.Open, r.High, r.Low, r.PrevClose = api.OrNaN(q.Open), api.OrNaN(q.High), api.OrNaN(q.Low), api.OrNaN(q.PrevDayClose)
	r.Volume = orNull(q.Volume)
	r.IV30, r.IV30Change = api.OrNaN(q.IV30), api.OrNaN(q.IV30Change)
	r.IVRank, r.HV30 = math.NaN(), math.NaN()
	if e.row.HasPast {
		r.IVRank, r.HV30 = e.row.Past.IVRank, e.row.Past.HV30
	}
	r.ImpliedBid, r.ImpliedAsk = api.OrNaN(q.ImpliedUnderlyingBid), api.OrNaN(q.ImpliedUnderlyingAsk)
	r.Indicator = q.ImpliedUnderlyingIndicator.V
	n := e.row.Next
	r.Earnings, r.EarningsTime, r.ExDividend = n.Earnings, n.EarningsTime, n.ExDividend
	r.Event, r.EventIsEarnings = n.Soonest()
	r.Spark = e.spark
	if !e.movedAt.IsZero() {
		r.MovedAt, r.Rose = e.movedAt.UnixNano(), e.rose
	}
	return r
}

func orNull(v api.Int) int64 {
	if !v.Valid {
		return -1
	}
	return v.V
}

// CountsSeconds reports whether the page shows an age that moves every
// second, for the root's frame clock.
func (m *Model) CountsSeconds(now time.Time) bool {
	if m.lastOK.IsZero() || m.q.Historical(now) {
		return false
	}
	return market.SessionLive(now, m.q.Mode) || m.err != nil && m.errAt.After(m.lastOK)
}

// ShortHelp is the page's keys a newcomer needs first.
func (m *Model) ShortHelp() []key.Binding { return m.keys.ShortHelp() }

// FullHelp is every key of the page, with the screen's keys that work on
// it.
func (m *Model) FullHelp() [][]key.Binding { return m.keys.FullHelp(m.sh.Keys) }
