package chain

import (
	"math"
	"slices"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/common"
	"chainwatch/ui"
	"chainwatch/vol"
)

// Model is the strike ladder of one expiry, the expiry tabs and the details
// of the selected contract. The selection is kept as a strike, not a row
// index: a new snapshot may add strikes and the money moves, and the user
// expects the cursor to stay on the contract they chose. A NaN strike
// means "at the money" and follows the underlying until the user moves.
type Model struct {
	sh *common.Common
	q  feed.Query
	st chainStore

	expiry api.Date
	root   string // the selected expiry's root, when several list it (SPX, SPXW)
	strike float64
	side   api.OptionType
	win    int // index into config.StrikeWindows
	set    int // index into ui.ColumnSets
	offset int // first drawn row of the window, kept by View
	center bool
	// winLo is the strike of the window's first row (NaN: none yet). The
	// window keeps it while the money stays in the window's middle half,
	// so the rows stand still as the underlying ticks across a strike.
	winLo float64
	page  int // data rows of the last View, for PageUp and PageDown

	fullAt, lastOK, errAt time.Time
	noSuch                bool // the whole chain was a 204: no such symbol
	err                   error
	loading               bool
	earnings              api.Date

	common.Frame // size and focus, from the root

	tabs   []ui.ExpiryTab
	tabSel int     // the selected tab of tabs
	tabsOf tabsKey // what tabs were made from (Tabs)
	lv     ui.LadderView

	ver uint64   // rises with every change of the held chain, for volCache
	vc  volCache // the held chain as the vol figures read it (vol.go)

	past *vol.Past // the symbol against its stored year (past.go); nil none
}

// New returns an empty ladder; SetQuery starts it.
func New(sh *common.Common) *Model {
	return &Model{sh: sh, strike: math.NaN(), winLo: math.NaN(), side: api.Call, win: config.DefaultStrikeWindow, page: 10}
}

// SetQuery switches to another symbol, mode or date: the old chain means
// nothing for the new one, so everything but the user's view preferences
// (window, column set) is dropped.
func (c *Model) SetQuery(q feed.Query) {
	c.q = q
	c.st.clear()
	c.expiry, c.root, c.strike, c.side, c.offset, c.center, c.winLo = 0, "", math.NaN(), api.Call, 0, true, math.NaN()
	c.fullAt, c.lastOK, c.errAt, c.err = time.Time{}, time.Time{}, time.Time{}, nil
	c.noSuch = false
	c.loading, c.earnings, c.past = true, 0, nil
	c.ver++
	c.layout()
}

// feed.Query is what the ladder shows now.
func (c *Model) Query() feed.Query { return c.q }

// Expiry is the selected expiry; 0 until a whole chain arrived.
func (c *Model) Expiry() api.Date { return c.expiry }

// LastOK is when the last reply was applied; Err the last failure since,
// with its time (nil after a success); Loading is true until the first
// reply of the query, success or not.
func (c *Model) LastOK() time.Time { return c.lastOK }
func (c *Model) Err() error        { return feed.Failed(c.err, c.errAt) }
func (c *Model) Loading() bool     { return c.loading }

// NoSuchSymbol reports that the service answered the whole chain with 204:
// it does not know the symbol, and asking again would only cost points.
func (c *Model) NoSuchSymbol() bool { return c.noSuch }

// SetEarnings is the next earnings report (from the calendar): the tabs
// mark the expiries on or after it, whose options carry the event.
func (c *Model) SetEarnings(next api.Date) { c.earnings = next }

// Apply takes a chain reply. It returns false for a reply made for another
// query or another expiry than the one selected now: a slow answer must not
// overwrite what the user went to. A failure keeps the data on screen.
func (c *Model) Apply(m feed.ChainMsg) bool {
	ok := c.apply(m)
	c.layout()
	return ok
}

