package ui

import (
	"math"
	"strconv"
	"strings"

	"chainwatch/tas"
	"chainwatch/text"
	"chainwatch/theme"
)

// ContractTradesView is the contract page's time and sales this frame.
type ContractTradesView struct {
	Trades    []tas.Trade // visible trades, newest first; at most height-2
	Sweep     []bool      // Trades[i] is part of a multi-exchange sweep
	Exchanges func(id uint8) string
	Cursor    int // row of the selected trade among Trades; < 0 none
	Held      int
	BlockSize int64
	Focused   bool
	Message   string
}

// Column widths of a contract trade row.
const (
	ctTimeW  = 12 // 10:02:03.512: prints of one second tell apart
	ctSizeW  = 6
	ctPriceW = 7
	ctCodeW  = 3
	ctIVW    = 6
	ctDeltaW = 6
	ctUndW   = 8
	ctPremW  = 7
	ctExchW  = 4
	ctNBBOW  = 13
	ctClockW = 8                                                           // 10:02:03, when the milliseconds do not fit
	ctBaseW  = 1 + 1 + ctClockW + 1 + ctSizeW + 1 + ctPriceW + 1 + ctCodeW // mark, then each column after a blank
)

// ctCols is which columns of a contract trade row fit the width, in the
// order a trader wants them: the IV and delta of the print, its premium,
// the underlying at the print, the milliseconds that tell a sweep's
// prints apart, the exchange, the NBBO.
type ctCols struct {
	ms, iv, delta, prem, und, exch, nbbo bool
}

func ctLayout(width int) ctCols {
	var c ctCols
	w := ctBaseW
	add := func(on *bool, n int) {
		if w+n <= width {
			*on = true
			w += n
		}
	}
	add(&c.iv, 1+ctIVW)
	add(&c.delta, 1+ctDeltaW)
	add(&c.prem, 1+ctPremW)
	add(&c.und, 1+ctUndW)
	add(&c.ms, ctTimeW-ctClockW)
	add(&c.exch, 1+ctExchW)
	add(&c.nbbo, 1+ctNBBOW)
	return c
}

// Sweep mark: a trade of a multi-exchange sweep.
const ctSweepMark = "»"

// ContractTrades draws the contract's time and sales in width x height: a
// title, the column heads, then one print a line, newest first: a mark (◆
// block, » sweep, x canceled), time with milliseconds, size, price and
// side code in the side's tone, the IV and delta it printed with, the
// underlying's mid at the print and the premium in dollars; the exchange
// and the NBBO as the width allows.
func ContractTrades(v *ContractTradesView, width, height int, st *theme.Styles) []string {
	out := make([]string, max(height, 0))
	if height <= 0 || width <= 0 {
		return out
	}
	shade, tone, mark := theme.ShadeNone, theme.ToneBold, "  "
	if v.Focused {
		shade, tone, mark = theme.ShadeHeader, theme.ToneAccent, "▸ "
	}
	title := newPaneLine(width, st.Span(theme.ToneText, shade))
	title.put(st.Span(tone, shade), mark+"Time & Sales")
	title.put(st.Span(theme.ToneMuted, shade), " · ")
	title.put(st.Span(theme.ToneText, shade), strconv.Itoa(v.Held))
	title.put(st.Span(theme.ToneMuted, shade), " trades · IV and greeks per print")
	out[0] = title.line()
	cols := ctLayout(width)
	if height > 1 {
		out[1] = ctHead(width, cols, st)
	}
	blank := paneBlank(width)
	msg := text.Clean(v.Message)
	if msg == "" && len(v.Trades) == 0 {
		msg = "no trades yet"
	}
	for i := 2; i < height; i++ {
		out[i] = blank
	}
	if msg != "" {
		lines := wrapWords(msg, width-2)
		top := 2 + max((height-2-len(lines))/2, 0)
		for i, ln := range lines {
			if top+i >= height {
				break
			}
			out[top+i] = centeredMessage(ln, width, st)
		}
		return out
	}
	for i := 0; i < len(v.Trades) && 2+i < height; i++ {
		sweep := i < len(v.Sweep) && v.Sweep[i]
		out[2+i] = ctRow(v, &v.Trades[i], sweep, i == v.Cursor && v.Focused, cols, width, st)
	}
	return out
}

