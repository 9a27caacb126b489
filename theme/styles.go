package theme

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
)

// Tone is a foreground role.
type Tone uint8

// Tones, in the order of Styles.Cell's first index.
const (
	ToneText Tone = iota
	ToneMuted
	ToneAccent
	ToneUp
	ToneDown
	ToneCall
	TonePut
	ToneBidSide
	ToneAskSide
	ToneMidSide
	ToneBlock
	ToneCanceled
	ToneGood
	ToneCaution
	ToneBad
	ToneWarn
	ToneError
	ToneBold // text, emphasised: labels, the strike column
	NumTones
)

// Shade is a background role.
type Shade uint8

// Shades, in the order of Styles.Cell's second index.
const (
	ShadeNone Shade = iota
	ShadeITM
	ShadeCursor
	ShadeFlash
	ShadeHeader
	NumShades
)

// Span is a style rendered once into its opening and closing escape
// sequences. Wrapping plain, already padded text in a Span costs two
// string appends, where lipgloss's Style.Render measures and rewrites the
// text on every call: the ladder draws hundreds of cells a frame, and the
// performance notes measured spans fifty times cheaper.
type Span struct{ Open, Close string }

// Wrap returns text inside the span.
func (s Span) Wrap(text string) string { return s.Open + text + s.Close }

// Append writes text inside the span to b.
func (s Span) Append(b *strings.Builder, text string) {
	b.WriteString(s.Open)
	b.WriteString(text)
	b.WriteString(s.Close)
}

// Styles is everything the renderers need to colour a frame. Build it once
// per palette with New and hand the same pointer to every component.
type Styles struct {
	Palette Palette
	NoColor bool

	// Cell is the span for a tone on a shade: the hot path of every table.
	Cell [NumTones][NumShades]Span

	// Lipgloss styles for the few places that lay out blocks, not cells.
	Title, Label, Value, Muted, Border, Help, Error, Warn lipgloss.Style
	Box                                                   lipgloss.Style // a bordered pane or modal
	// BorderSpan is Border pre-rendered, for the lines between panes that
	// every frame draws.
	BorderSpan Span

	// The scan results table (bubble-table renders with lipgloss styles):
	// its header, its cells, and the highlighted row. Without colour the
	// highlighted row is reversed, as the ladder's cursor is.
	ScanHeader, ScanCell, ScanSelected lipgloss.Style
}

// New builds the Styles of a palette. With noColor (NO_COLOR set, or the
// user asked for it) no colour is emitted at all: tones become attributes
// (bold, faint, underline, reverse) so that nothing a trader needs is told
// by colour alone, and the renderers add words and marks on top.
func New(p Palette, noColor bool) *Styles {
	s := &Styles{Palette: p, NoColor: noColor}
	for t := Tone(0); t < NumTones; t++ {
		for sh := Shade(0); sh < NumShades; sh++ {
			s.Cell[t][sh] = spanOf(s.cellStyle(t, sh))
		}
	}
	base := lipgloss.NewStyle()
	if noColor {
		s.Title = base.Bold(true)
		s.Label = base.Faint(true)
		s.Value = base
		s.Muted = base.Faint(true)
		s.Border = base
		s.Help = base.Faint(true)
		s.Error = base.Bold(true).Underline(true)
		s.Warn = base.Bold(true)
		s.Box = base.Border(lipgloss.RoundedBorder()).Padding(0, 1)
		s.BorderSpan = spanOf(s.Border)
		s.ScanHeader = base.Bold(true)
		s.ScanCell = base
		s.ScanSelected = base.Reverse(true)
		return s
	}
	s.Title = base.Foreground(p.Accent).Bold(true)
	s.Label = base.Foreground(p.Muted)
	s.Value = base.Foreground(p.Text)
	s.Muted = base.Foreground(p.Muted)
	s.Border = base.Foreground(p.Border)
	s.Help = base.Foreground(p.Muted)
	s.Error = base.Foreground(p.Error).Bold(true)
	s.Warn = base.Foreground(p.Warn)
	s.Box = base.Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent).Padding(0, 1)
	s.BorderSpan = spanOf(s.Border)
	s.ScanHeader = base.Foreground(p.Accent).Bold(true)
	s.ScanCell = base.Foreground(p.Text)
	// The background reaches the gaps between cells too (they are the
	// table's column borders), so the row reads as one bar.
	s.ScanSelected = base.Foreground(p.Text).Background(p.Cursor).BorderBackground(p.Cursor)
	return s
}

// Span is the span of a tone on a shade.
func (s *Styles) Span(t Tone, sh Shade) Span { return s.Cell[t][sh] }

func (s *Styles) cellStyle(t Tone, sh Shade) lipgloss.Style {
	st := lipgloss.NewStyle()
	if s.NoColor {
		switch t {
		case ToneMuted, ToneCanceled:
			st = st.Faint(true)
		case ToneBold, ToneAccent, ToneBlock, ToneError, ToneBad:
			st = st.Bold(true)
		case ToneWarn, ToneCaution:
			st = st.Underline(true)
		}
		switch sh {
		case ShadeCursor:
			st = st.Reverse(true)
		case ShadeFlash:
			st = st.Bold(true).Underline(true)
		}
		return st
	}
	p := s.Palette
	if fg := p.tone(t); fg != nil {
		st = st.Foreground(fg)
	}
	if t == ToneBold || t == ToneBlock {
		st = st.Bold(true)
	}
	if t == ToneCanceled {
		st = st.Strikethrough(true)
	}
	if bg := p.shade(sh); bg != nil {
		st = st.Background(bg)
	}
	return st
}

func (p Palette) tone(t Tone) color.Color {
	switch t {
	case ToneMuted:
		return p.Muted
	case ToneAccent:
		return p.Accent
	case ToneUp:
		return p.Up
	case ToneDown:
		return p.Down
	case ToneCall:
		return p.Call
	case TonePut:
		return p.Put
	case ToneBidSide:
		return p.BidSide
	case ToneAskSide:
		return p.AskSide
	case ToneMidSide:
		return p.MidSide
	case ToneBlock:
		return p.Block
	case ToneCanceled:
		return p.Canceled
	case ToneGood:
		return p.Good
	case ToneCaution:
		return p.Caution
	case ToneBad:
		return p.Bad
	case ToneWarn:
		return p.Warn
	case ToneError:
		return p.Error
	}
	return p.Text
}

func (p Palette) shade(sh Shade) color.Color {
	switch sh {
	case ShadeITM:
		return p.ITM
	case ShadeCursor:
		return p.Cursor
	case ShadeFlash:
		return p.Flash
	case ShadeHeader:
		return p.Header
	}
	return nil
}

// spanOf renders a style around a marker once and keeps what came before
// and after it.
func spanOf(st lipgloss.Style) Span {
	const mark = "\u2063" // invisible separator: never in chainwatch's text
	out := st.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return Span{}
	}
	return Span{Open: out[:i], Close: out[i+len(mark):]}
}

// Style is a tone as a lipgloss style, for the few renderers that hand
// styles to a library (the contract page's chart, drawn by ntcharts).
func (s *Styles) Style(t Tone) lipgloss.Style { return s.cellStyle(t, ShadeNone) }
