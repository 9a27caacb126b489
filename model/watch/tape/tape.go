package tape

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
)

// minSizes are the steps of the tape's minimum-size filter.
var minSizes = [...]int64{0, 10, 50, 100, 500, 1000}

// Model side filters, cycled by the TapeSide key.
const (
	sideAll = iota
	sideCalls
	sidePuts
	numSides
)

var sideNames = [numSides]string{"all", "calls", "puts"}

// exchangeIDs spells exchange ids once, so drawing a trade formats nothing.
var exchangeIDs = func() (a [256]string) {
	for i := range a {
		a[i] = strconv.Itoa(i)
	}
	return a
}()

// tapeEntry is a held trade: what the tape draws, and the contract in the
// form the contract filter compares (the strike as an exact integer, as in
// the OSI symbol, so 7.25 matches 7.25 however the float was computed).
type tapeEntry struct {
	tr          ui.TapeTrade
	strikeMilli int64
	exchange    uint8
}

// Model is time and sales for the symbol: the newest trades in a ring of
// fixed capacity, fetched incrementally by seq_no so that no trade is
// fetched (and paid for) twice, with filters applied when drawing.
type Model struct {
	sh        *common.Common
	q         feed.Query
	r         ring[tapeEntry]
	last      int64       // highest seq_no held; -1 none
	exchanges [256]string // exchange codes by id, from the reference table
	more      bool
	blockSize int64

	side       int
	minSize    int // index into minSizes
	contractOn bool
	contract   string
	want       api.OSI
	wantOK     bool
	filter     string // the filters in words, for the title

	scroll       int // matching trades skipped from the newest
	cur          int // the selected row among the visible ones (enter opens its contract)
	common.Frame     // size and focus, from the root
	page         int

	lastOK, errAt time.Time
	err           error
	loading       bool

	stopped string // why nothing will be fetched (Stop)
	// session names the day the trades are from ("Fri Nov 20") when it is
	// not a live session today: it has ended, so its tape is complete.
	session string

	vis   []ui.TapeTrade
	tv    ui.TapeView
	drawn drawnTape // the last View (drawn.go)

	greeks greeksState // the IV, delta and premium columns (greeks.go)
	// quotes are the IV and delta of the ladder's last answer by contract,
	// which prints take before their own are fetched (quotes.go).
	quotes map[quoteKey]quoteGreeks
}

// New returns a tape holding at most capacity trades (default 5000);
// trades of blockSize contracts or more are blocks.
func New(sh *common.Common, capacity int, blockSize int64) *Model {
	if capacity <= 0 {
		capacity = 5000
	}
	t := &Model{sh: sh, r: newRing[tapeEntry](capacity), last: -1, blockSize: blockSize, page: 10}
	t.refilter()
	return t
}

// SetQuery empties the tape for another symbol, mode or date. The side and
// size filters are the user's and stay; the contract filter belonged to
// the old chain and goes.
func (t *Model) SetQuery(q feed.Query) {
	t.q = q
	t.r.reset()
	t.last, t.more, t.scroll, t.cur = -1, false, 0, 0
	t.lastOK, t.errAt, t.err, t.loading = time.Time{}, time.Time{}, nil, true
	t.greeks.reset()
	clear(t.quotes)
	t.contractOn, t.stopped = false, ""
	t.SetContract("")
	t.refilter()
	t.layout()
}

// Stop says why the trades will not be fetched for this query (the
// service does not know the symbol), instead of "loading" for ever.
func (t *Model) Stop(why string) { t.stopped, t.loading = why, false; t.layout() }

// SetSession names the session the tape's trades come from (the root
// knows it: feed.ShownDay) and whether it is over, so that the title says
// which day a weekend or an early morning shows, and an empty tape of a
// finished session does not read "no trades yet".
func (t *Model) SetSession(d api.Date, over bool) {
	t.session = ""
	if over && d != 0 {
		t.session = ui.DayLabel(d) // formatted here, not on every frame
	}
	t.layout()
}

