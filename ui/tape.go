package ui

import (
	"math"
	"strconv"
	"unicode/utf8"

	"chainwatch/api"
	"chainwatch/text"
	"chainwatch/theme"
)

// TapeTrade is one print of the tape.
type TapeTrade struct {
	Time     api.TimeOfDay
	Type     api.OptionType
	Strike   float64
	Expiry   api.Date
	Root     string
	Price    float64
	Size     int64
	Bid, Ask float64 // the NBBO when it printed
	At       api.TradeAt
	Exchange string
	Cancel   api.CancelFlag
	SeqNo    int64
	// IV and Delta are the greeks the print carried (option-trades-with-
	// greeks), NaN until fetched; shown with TapeView.Greeks.
	IV, Delta float64
	// GreeksAsked says its greeks were asked for: a NaN IV is then the
	// service's null (no bid, or a market too wide), drawn "-", not "?"
	// (not fetched yet).
	GreeksAsked bool
	// IVQuote says IV and Delta are its contract's quote's (the ladder's,
	// at about the print's time), not the print's own: drawn "~22".
	IVQuote bool
}

// TapeView is what the tape pane shows this frame.
type TapeView struct {
	Trades    []TapeTrade // visible trades, newest first, already filtered; at most TapeRows
	Held      int         // trades held in the ring
	BlockSize int64       // size >= BlockSize is a block: ToneBlock and a mark; <= 0 none
	Filter    string      // e.g. "all", "calls ≥10", "SPY 251121C450": shown in the title
	Focused   bool
	Message   string // instead of rows when non-empty
	Session   string // the session shown when it is not today's live one ("Fri Nov 20"); "" today
	// Cursor is the selected row among Trades (enter opens its contract),
	// drawn when Focused; < 0 none.
	Cursor int
	// Greeks shows the IV, delta and premium $ columns, before the
	// optional ones; GreeksNote says why IV and delta are dashes when
	// they cannot be had ("IV needs OPRA"), in the title.
	Greeks     bool
	GreeksNote string
	// Paused says the tape is held where the user moved to (it does not
	// move down as prints arrive): the title says so first, with Newer,
	// the prints above the top row, and ResumeKey, the key that goes back
	// to the newest ("g").
	Paused    bool
	Newer     int
	ResumeKey string
}

// TradeAtCode is the short code of where a trade printed against the NBBO
// and the tone it is drawn in: ask-side prints (buyers lifting the offer)
// in the ask tone, bid-side in the bid tone, mid in its own, and crossed
// or no market muted because they say nothing about the aggressor. The
// code is there so the side reads without colour.
func TradeAtCode(at api.TradeAt) (code string, tone theme.Tone) {
	switch at {
	case api.AboveAsk:
		return "AA", theme.ToneAskSide
	case api.OnAsk:
		return "A", theme.ToneAskSide
	case api.MidMarket:
		return "M", theme.ToneMidSide
	case api.OnBid:
		return "B", theme.ToneBidSide
	case api.BelowBid:
		return "BB", theme.ToneBidSide
	case api.CrossedMarket:
		return "X", theme.ToneMuted
	case api.NoMarket:
		return "NM", theme.ToneMuted
	}
	return dash, theme.ToneMuted
}

// Marks in the tape's first column: shapes, so they show without colour.
const (
	tapeBlockMark    = "◆"
	tapeCanceledMark = "x"
)

// tapeCols is which optional columns fit the pane's width.
type tapeCols struct {
	iv, delta, prem          bool
	expiry, exch, nbbo, root bool
	strikeW, sizeW           int // narrower with the greeks columns
}

// Column widths of a tape row.
const (
	tapeTimeW   = 8
	tapeStrikeW = 7
	tapeExpW    = 5
	tapePriceW  = 7
	tapeSizeW   = 6
	tapeCodeW   = 3
	tapeExchW   = 4
	tapeNBBOW   = 13
	tapeRootW   = 5
	// With the greeks columns the strike and size give a cell each
	// (6952.5, 12345, then 123k) and the figures are written bare under
	// their headings (IV% 22.1, delta -0.79, prem$ 58292 or 1.2M): all
	// three then fit beside the expiry in the 60 cells a 160-wide
	// terminal gives the tape.
	tapeGreeksStrikeW = 6
	tapeGreeksSizeW   = 5
	tapeIVW           = 4 // 22.1; from 100 without the decimal
	tapeDeltaW        = 5
	tapePremW         = 5
	// mark, time, C/P, price, code and the blanks between; the strike and
	// size cells are added by the layout.
	tapeBaseW = 1 + 1 + tapeTimeW + 1 + 1 + 1 + 1 + tapePriceW + 1 + 1 + tapeCodeW
)

