// Package watchlist is the watchlist page: many underlyings on one page,
// all refreshed by one underlying-quotes request. The root fetches (on the
// point-aware scheduler) and hands the replies to Apply and ApplyEvents;
// the page keeps the rows, the session's sparklines, the sort and the
// user's order, and saves edits of the list through Options.Save. What it
// asks of the root (open a chain, the symbol prompt to add one) it sends
// as messages (Msg).
package watchlist

import (
	"math"
	"slices"
	"time"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/keymap"
	"chainwatch/model/common"
	"chainwatch/ui"
)

// Options are what the page needs from the root besides Common.
type Options struct {
	// Symbols is the watchlist at start, in the user's order; Skipped are
	// the config file's entries that were not used, already worded with
	// their file and line.
	Symbols []string
	Skipped []string
	// Save writes the list to the config file (nil: edits last for the
	// session only, and the page says so once).
	Save func([]string) error
}

// Model is the watchlist page.
type Model struct {
	sh   *common.Common
	keys keymap.WatchlistKeys
	common.Frame

	symbols []string // the user's order
	rows    map[string]*entry
	q       feed.Query

	manual  bool // the user's order, else sorted by sortCol
	sortCol ui.WatchCol
	desc    bool
	cursor  string // the selected symbol: it stays selected as rows move
	offset  int

	lastOK, errAt time.Time
	err           error // the quotes' last failure since lastOK
	// evErr is the events' last failure since their last answer: for the
	// status bar, not the quotes' freshness.
	evErr   error
	evErrAt time.Time
	loading bool
	// fromHistory: the last quotes came from the store of past days.
	fromHistory bool
	day         api.Date // the session the sparklines are of

	skipped  []string // config entries not used, until a save drops them
	note     ui.Note  // the outcome of the last action
	added    string   // the symbol added last, until the service answers for it
	checking string   // a symbol picked to add, until the service answers for it (Confirm)
	undo     *removal
	saver    *saver

	// What the root tells the page before View (SetContext).
	source   string
	cost     int
	interval time.Duration

	order []string // symbols in the order shown, rebuilt by arrange
}

// entry is one symbol's data.
type entry struct {
	row     feed.QuoteRow
	loaded  bool
	missing bool
	asOf    api.TimeOfDay
	spark   []float64
	movedAt time.Time
	rose    bool
	events  bool // its next events have been asked for and answered
}

// removal is the symbol removed last, for undo.
type removal struct {
	symbol string
	at     int
	e      *entry
}

// New builds the page for o.Symbols; SetQuery starts it.
func New(sh *common.Common, o Options) *Model {
	m := &Model{sh: sh, keys: keymap.Watchlist(), rows: map[string]*entry{}, manual: true,
		skipped: slices.Clone(o.Skipped), saver: newSaver(o.Save), loading: true}
	for _, s := range o.Symbols {
		if !slices.Contains(m.symbols, s) {
			m.symbols = append(m.symbols, s)
			m.rows[s] = &entry{}
		}
	}
	if len(m.symbols) > 0 {
		m.cursor = m.symbols[0]
	}
	m.arrange()
	return m
}

// Symbols is the watchlist in the user's order.
func (m *Model) Symbols() []string { return slices.Clone(m.symbols) }

// Fetchable are the symbols worth asking the service about: all but
// those it said it does not know.
func (m *Model) Fetchable() []string {
	out := make([]string, 0, len(m.symbols))
	for _, s := range m.symbols {
		if !m.rows[s].missing {
			out = append(out, s)
		}
	}
	return out
}

// Missing are the symbols the service answered without.
func (m *Model) Missing() []string {
	var out []string
	for _, s := range m.symbols {
		if m.rows[s].missing {
			out = append(out, s)
		}
	}
	return out
}

// NeedEvents are the symbols whose next events have not been fetched.
func (m *Model) NeedEvents() []string {
	var out []string
	for _, s := range m.symbols {
		if e := m.rows[s]; !e.events && !e.missing {
			out = append(out, s)
		}
	}
	return out
}

// Selected is the symbol under the cursor, "" when the list is empty.
func (m *Model) Selected() string { return m.cursor }

// ProposeAlert asks for the alert dialog on the selected symbol, with its
// price and IV30.
func (m *Model) ProposeAlert() common.Action {
	sym := m.cursor
	if sym == "" {
		return common.Notice{Text: "the watchlist is empty"}
	}
	pa := common.ProposeAlert{Symbol: sym, Price: math.NaN(), IV30: math.NaN()}
	if e := m.rows[sym]; e != nil && e.loaded {
		pa.Price, pa.IV30 = e.row.Price, api.OrNaN(e.row.Quote.IV30)
	}
	return pa
}