// Restart empties the tape to start over on the same query (a new
// session began, or the backlog outgrew the ring): unlike SetQuery it
// keeps every filter, the contract one included, since the ladder's
// selection has not changed.
func (t *Model) Restart() {
	t.r.reset()
	t.greeks.reset()
	t.last, t.more, t.scroll, t.cur = -1, false, 0, 0
	t.loading = true
	t.layout()
}

// SetExchanges names the exchanges of the trades by their codes (CBOE,
// ISE...) from the service's reference table; until it arrives, or if it
// never does, the tape shows the ids. Names are looked up when drawing,
// so trades already held are named too.
func (t *Model) SetExchanges(list []api.Exchange) {
	for _, x := range list {
		t.exchanges[x.ID] = x.Code
	}
	t.layout()
}

// NextFrom is the seq_no to fetch from: 0 before the first page (the
// latest window), then one past the newest trade held.
func (t *Model) NextFrom() int64 {
	if t.last < 0 {
		return 0
	}
	return t.last + 1
}

// Held is the number of trades in the ring.
func (t *Model) Held() int { return t.r.len() }

// More reports whether the last page was full, so the next one is due now.
func (t *Model) More() bool { return t.more }

// LastOK is when the last page was applied; Err the last failure since.
func (t *Model) LastOK() time.Time { return t.lastOK }
func (t *Model) Err() error        { return feed.Failed(t.err, t.errAt) }

// apply is Apply before the layout.
func (t *Model) apply(m feed.TapeMsg) bool {
	if m.Query.Gen != t.q.Gen {
		return false
	}
	if m.Day != 0 {
		t.SetSession(m.Day, m.Over)
	}
	if m.Restart && m.From == 0 {
		t.Restart() // a new session began, or the backlog outgrew the tape
	}
	if m.From != t.NextFrom() {
		return false
	}
	t.loading = false
	if m.Err != nil && !api.IsNoData(m.Err) {
		t.err, t.errAt, t.more = m.Err, m.At, false
		return true
	}
	trades := m.Trades
	bySeq := func(a, b api.OptionTrade) int { return cmp.Compare(a.SeqNo, b.SeqNo) }
	if !slices.IsSortedFunc(trades, bySeq) {
		slices.SortStableFunc(trades, bySeq) // the service sends them in order; be safe
	}
	for i := range trades {
		o := &trades[i]
		if o.SeqNo <= t.last {
			continue
		}
		e := t.r.push()
		fillEntry(e, o)
		t.fromQuote(e)
		t.last = o.SeqNo
		if (t.scroll > 0 || t.cur > 0) && t.match(e) {
			t.scroll++ // keep the rows the user scrolled or moved to in place
		}
	}
	t.more = len(trades) >= config.TapePageLimit
	t.lastOK, t.err, t.errAt = m.At, nil, time.Time{}
	return true
}

// fillEntry converts a trade. The contract comes from the OSI symbol when
// the service sent one (its canonical form), else from the trade's root,
// expiry, type and strike.
func fillEntry(e *tapeEntry, o *api.OptionTrade) {
	root, exp, typ, strike := o.Root, o.Expiry, o.OptionType, o.Strike
	milli := int64(math.Round(o.Strike * 1000))
	if o.Security.Valid {
		if s, err := api.ParseOSI(o.Security.V); err == nil {
			root, exp, typ, strike, milli = s.Root, s.Expiry, s.Type, s.Strike(), s.StrikeMilli
		}
	}
	e.strikeMilli, e.exchange = milli, o.ExchangeID
	e.tr = ui.TapeTrade{
		Time: o.Timestamp, Type: typ, Strike: strike, Expiry: exp, Root: root,
		Price: api.OrNaN(o.Price), Size: o.Size, Bid: api.OrNaN(o.Bid), Ask: api.OrNaN(o.Ask),
		At: o.TradeAt, Exchange: exchangeIDs[o.ExchangeID], Cancel: o.CancelFlag, SeqNo: o.SeqNo,
		IV: math.NaN(), Delta: math.NaN(),
	}
}

// match applies the filters to a held trade.
func (t *Model) match(e *tapeEntry) bool {
	switch {
	case e.tr.Size < minSizes[t.minSize]:
		return false
	case t.side == sideCalls && e.tr.Type != api.Call, t.side == sidePuts && e.tr.Type != api.Put:
		return false
	case t.contractOn:
		w := &t.want
		return t.wantOK && e.strikeMilli == w.StrikeMilli && e.tr.Expiry == w.Expiry && e.tr.Type == w.Type && e.tr.Root == w.Root
	}
	return true
}