// tapeLayout picks the optional columns that fit width. With the greeks
// columns the contract is named first (its expiry, and its root when the
// prints shown have several: SPX and SPXW), then IV, delta and premium:
// a figure is worth nothing against a contract half named.
func tapeLayout(width int, greeks bool, trades []TapeTrade) tapeCols {
	c := tapeCols{strikeW: tapeStrikeW, sizeW: tapeSizeW}
	if greeks {
		c.strikeW, c.sizeW = tapeGreeksStrikeW, tapeGreeksSizeW
	}
	w := tapeBaseW + c.strikeW + c.sizeW
	add := func(on *bool, n int) {
		if !*on && w+1+n <= width {
			*on = true
			w += 1 + n
		}
	}
	if greeks {
		add(&c.expiry, tapeExpW)
		for i := range trades {
			if trades[i].Root != trades[0].Root {
				add(&c.root, tapeRootW)
				break
			}
		}
		add(&c.iv, tapeIVW)
		add(&c.delta, tapeDeltaW)
		add(&c.prem, tapePremW)
	}
	add(&c.expiry, tapeExpW)
	add(&c.exch, tapeExchW)
	add(&c.nbbo, tapeNBBOW)
	add(&c.root, tapeRootW)
	return c
}

// TapeRows is how many prints a tape of height lines shows: the title,
// the legend and, with the greeks columns, a line of headings come first.
func TapeRows(height int, greeks bool) int {
	if greeks {
		return max(height-3, 0)
	}
	return max(height-2, 0)
}

// tapeHeadings is the line naming the columns cols shows, each over its
// column: with the greeks columns the figures are bare numbers (IV 22.1,
// delta 0.512, premium 12.3K) that read as nothing without them.
func tapeHeadings(cols tapeCols, width int, st *theme.Styles) string {
	sp := &st.Cell[theme.ToneMuted][theme.ShadeNone]
	dst := make([]byte, 0, width+64)
	dst = append(dst, ' ')
	used := 1
	cell := func(label string, cw int, right bool) {
		dst = tapeCell(dst, &used, width, true, sp, []byte(label), cw, right)
	}
	cell("time", tapeTimeW, false)
	cell("", 1, false)
	cell("strike", cols.strikeW, true)
	if cols.expiry {
		cell("exp", tapeExpW, false)
	}
	cell("price", tapePriceW, true)
	cell("size", cols.sizeW, true)
	cell("at", tapeCodeW, false)
	if cols.iv {
		cell("IV%", tapeIVW, true)
	}
	if cols.delta {
		cell("delta", tapeDeltaW, true)
	}
	if cols.prem {
		cell("prem$", tapePremW, true)
	}
	if cols.exch {
		cell("exch", tapeExchW, false)
	}
	if cols.nbbo {
		cell("bid/ask", tapeNBBOW, true)
	}
	if cols.root {
		cell("root", tapeRootW, false)
	}
	return string(appendSpaces(dst, width-used))
}