// Query is what the page shows: the watchlist's mode, date and generation.
func (m *Model) Query() feed.Query { return m.q }

// SetQuery moves the page to another mode or day: the quotes, the
// sparklines and the events of the old one mean nothing for the new one.
func (m *Model) SetQuery(q feed.Query) {
	defer m.keepCursor()
	m.q = q
	for _, e := range m.rows {
		*e = entry{}
	}
	m.lastOK, m.errAt, m.err, m.loading, m.day = time.Time{}, time.Time{}, nil, true, 0
	m.evErr, m.evErrAt = nil, time.Time{}
}

// SetContext is what the root knows that the page shows: where the data
// comes from, what a refresh costs and how often one is due (for the
// stale mark).
func (m *Model) SetContext(source string, cost int, interval time.Duration) {
	m.source, m.cost, m.interval = source, cost, interval
}

// LastOK is when quotes last arrived. Err is the newer of the quotes'
// failure since then and the events' failure since their last answer.
func (m *Model) LastOK() time.Time { return m.lastOK }
func (m *Model) Err() error {
	if m.evErr != nil && (m.err == nil || m.evErrAt.After(m.errAt)) {
		return feed.Failed(m.evErr, m.evErrAt)
	}
	return feed.Failed(m.err, m.errAt)
}

// Apply takes a quotes reply for the current query. A failure keeps the
// rows on screen; a 204 means the service knows none of the symbols asked
// for. It reports whether the reply was the page's.
func (m *Model) Apply(msg feed.QuotesMsg) bool {
	defer m.keepCursor()
	if msg.Query.Gen != m.q.Gen {
		return false
	}
	m.loading = false
	if msg.Err != nil && !api.IsNoData(msg.Err) {
		m.err, m.errAt = msg.Err, msg.At
		return true
	}
	day := feed.ShownDay(m.q, msg.At)
	if day != m.day {
		// A new session (the open, or midnight): its sparklines start over.
		for _, e := range m.rows {
			e.spark, e.asOf = e.spark[:0], -1
		}
		m.day = day
	}
	m.fromHistory = msg.Resp != nil && msg.Resp.FromHistory
	rows := feed.WithPast(feed.QuoteRows(msg.Symbols, msg.Quotes, nil), msg.Past)
	for _, r := range rows {
		e, ok := m.rows[r.Symbol]
		if !ok {
			continue // removed while the request was in flight
		}
		if r.Symbol == m.added {
			m.added = ""
			if !r.Found {
				// Said at once: the trader just typed it.
				m.note = ui.Note{Text: "no such symbol: " + r.Symbol + "; " + m.keys.Remove.Help().Key + " removes it", Tone: ui.ToneWarn}
			}
		}
		e.missing = !r.Found
		if !r.Found {
			e.loaded = false
			continue
		}
		next := e.row.Next
		if e.loaded && !math.IsNaN(r.Price) && !math.IsNaN(e.row.Price) && r.Price != e.row.Price {
			e.movedAt, e.rose = msg.At, r.Price > e.row.Price
		}
		e.row, e.loaded = r, true
		e.row.Next = next
		// A point a snapshot: the same snapshot again (a closed market,
		// a refresh sooner than the service's tick) adds nothing.
		if !math.IsNaN(r.Price) && (len(e.spark) == 0 || r.Quote.Timestamp != e.asOf) {
			if len(e.spark) == config.SparkPoints {
				e.spark = append(e.spark[:0], e.spark[1:]...)
			}
			e.spark = append(e.spark, r.Price)
		}
		e.asOf = r.Quote.Timestamp
	}
	m.lastOK, m.err, m.errAt = msg.At, nil, time.Time{}
	m.arrange()
	return true
}

// ApplyEvents takes the symbols' next report and ex-dividend dates. A
// failure is kept for the status bar and asked again on the feed's
// schedule; the column shows a dash meanwhile.
func (m *Model) ApplyEvents(msg feed.EventsMsg) bool {
	defer m.keepCursor()
	if msg.Query.Gen != m.q.Gen {
		return false
	}
	if msg.Err != nil && !api.IsNoData(msg.Err) {
		m.evErr, m.evErrAt = msg.Err, msg.At
		return true
	}
	m.evErr, m.evErrAt = nil, time.Time{}
	next := feed.Next(msg.Events, m.q.Day(msg.At))
	for _, s := range msg.Symbols {
		if e, ok := m.rows[s]; ok {
			e.row.Next, e.events = next[s], true
		}
	}
	m.arrange()
	return true
}

// Known are the symbols the watchlist holds that the service knows, for
// the symbol prompt's completion.
func (m *Model) Known() []string { return m.Fetchable() }
