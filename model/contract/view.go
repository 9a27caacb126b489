package contract

import (
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/config"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/common"
	"chainwatch/tas"
	"chainwatch/ui"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Update takes the page's keys (scrolling the prints) and its replies.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		m.handleKey(msg)
	case feed.ContractQuoteMsg:
		m.ApplyQuote(msg)
	case feed.ContractTradesMsg:
		m.ApplyTrades(msg)
	case feed.ContractTAQMsg:
		m.ApplyTAQ(msg)
	case feed.ExchangesMsg:
		if msg.Err == nil {
			m.SetExchanges(msg.List)
		}
	}
	m.fillChart()
	return m, nil
}

// SetSize sets the page's size and draws its chart for it.
func (m *Model) SetSize(width, height int) {
	m.Frame.SetSize(width, height)
	m.fillChart()
}

func (m *Model) handleKey(k tea.KeyPressMsg) {
	keys := &m.sh.Keys
	switch {
	case key.Matches(k, keys.Up):
		m.Scroll(-1)
	case key.Matches(k, keys.Down):
		m.Scroll(1)
	case key.Matches(k, keys.PageUp):
		m.Scroll(-m.page)
	case key.Matches(k, keys.PageDown):
		m.Scroll(m.page)
	case key.Matches(k, keys.Top):
		m.scroll = 0
	case key.Matches(k, keys.Bottom):
		m.scroll = max(m.trades.Len()-m.page, 0)
	}
}

// Scroll moves the prints by delta: positive goes to older ones.
func (m *Model) Scroll(delta int) {
	m.scroll = min(max(m.scroll+delta, 0), max(m.trades.Len()-m.page, 0))
}

// ShortHelp is the page's keys a newcomer needs first.
func (m *Model) ShortHelp() []key.Binding {
	k := &m.sh.Keys
	return []key.Binding{k.Close, k.Up, k.Down, k.Refresh}
}

// FullHelp is every key of the page.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.sh.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Refresh, k.Close, k.Help, k.Quit, k.Interrupt}}
}

// View is the page at the set size: header, chart, summary and prints.
func (m *Model) View() []string {
	if m.W <= 0 || m.H <= 0 {
		return make([]string, max(m.H, 0))
	}
	st := m.sh.Styles
	now := m.sh.Now()
	lay := ui.NewContractLayout(m.W, m.H)
	h := m.header(now)
	panes := []ui.Pane{{R: lay.Header, Lines: ui.ContractHeader(&h, lay.Header.W, st)}}
	if r := lay.Chart; !r.Empty() {
		panes = append(panes, ui.Pane{R: r, Lines: m.chartLines(r.W, r.H, now)})
	}
	if r := lay.Summary; !r.Empty() {
		panes = append(panes, ui.Pane{R: r, Lines: ui.ContractSummary(&m.sum, m.cost, r.W, r.H, st)})
	}
	if r := lay.Trades; !r.Empty() {
		panes = append(panes, ui.Pane{R: r, Lines: m.tradeLines(r.W, r.H)})
	}
	return strings.Split(ui.Compose(m.W, m.H, panes, st), "\n")
}

// day is the session the page shows.
func (m *Model) day(now time.Time) api.Date { return feed.ShownDay(m.q.Query, now) }

// over reports whether the session shown has ended (a past day, or
// today's after the close): its data is complete.
func (m *Model) over(now time.Time) bool {
	return m.day(now) != api.Today(now) || !market.SessionLive(now, m.q.Mode)
}

// header is the header's data: the quote, the theo and the status.
func (m *Model) header(now time.Time) ui.ContractHeaderData {
	o := m.q.OSI
	h := ui.ContractHeaderData{
		OSI: o.String(), Type: o.Type, Strike: o.Strike(), Expiry: o.Expiry,
		DTE: max(m.day(now).DaysUntil(o.Expiry), 0), Underlying: m.q.Symbol,
		Quote: m.quote, Spot: m.spot, Theo: m.theo(now),
	}
	h.Status, h.Stale = m.status(now)
	return h
}

// theo carries the last print with greeks to the underlying's price now.
func (m *Model) theo(now time.Time) float64 {
	all := m.trades.Trades()
	for i := len(all) - 1; i >= 0; i-- {
		t := &all[i]
		if !t.Counts() || math.IsNaN(t.Delta) {
			continue
		}
		clock := now
		if m.q.Mode == api.Delayed {
			clock = clock.Add(-15 * time.Minute)
		}
		if m.over(now) {
			clock = market.SessionClose(m.day(now)).On(m.day(now))
		}
		days := clock.Sub(t.Time.On(m.day(now))).Hours() / 24
		return tas.Theo(t, m.spot, max(days, 0))
	}
	return math.NaN()
}