func ctHead(width int, c ctCols, st *theme.Styles) string {
	l := newPaneLine(width, theme.Span{})
	m := st.Span(theme.ToneMuted, theme.ShadeNone)
	tw := ctClockW
	if c.ms {
		tw = ctTimeW
	}
	l.put(m, " "+padRight("time", tw)+" "+padLeft("size", ctSizeW)+" "+padLeft("price", ctPriceW)+" "+padRight("at", ctCodeW))
	for _, col := range []struct {
		on    bool
		name  string
		w     int
		right bool
	}{{c.iv, "IV", ctIVW, true}, {c.delta, "delta", ctDeltaW, true}, {c.prem, "prem $", ctPremW, true},
		{c.und, "und", ctUndW, true}, {c.exch, "exch", ctExchW, false}, {c.nbbo, "nbbo", ctNBBOW, true}} {
		if !col.on {
			continue
		}
		if col.right {
			l.put(m, " "+padLeft(col.name, col.w))
		} else {
			l.put(m, " "+padRight(col.name, col.w))
		}
	}
	return l.line()
}

func ctRow(v *ContractTradesView, t *tas.Trade, sweep, cursor bool, c ctCols, width int, st *theme.Styles) string {
	sh := theme.ShadeNone
	if cursor {
		sh = theme.ShadeCursor
	}
	code, side := TradeAtCode(t.At)
	body, sizeTone, ivTone := theme.ToneText, theme.ToneText, theme.ToneCaution
	block := v.BlockSize > 0 && t.Size >= v.BlockSize
	mark, markTone := " ", theme.ToneText
	switch {
	case t.Cancel == 1:
		mark, markTone = tapeCanceledMark, theme.ToneCanceled
		body, sizeTone, side, ivTone = theme.ToneCanceled, theme.ToneCanceled, theme.ToneCanceled, theme.ToneCanceled
	case t.Cancel == 2:
		code = "CXL"
		body, sizeTone, side, ivTone = theme.ToneMuted, theme.ToneMuted, theme.ToneMuted, theme.ToneMuted
	case block:
		mark, markTone, sizeTone = tapeBlockMark, theme.ToneBlock, theme.ToneBlock
	case sweep:
		mark, markTone = ctSweepMark, theme.ToneAccent
	}
	l := newPaneLine(width, st.Span(theme.ToneText, sh))
	span := func(t theme.Tone) theme.Span { return st.Span(t, sh) }
	var b [48]byte
	l.put(span(markTone), mark)
	cell := func(t theme.Tone, s []byte, w int, right bool) {
		if right {
			l.putASCII(span(t), appendPadLeft(b[24:24], s, w+1))
		} else {
			l.putASCII(span(t), append([]byte{' '}, appendPadRight(b[24:24], s, w)...))
		}
	}
	tw := ctClockW
	if c.ms {
		tw = ctTimeW
	}
	cell(theme.ToneMuted, appendClock(b[:0], t.Time, c.ms), tw, false)
	cell(sizeTone, appendSizeFit(b[:0], t.Size, ctSizeW), ctSizeW, true)
	cell(side, appendPrice(b[:0], t.Price), ctPriceW, true)
	cell(side, append(b[:0], code...), ctCodeW, false)
	if c.iv {
		cell(ivTone, appendPct(b[:0], t.IV, 1), ctIVW, true)
	}
	if c.delta {
		cell(body, appendFit(b[:0], t.Delta, 3, ctDeltaW, false), ctDeltaW, true)
	}
	if c.prem {
		prem := dash
		if p := t.Premium(); !math.IsNaN(p) {
			prem = string(appendSizeFit(nil, int64(math.Round(p)), ctPremW))
		}
		cell(body, []byte(prem), ctPremW, true)
	}
	if c.und {
		cell(theme.ToneMuted, appendPrice(b[:0], t.Underlying()), ctUndW, true)
	}
	if c.exch {
		name := strconv.Itoa(int(t.Exchange))
		if v.Exchanges != nil {
			if n := v.Exchanges(t.Exchange); n != "" {
				name = n
			}
		}
		cell(theme.ToneMuted, tapeASCII(b[:0], name, ctExchW), ctExchW, false)
	}
	if c.nbbo {
		nb := appendPrice(b[:0], t.Bid)
		nb = append(nb, '/')
		nb = appendPrice(nb, t.Ask)
		cell(theme.ToneMuted, nb, ctNBBOW, true)
	}
	return l.line()
}

// wrapWords breaks a message into lines of at most w cells at blanks (a
// word longer than w is cut by the line it lands on).
func wrapWords(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = word
		case paneWidth(cur)+1+paneWidth(word) <= w:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