// Tape draws the time and sales pane in width x height: a title line
// ("Time & Sales · <filter> · <held> held"), a legend of the trade_at
// codes in their tones, then one trade per line, newest first: a mark
// (◆ block, x canceled), time, C/P with strike and expiry in the call or
// put tone, price and trade_at code in the side's tone, size (block tone
// for blocks), and, as the width allows, exchange, the NBBO at the print
// and the option root. A canceled trade is drawn dimmed and struck
// through with its x; the cancel message (a later record naming it) is a
// muted row coded CXL.
//
// It runs every frame with up to ~45 rows, so rows are built in one byte
// buffer from format.go's appenders and pre-rendered spans: no fmt, no
// lipgloss, one string for all the rows.
func Tape(v *TapeView, width, height int, st *theme.Styles) []string {
	out := make([]string, max(height, 0))
	if height <= 0 {
		return out
	}
	if width <= 0 {
		return out
	}
	cols := tapeLayout(width, v.Greeks, v.Trades)
	note := v.GreeksNote
	if v.Greeks && !cols.iv && note == "" {
		note = "IV needs a wider tape" // rather than a key that seems to do nothing
	}
	if v.Greeks && cols.iv && note == "" {
		note = tapeIVLegend(v.Trades[:min(len(v.Trades), TapeRows(height, true))])
	}
	out[0] = tapeTitle(v, note, width, st)
	if height > 1 {
		out[1] = tapeLegend(v.BlockSize, width, st)
	}
	rows := TapeRows(height, v.Greeks)
	top := height - rows // the first print's line
	if rows <= 0 {
		if v.Greeks && height > 2 {
			out[2] = paneBlank(width)
		}
		return out
	}
	blank := paneBlank(width)
	msg := text.Clean(v.Message)
	if msg == "" && len(v.Trades) == 0 {
		msg = "no trades"
	}
	if msg != "" {
		for i := 2; i < height; i++ {
			out[i] = blank
		}
		out[top+(rows-1)/2] = centeredMessage(msg, width, st)
		return out
	}

	if v.Greeks {
		out[2] = tapeHeadings(cols, width, st)
	}
	n := min(rows, len(v.Trades))
	// One buffer for all rows, one string sliced into lines: a row's text
	// and its dozen spans fit in the width and 240 reserved a row.
	var ends [64]int
	offs := ends[:0]
	if n+1 > len(ends) {
		offs = make([]int, 0, n+1)
	}
	offs = append(offs, 0)
	buf := make([]byte, 0, n*(width+240))
	for i := 0; i < n; i++ {
		sh := theme.ShadeNone
		if v.Focused && i == v.Cursor {
			sh = theme.ShadeCursor
		}
		buf = appendTapeRow(buf, &v.Trades[i], v.BlockSize, cols, width, sh, st)
		offs = append(offs, len(buf))
	}
	all := string(buf)
	for i := 0; i < n; i++ {
		out[top+i] = all[offs[i]:offs[i+1]]
	}
	for i := top + n; i < height; i++ {
		out[i] = blank
	}
	return out
}

// tapeCell appends text padded to cw cells (right-aligned or left) in the
// span, after a blank when gap, cut to the room left of the row; used
// counts the row's cells. The blank is inside the span: a row is then a
// few runs of one style each, not a reset around every blank, which is
// what the terminal gets again for every row when the tape moves down.
// The buffer is passed and returned, not kept in a struct: a local slice
// needs no GC write barrier on every append.
func tapeCell(dst []byte, used *int, width int, gap bool, sp *theme.Span, text []byte, cw int, right bool) []byte {
	if *used >= width {
		return dst
	}
	dst = append(dst, sp.Open...)
	if gap {
		dst = append(dst, ' ')
		*used++
	}
	cw = max(min(cw, width-*used), 0)
	text = text[:min(len(text), cw)]
	if right {
		dst = append(dst, spaces[:cw-len(text)]...)
	}
	dst = append(dst, text...)
	if !right {
		dst = append(dst, spaces[:cw-len(text)]...)
	}
	dst = append(dst, sp.Close...)
	*used += cw
	return dst
}

// appendGreekCells appends the IV, delta and premium cells the columns
// hold: IV "?" while the print's greeks are not asked for yet, and the
// quote's IV and delta in quoteSp, the IV marked "~22", until the
// print's own arrive.
func appendGreekCells(dst []byte, used *int, width int, t *TapeTrade, cols tapeCols, deltaSp, premSp, ivSp, quoteSp *theme.Span) []byte {
	var tmpBuf [40]byte
	tmp := tmpBuf[:0]
	quote := t.IVQuote && !math.IsNaN(t.IV)
	if quote {
		ivSp, deltaSp = quoteSp, quoteSp
	}
	if cols.iv {
		iv := append(tmp, tapeNotFetched...)
		switch {
		case quote:
			iv = appendFit(append(tmp, tapeQuoteMark...), t.IV*100, 0, tapeIVW-len(tapeQuoteMark), false)
		case t.GreeksAsked || !math.IsNaN(t.IV):
			iv = appendFit(tmp, t.IV*100, 1, tapeIVW, false)
		}
		dst = tapeCell(dst, used, width, true, ivSp, iv, tapeIVW, true)
	}
	if cols.delta {
		dst = tapeCell(dst, used, width, true, deltaSp, appendFit(tmp, t.Delta, 3, tapeDeltaW, false), tapeDeltaW, true)
	}
	if cols.prem {
		prem := append(tmp, dash...)
		if p := t.Price * float64(t.Size) * 100; !math.IsNaN(p) {
			prem = appendSizeFit(tmp, int64(math.Round(p)), tapePremW)
		}
		dst = tapeCell(dst, used, width, true, premSp, prem, tapePremW, true)
	}
	return dst
}