// apply is Apply before the layout.
func (c *Model) apply(m feed.ChainMsg) bool {
	if m.Query.Gen != c.q.Gen || (m.Expiry != 0 && m.Expiry != c.expiry) {
		return false
	}
	c.loading = false
	if m.Err != nil && !api.IsNoData(m.Err) {
		c.err, c.errAt = m.Err, m.At
		return true
	}
	snap := m.Chain
	if snap == nil && m.Expiry == 0 {
		// 204 for the whole chain: the service has no such symbol (the
		// feed never asks for a day without a session).
		c.noSuch = true
	}
	if snap == nil { // 204: nothing listed (still a valid answer)
		snap = &api.SymbolWithOptions{Underlying: c.st.und}
		snap.Symbol = c.q.Symbol
		snap.Timestamp = -1 // no snapshot, so no time to show
	}
	at := m.At.UnixNano()
	if m.Expiry == 0 {
		c.st.applyFull(snap, at)
		c.fullAt = m.At
		if _, ok := c.st.find(c.expiry); !ok || c.expiry == 0 {
			c.selectExpiry(c.nearestExpiry())
		}
	} else {
		c.st.applyExpiry(m.Expiry, snap, at)
	}
	if c.q.Date == 0 && c.expiry != 0 && c.expiry < c.q.Day(c.sh.Now()) {
		// Midnight passed over a live screen: the selected expiry settled
		// and left the tabs; go to the nearest one still trading.
		c.selectExpiry(c.nearestExpiry())
	}
	c.lastOK, c.err, c.errAt = m.At, nil, time.Time{}
	c.takePast(m)
	c.ver++
	return true
}

// nearestExpiry is the first live expiry: the first on or after
// market.FirstLiveDay, as every headless command picks it.
func (c *Model) nearestExpiry() api.Date {
	if len(c.st.exps) == 0 {
		return 0
	}
	day := market.FirstLiveDay(c.q.Date, c.sh.Now())
	i, _ := slices.BinarySearchFunc(c.st.exps, day, func(e expiryRows, d api.Date) int { return int(e.date - d) })
	return c.st.exps[min(i, len(c.st.exps)-1)].date
}

// selectExpiry goes to expiry d (its first root) with the cursor at the
// money.
func (c *Model) selectExpiry(d api.Date) {
	root := ""
	if i, ok := c.st.find(d); ok {
		root = c.st.exps[i].root
	}
	c.selectTab(d, root)
}

// selectTab goes to root's expiry d with the cursor at the money.
func (c *Model) selectTab(d api.Date, root string) {
	c.expiry, c.root, c.strike, c.side, c.offset, c.center, c.winLo = d, root, math.NaN(), api.Call, 0, true, math.NaN()
}

// keepTab goes to root's expiry d keeping the strike and side: the
// cursor is on the nearest strike to the one selected (window keeps the
// strike asked for, not the nearest, so going back finds it again); a
// cursor that followed the money follows it on the new expiry too.
func (c *Model) keepTab(d api.Date, root string) {
	strike, side := c.strike, c.side
	c.selectTab(d, root)
	c.strike, c.side = strike, side
}

// Root is the selected expiry's root when several roots list that expiry
// (SPX and SPXW on a monthly Friday), "" when one does.
func (c *Model) Root() string {
	if c.st.roots(c.expiry) < 2 {
		return ""
	}
	if i, ok := c.st.findRoot(c.expiry, c.root); ok {
		return c.st.exps[i].root
	}
	return ""
}

// Spot is the underlying's price (api.Underlying.Spot); NaN before a
// snapshot.
func (c *Model) Spot() float64 {
	if !c.st.hasUnd {
		return math.NaN()
	}
	return c.st.und.Spot()
}

// HandleKey moves the cursor, the side, the expiry, the column set and the
// window. expiryChanged tells the caller to fetch the new expiry now.
// handleKey applies a key of the ladder; it reports whether it was one and
// whether the expiry changed.
func (c *Model) handleKey(k tea.KeyPressMsg) (handled, expiryChanged bool) {
	keys := &c.sh.Keys
	rows, cur := c.window()
	switch {
	case key.Matches(k, keys.Up):
		c.moveTo(rows, cur-1)
	case key.Matches(k, keys.Down):
		c.moveTo(rows, cur+1)
	case key.Matches(k, keys.PageUp):
		c.moveTo(rows, cur-c.page)
	case key.Matches(k, keys.PageDown):
		c.moveTo(rows, cur+c.page)
	case key.Matches(k, keys.Top):
		c.moveTo(rows, 0)
	case key.Matches(k, keys.Bottom):
		c.moveTo(rows, len(rows)-1)
	case key.Matches(k, keys.Left):
		c.side = api.Call
	case key.Matches(k, keys.Right):
		c.side = api.Put
	case key.Matches(k, keys.PrevExpiry):
		return true, c.stepExpiry(-1)
	case key.Matches(k, keys.NextExpiry):
		return true, c.stepExpiry(1)
	case key.Matches(k, keys.Columns):
		c.set = (c.set + 1) % max(len(ui.ColumnSets), 1)
	case key.Matches(k, keys.Window):
		c.cycleWindow()
	default:
		return false, false
	}
	return true, false
}