// status says where the data is from and how fresh: "live · 3s ago",
// "Fri Nov 20 · closed", and whether that is a warning.
func (m *Model) status(now time.Time) (string, bool) {
	last := m.lastOK[fQuote]
	switch {
	case m.loading:
		return "loading…", false
	case m.q.Historical(now):
		return ui.DayLabel(m.day(now)) + " · end of day", false
	case m.over(now):
		return ui.DayLabel(m.day(now)) + " · closed", false
	case last.IsZero():
		return "no quote yet", true
	}
	age := max(now.Sub(last), 0).Round(time.Second)
	fe, _ := m.Err().(*feed.FetchError)
	stale := fe != nil && fe.At.After(last) || age > config.QuietMax
	return string(m.q.Mode) + " · " + age.String() + " ago", stale
}

// Invalidate drops the kept chart, so View draws it again until the next
// Update or SetSize keeps one (the benchmarks; a theme change is noticed
// by itself).
func (m *Model) Invalidate() { m.chart = nil }

// chartLines is the chart at the size w x h: the one drawn by fillChart
// while its data, the size and the minute (the time axis grows with the
// clock) are the same, else drawn now and not kept (View writes nothing).
func (m *Model) chartLines(w, h int, now time.Time) []string {
	key := m.chartKeyAt(w, h, now)
	if m.chart != nil && key == m.chartKey && m.chartStyles == m.sh.Styles {
		return m.chart
	}
	return m.drawChart(w, h, now)
}

// fillChart draws the chart again, for View to return, when its data,
// the size, the minute or the theme changed; Update and SetSize call it.
func (m *Model) fillChart() {
	if m.W <= 0 || m.H <= 0 {
		return
	}
	now := m.sh.Now()
	r := ui.NewContractLayout(m.W, m.H).Chart
	if r.Empty() {
		return
	}
	key := m.chartKeyAt(r.W, r.H, now)
	if m.chart != nil && key == m.chartKey && m.chartStyles == m.sh.Styles {
		return
	}
	m.chart, m.chartKey, m.chartStyles = m.drawChart(r.W, r.H, now), key, m.sh.Styles
}

// chartKeyAt is what the chart drawn at w x h at now depends on.
func (m *Model) chartKeyAt(w, h int, now time.Time) [3]int {
	_, to := m.timeAxis(now)
	return [3]int{m.version, w<<16 | h, int(to / 60_000)}
}

// drawChart draws the chart at w x h at now.
func (m *Model) drawChart(w, h int, now time.Time) []string {
	from, to := m.timeAxis(now)
	d := ui.ChartData{From: from, To: to}
	for _, q := range m.quotes.All() {
		d.Mid = append(d.Mid, ui.ChartPoint{T: q.Time, V: q.Mid()})
	}
	for _, t := range m.trades.Trades() {
		if t.Counts() {
			d.Trades = append(d.Trades, ui.ChartTrade{T: t.Time, Price: t.Price, IV: t.IV, At: t.At})
		}
	}
	switch {
	case m.notEntitled:
		d.Message = "no chart: the quotes and trades need the OPRA subscription"
	case m.loading:
		d.Message = "loading the day's quotes and trades…"
	case len(d.Mid) == 0 && len(d.Trades) == 0 && m.lastOK[fTAQ].IsZero() && m.err[fTAQ] != nil:
		d.Message = "quotes: " + api.Describe(m.err[fTAQ], "")
	}
	return ui.Chart(&d, w, h, m.sh.Styles)
}

// timeAxis is the chart's time axis: the open to the data's clock, or to
// the close when the session is over.
func (m *Model) timeAxis(now time.Time) (from, to api.TimeOfDay) {
	day := m.day(now)
	from, to = market.SessionOpen, market.SessionClose(day)
	if m.over(now) {
		return from, to
	}
	clock := now
	if m.q.Mode == api.Delayed {
		clock = clock.Add(-15 * time.Minute)
	}
	// A little room past the last print, so the newest is not on the edge.
	return from, min(max(api.TimeOfDayOf(clock)+60_000, from+30*60_000), to)
}

// tradeLines is the time and sales, newest first from the scroll.
func (m *Model) tradeLines(w, h int) []string {
	rows := max(h-2, 0)
	m.page = max(rows, 1)
	all := m.trades.Trades()
	m.scroll = min(m.scroll, max(len(all)-rows, 0))
	v := ui.ContractTradesView{Held: len(all), BlockSize: m.blockSize, Focused: m.Focused, Cursor: -1,
		Exchanges: func(id uint8) string { return m.exchanges[id] }}
	for i := len(all) - 1 - m.scroll; i >= 0 && len(v.Trades) < rows; i-- {
		v.Trades = append(v.Trades, all[i])
		v.Sweep = append(v.Sweep, i < len(m.sweep) && m.sweep[i])
	}
	switch {
	case m.notEntitled:
		v.Message = feed.NotEntitledText("time and sales")
	case len(all) > 0:
	case m.loading:
		v.Message = "loading trades…"
	case m.err[fTrades] != nil:
		v.Message = "trades: " + api.Describe(m.err[fTrades], "")
	case m.over(m.sh.Now()):
		v.Message = "no trades in the " + ui.DayLabel(m.day(m.sh.Now())) + " session"
	}
	return ui.ContractTrades(&v, w, h, m.sh.Styles)
}