// appendTapeRow appends one trade's line, exactly width cells.
func appendTapeRow(dst []byte, t *TapeTrade, blockSize int64, cols tapeCols, width int, sh theme.Shade, st *theme.Styles) []byte {
	code, side := TradeAtCode(t.At)
	block := blockSize > 0 && t.Size >= blockSize
	cp, cpTone := byte('C'), theme.ToneCall
	if t.Type == api.Put {
		cp, cpTone = 'P', theme.TonePut
	}
	// Price, size and side are one run in the side's tone: the print reads
	// as one figure (as a desk's tape colours the trade by its side), and
	// a shifting tape does not pay two colour changes a row for the size.
	timeTone, sizeTone, exTone := theme.ToneMuted, side, theme.ToneMuted
	if block {
		sizeTone = theme.ToneBlock
	}
	mark, markTone := "", theme.ToneText
	switch t.Cancel {
	case api.TradeCanceled:
		// Every cell in the canceled tone: it did not happen.
		mark, markTone = tapeCanceledMark, theme.ToneCanceled
		timeTone, cpTone, side, sizeTone, exTone = theme.ToneCanceled, theme.ToneCanceled, theme.ToneCanceled, theme.ToneCanceled, theme.ToneCanceled
	case api.TradeCancel:
		code = "CXL"
		timeTone, cpTone, side, sizeTone, exTone = theme.ToneMuted, theme.ToneMuted, theme.ToneMuted, theme.ToneMuted, theme.ToneMuted
	default:
		if block {
			mark, markTone = tapeBlockMark, theme.ToneBlock
		}
	}
	span := func(t theme.Tone) *theme.Span { return &st.Cell[t][sh] }
	// The mark: one cell, maybe several bytes.
	switch {
	case mark != "":
		sp := span(markTone)
		dst = append(dst, sp.Open...)
		dst = append(dst, mark...)
		dst = append(dst, sp.Close...)
	case sh != theme.ShadeNone:
		// The cursor's bar starts at the mark; ">" shows it without colour.
		sp := span(theme.ToneAccent)
		dst = append(dst, sp.Open...)
		dst = append(dst, '>')
		dst = append(dst, sp.Close...)
	default:
		dst = append(dst, ' ')
	}
	used := 1
	var tmpBuf [40]byte
	tmp := tmpBuf[:0]
	dst = tapeCell(dst, &used, width, true, span(timeTone), appendClock(tmp, t.Time, false), tapeTimeW, false)
	dst = tapeCell(dst, &used, width, true, span(cpTone), append(tmp, cp), 1, false)
	dst = tapeCell(dst, &used, width, true, span(cpTone), appendStrike(tmp, t.Strike), cols.strikeW, true)
	if cols.expiry {
		dst = tapeCell(dst, &used, width, true, span(cpTone), appendDate(tmp, t.Expiry), tapeExpW, false)
	}
	dst = tapeCell(dst, &used, width, true, span(side), appendPrice(tmp, t.Price), tapePriceW, true)
	dst = tapeCell(dst, &used, width, true, span(sizeTone), appendSizeFit(tmp, t.Size, cols.sizeW), cols.sizeW, true)
	dst = tapeCell(dst, &used, width, true, span(side), append(tmp, code...), tapeCodeW, false)
	dst = appendGreekCells(dst, &used, width, t, cols, span(timeTone), span(sizeTone), span(theme.ToneCaution), span(theme.ToneMuted))
	if cols.exch {
		dst = tapeCell(dst, &used, width, true, span(exTone), tapeASCII(tmp, t.Exchange, tapeExchW), tapeExchW, false)
	}
	if cols.nbbo {
		nb := appendPrice(tmp, t.Bid)
		nb = append(nb, '/')
		nb = appendPrice(nb, t.Ask)
		dst = tapeCell(dst, &used, width, true, span(exTone), nb, tapeNBBOW, true)
	}
	if cols.root {
		dst = tapeCell(dst, &used, width, true, span(exTone), tapeASCII(tmp, t.Root, tapeRootW), tapeRootW, false)
	}
	if used < width {
		if sh != theme.ShadeNone {
			sp := span(theme.ToneText)
			dst = append(dst, sp.Open...)
			dst = appendSpaces(dst, width-used)
			return append(dst, sp.Close...)
		}
		dst = appendSpaces(dst, width-used)
	}
	return dst
}

// tapeASCII appends at most w bytes of a code that should be ASCII
// (exchange, root); anything else becomes "?" so a byte stays a cell.
func tapeASCII(dst []byte, s string, w int) []byte {
	for i := 0; i < len(s) && w > 0; i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c < ' ' || c == 0x7f {
			c = '?'
			// skip the rest of a multi-byte rune
			for i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
				i++
			}
		}
		dst = append(dst, c)
		w--
	}
	if len(dst) == 0 {
		dst = append(dst, dash...)
	}
	return dst
}