// Scroll moves the cursor by delta rows (mouse wheel).
func (c *Model) Scroll(delta int) {
	rows, cur := c.window()
	c.moveTo(rows, cur+delta)
	c.layout()
}

// Click selects the row under y (relative to the ladder pane's top) and
// the side under x, as the last View drew them: the user clicked on what
// they saw.
func (c *Model) Click(x, y, width, height int) {
	if r, ok := ui.LadderHit(&c.lv, height, y); ok && r < len(c.lv.Rows) {
		c.strike = c.lv.Rows[r].Strike
		c.side = api.Call
		if x >= width/2 {
			c.side = api.Put
		}
	}
	c.layout()
}

// selected returns the cursor's row and contract, if any.
func (c *Model) selected() (*ui.StrikeRow, *ui.Contract) {
	rows, cur := c.window()
	if len(rows) == 0 {
		return nil, nil
	}
	r := &rows[cur]
	if c.side == api.Put {
		return r, &r.Put
	}
	return r, &r.Call
}

// Selected describes the contract under the cursor for the details pane.
func (c *Model) Selected() (ui.DetailsData, bool) {
	r, k := c.selected()
	if r == nil {
		return ui.DetailsData{}, false
	}
	d := ui.DetailsData{Strike: r.Strike, Type: c.side, Expiry: c.expiry, DTE: max(feed.ShownDay(c.q, c.sh.Now()).DaysUntil(c.expiry), 0), Root: c.q.Symbol}
	if root := c.Root(); root != "" {
		d.Root = root
	}
	if k.Listed() {
		d.Contract = k
		if o, err := api.ParseOSI(k.OSI); err == nil {
			d.Root = o.Root
		}
	}
	return d, k.Listed()
}

// SelectedOSI is the OSI symbol under the cursor, "" when none, for the
// tape's contract filter.
func (c *Model) SelectedOSI() string {
	if _, k := c.selected(); k != nil {
		return k.OSI
	}
	return ""
}

// Header returns the quote fields of the last snapshot; the app adds the
// source, mode, age and staleness it knows about.
func (c *Model) Header() ui.HeaderData {
	h := c.st.header()
	if h.Symbol == "" {
		h.Symbol = c.q.Symbol
	}
	h.View = viewLabels[c.set%len(viewLabels)][c.win]
	c.pastHeader(&h)
	return h
}

// viewLabels name each column set and strike window for the header
// ("quotes · 40 strikes"), made once rather than on every frame.
var viewLabels = func() [][len(config.StrikeWindows)]string {
	out := make([][len(config.StrikeWindows)]string, len(ui.ColumnSets))
	for i, set := range ui.ColumnSets {
		for j, n := range config.StrikeWindows {
			out[i][j] = set.Name + " · all strikes"
			if n > 0 {
				out[i][j] = set.Name + " · " + strconv.Itoa(n) + " strikes"
			}
		}
	}
	return out
}()

// ladder draws the ladder. It only moves Offset so that the cursor stays
// visible: the rows themselves are handed over as a slice, not copied.
func (c *Model) layout() {
	rows, cur := c.window()
	n := max(ui.LadderRows(c.H), 1)
	if n != c.page {
		// A new height (the banner gone, the terminal resized): centre
		// the cursor again rather than leave it where the old one put it.
		c.center = true
	}
	c.page = n
	// A cursor that follows the money keeps it in the middle half of the
	// pane, as the window does (window.go): on a short terminal the money
	// stays in sight with rows around it, and the rows move only when it
	// nears an edge. A cursor the user moved scrolls at the edges.
	following := math.IsNaN(c.strike) && (cur < c.offset+n/4 || cur >= c.offset+n-n/4)
	if c.center || following {
		c.offset, c.center = cur-n/2, false
	}
	if cur < c.offset {
		c.offset = cur
	}
	if cur >= c.offset+n {
		c.offset = cur - n + 1
	}
	c.offset = max(min(c.offset, len(rows)-n), 0)

	set := ui.ColumnSet{}
	if len(ui.ColumnSets) > 0 {
		set = ui.ColumnSets[c.set%len(ui.ColumnSets)]
	}
	c.lv = ui.LadderView{
		Rows: rows, Offset: c.offset, Cursor: cur, Side: c.side, Spot: c.Spot(), Set: set, Root: c.Root(),
		Flash: c.sh.Flash.Nanoseconds(), Focused: c.Focused, Message: c.message(len(rows)),
	}
}
