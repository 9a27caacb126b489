package tape

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/model/common"
	"chainwatch/ui"
)

var _ common.Pane[*Model] = (*Model)(nil)

// Update takes a key, a page of trades or the exchange table. The filter
// keys are the tape's whatever has the focus; scrolling only when it is
// focused.
func (t *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		t.handleKey(msg, t.Focused)
		t.layout()
	case feed.TapeMsg:
		t.Apply(msg)
	case feed.TapeGreeksMsg:
		t.ApplyGreeks(msg)
	case feed.ExchangesMsg:
		// Without the table the tape shows exchange ids; nothing to retry
		// for, so a failure is not shown.
		if msg.Err == nil {
			t.SetExchanges(msg.List)
		}
	}
	return t, nil
}

// View is the tape at the set size: a title with the filters, the trades
// newest first, and the legend, as laid out after the last change.
func (t *Model) View() []string { return t.drawn.lines }

// layout works out what View draws: the rows the set height holds, the
// matching trades on them, and the title's state. It runs after every
// change, and draws the lines then, so View writes nothing, and what the
// keys and the greeks requests read (the rows on screen) is what the next
// frame shows.
func (t *Model) layout() {
	rows := ui.TapeRows(t.H, t.greeks.on)
	t.page = max(rows, 1)
	t.collect(rows)
	t.tv = ui.TapeView{
		Trades: t.vis, Held: t.r.len(), BlockSize: t.blockSize, Filter: t.filter,
		Focused: t.Focused, Message: t.message(), Session: t.session,
		Cursor: t.cur, Greeks: t.greeks.on, GreeksNote: t.greeks.note,
		Paused: t.Paused(), Newer: t.scroll, ResumeKey: t.resumeKey(),
	}
	t.drawn.draw(&t.tv, t.W, t.H, t.sh.Styles)
}

// SetSize sets the size View draws.
func (t *Model) SetSize(width, height int) {
	t.Frame.SetSize(width, height)
	t.layout()
}

// SetFocused gives or takes the movement keys. Leaving the tape resumes
// it: a tape held where the user moved to would otherwise stand still,
// its top row hours old, while the pane that could resume it has no keys.
func (t *Model) SetFocused(f bool) {
	if t.Focused && !f {
		t.scroll, t.cur = 0, 0
	}
	t.Focused = f
	t.layout()
}

// Paused reports whether the tape is held where the user moved to: a
// row other than the newest is selected or the view is scrolled, so new
// prints arrive above it (the title counts them) instead of moving it.
func (t *Model) Paused() bool { return t.scroll > 0 || t.cur > 0 }

// resumeKey is the shortest key that goes back to the newest print, for
// the title of a paused tape (which has little room).
func (t *Model) resumeKey() string {
	k := ""
	for _, s := range t.sh.Keys.Top.Keys() {
		if k == "" || len(s) < len(k) {
			k = s
		}
	}
	return k
}

// Newer is how many matching prints are newer than the top row shown.
func (t *Model) Newer() int { return t.scroll }

// ShortHelp is the tape's filters.
func (t *Model) ShortHelp() []key.Binding {
	k := &t.sh.Keys
	return []key.Binding{k.TapeSide, k.TapeContract, k.MinSizeUp, k.MinSizeDown, k.TapeGreeks, k.Open}
}

// FullHelp is every key of the tape.
func (t *Model) FullHelp() [][]key.Binding {
	k := &t.sh.Keys
	return [][]key.Binding{t.ShortHelp(), {k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// TopSeq is the sequence number of the top row the last View drew, -1
// when it drew none.
func (t *Model) TopSeq() int64 {
	if len(t.vis) == 0 {
		return -1
	}
	return t.vis[0].SeqNo
}

// Apply appends a page. It drops a page for another query, and a page
// that does not start where the tape ends (a second fetch from the same
// point answered after the first): its trades are held already. A page
// out of seq_no order is sorted in place first.
func (t *Model) Apply(m feed.TapeMsg) bool {
	ok := t.apply(m)
	t.layout()
	return ok
}

// message is what the tape says instead of trades.
func (t *Model) message() string {
	switch {
	case len(t.vis) > 0:
		return ""
	case t.r.len() == 0 && t.stopped != "":
		return t.stopped
	case t.r.len() == 0 && t.err != nil:
		return "trades: " + api.Describe(t.err, "")
	case t.r.len() == 0 && t.loading:
		return "loading trades…"
	case t.r.len() == 0 && t.session != "":
		return "no trades in the " + t.session + " session"
	case t.r.len() == 0:
		return "no trades yet"
	case t.contractOn && !t.wantOK:
		return "select a contract in the ladder"
	}
	return "no trades match " + t.filter
}