// tapeTitle is the title line: what the tape shows and how much it holds.
// The focused pane gets a "▸" so focus shows without colour.
func tapeTitle(v *TapeView, note string, width int, st *theme.Styles) string {
	shade := theme.ShadeNone
	tone := theme.ToneBold
	mark := "  "
	if v.Focused {
		shade, tone, mark = theme.ShadeHeader, theme.ToneAccent, "▸ "
	}
	l := newPaneLine(width, st.Span(theme.ToneText, shade))
	l.put(st.Span(tone, shade), mark+"Time & Sales")
	if v.Paused {
		// First, so that a narrow pane cuts the filters, not this: a
		// tape that stands still must never look like a quiet market.
		l.put(st.Span(theme.ToneMuted, shade), " · ")
		l.put(st.Span(theme.ToneWarn, shade), "PAUSED")
		if v.Newer > 0 {
			var tmp [20]byte
			l.put(st.Span(theme.ToneMuted, shade), " ")
			l.putASCII(st.Span(theme.ToneWarn, shade), strconv.AppendInt(tmp[:0], int64(v.Newer), 10))
			l.put(st.Span(theme.ToneMuted, shade), " newer")
		}
		if v.ResumeKey != "" {
			l.put(st.Span(theme.ToneMuted, shade), ", ")
			l.put(st.Span(theme.ToneAccent, shade), text.Clean(v.ResumeKey))
			l.put(st.Span(theme.ToneMuted, shade), " resumes")
		}
	}
	// Each item whole, else cut at a word with "…"; the held count, the
	// least of them, goes first when they do not all fit.
	filter, note := text.Clean(v.Filter), text.Clean(note)
	var tmp [20]byte
	held := strconv.AppendInt(tmp[:0], int64(v.Held), 10)
	need := len(" · ") + len(held) + len(" held")
	for _, s := range [...]string{v.Session, filter, note} {
		if s != "" {
			need += len(" · ") + paneWidth(s)
		}
	}
	showHeld := need <= l.room()
	item := func(tone theme.Tone, s string) {
		if s != "" && l.room() >= len(" · ")+4 { // no stub of a word
			l.put(st.Span(theme.ToneMuted, shade), " · ")
			l.put(st.Span(tone, shade), CutWords(s, l.room()))
		}
	}
	item(theme.ToneAccent, v.Session)
	item(theme.ToneText, filter)
	item(theme.ToneWarn, note)
	if showHeld {
		l.put(st.Span(theme.ToneMuted, shade), " · ")
		l.putASCII(st.Span(theme.ToneText, shade), held)
		l.put(st.Span(theme.ToneMuted, shade), " held")
	}
	return l.line()
}

// tapeLegendItem is one entry of the legend: a code in its tone and what
// it means.
type tapeLegendItem struct {
	code, meaning string
	tone          theme.Tone
}

var tapeLegendItems = [...]tapeLegendItem{
	{"AA A", "ask", theme.ToneAskSide},
	{"M", "mid", theme.ToneMidSide},
	{"B BB", "bid", theme.ToneBidSide},
	{"", "", theme.ToneBlock}, // the block threshold, filled in per call
	{tapeCanceledMark, "canceled", theme.ToneCanceled},
	{"C", "call", theme.ToneCall},
	{"P", "put", theme.TonePut},
	{"X", "crossed", theme.ToneMuted},
	{"NM", "no market", theme.ToneMuted},
}

// tapeLegend is the legend line: each code in the tone its trades are
// drawn in, with its meaning, as many as fit (the sides first). It is
// drawn every frame, a line of spans, as a pure renderer keeps no cache
// between frames.
func tapeLegend(blockSize int64, width int, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	muted := st.Span(theme.ToneMuted, theme.ShadeNone)
	l.blank(2)
	for i, it := range tapeLegendItems {
		code, meaning := it.code, it.meaning
		if i == 3 {
			if blockSize <= 0 {
				continue
			}
			code, meaning = tapeBlockMark, "block ≥"+strconv.FormatInt(blockSize, 10)
		}
		need := paneWidth(code) + 1 + paneWidth(meaning)
		if i > 0 {
			need += 2
		}
		if need > l.room() {
			break
		}
		if i > 0 {
			l.blank(2)
		}
		l.put(st.Span(it.tone, theme.ShadeNone), code)
		l.blank(1)
		l.put(muted, meaning)
	}
	return l.line()
}