// SetContract is the ladder's selection, for the contract filter.
func (t *Model) SetContract(osi string) {
	if osi == t.contract {
		return
	}
	t.contract = osi
	t.want, t.wantOK = api.OSI{}, false
	if osi != "" {
		if o, err := api.ParseOSI(osi); err == nil {
			t.want, t.wantOK = o, true
		}
	}
	if t.contractOn {
		t.scroll = 0
	}
	t.refilter()
	t.layout()
}

// refilter spells the filters for the title, once per change.
func (t *Model) refilter() {
	var b strings.Builder
	b.WriteString(sideNames[t.side])
	if t.contractOn {
		b.WriteString(" ")
		if t.wantOK {
			b.WriteString(t.want.String())
		} else {
			b.WriteString("contract")
		}
	}
	if n := minSizes[t.minSize]; n > 0 {
		b.WriteString(" ≥")
		b.WriteString(strconv.FormatInt(n, 10))
	}
	t.filter = b.String()
}

// handleKey answers the filter keys always, and the scrolling keys when
// the tape has the focus (otherwise they belong to the ladder).
func (t *Model) handleKey(k tea.KeyPressMsg, focused bool) bool {
	keys := &t.sh.Keys
	switch {
	case key.Matches(k, keys.TapeSide):
		t.side = (t.side + 1) % numSides
	case key.Matches(k, keys.TapeContract):
		t.contractOn = !t.contractOn
	case key.Matches(k, keys.MinSizeUp):
		t.minSize = min(t.minSize+1, len(minSizes)-1)
	case key.Matches(k, keys.MinSizeDown):
		t.minSize = max(t.minSize-1, 0)
	case key.Matches(k, keys.TapeGreeks):
		t.greeks.on = !t.greeks.on
		return true
	case !focused:
		return false
	case key.Matches(k, keys.Up):
		if t.cur > 0 {
			t.cur--
		} else {
			t.Scroll(-1)
		}
		return true
	case key.Matches(k, keys.Down):
		if t.cur < len(t.vis)-1 {
			t.cur++
		} else {
			t.Scroll(1)
		}
		return true
	case key.Matches(k, keys.PageUp):
		t.Scroll(-t.page)
		return true
	case key.Matches(k, keys.PageDown):
		t.Scroll(t.page)
		return true
	case key.Matches(k, keys.Top):
		t.scroll, t.cur = 0, 0
		return true
	case key.Matches(k, keys.Bottom):
		t.scroll, t.cur = max(t.matching()-t.page, 0), t.page-1
		return true
	default:
		return false
	}
	t.scroll, t.cur = 0, 0 // a new filter starts from the newest trade
	t.refilter()
	return true
}

// Scroll moves the view by delta trades: positive goes to older trades.
func (t *Model) Scroll(delta int) {
	t.scroll = min(max(t.scroll+delta, 0), max(t.matching()-t.page, 0))
	t.layout()
}

// matching counts the held trades that pass the filters.
func (t *Model) matching() int {
	n := 0
	for i := range t.r.len() {
		if t.match(t.r.at(i)) {
			n++
		}
	}
	return n
}

// collect fills t.vis with up to rows matching trades after t.scroll.
func (t *Model) collect(rows int) {
	t.vis = t.vis[:0]
	skip := t.scroll
	for i := 0; i < t.r.len() && len(t.vis) < rows; i++ {
		e := t.r.at(i)
		if !t.match(e) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		tr := e.tr
		if code := t.exchanges[e.exchange]; code != "" {
			tr.Exchange = code
		}
		t.vis = append(t.vis, tr)
	}
	if len(t.vis) < rows && t.scroll > 0 {
		// Scrolled past the oldest (the filter or the ring changed): show
		// the oldest screenful instead of a half-empty one.
		t.scroll = max(t.scroll-skip-(rows-len(t.vis)), 0)
		t.collect(rows)
	}
	t.cur = max(min(t.cur, len(t.vis)-1), 0)
}
