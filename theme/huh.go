package theme

import (
	"charm.land/bubbles/v2/help"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Huh is the theme of the scanner's huh form, built from the palette's
// roles so the form looks like the rest of chainwatch and follows the
// user's palette (dark, light, colour-blind) instead of huh's own Charm
// colours.
//
// The form sits inside the scanner modal, whose box is the frame: the
// form and its groups get no border and no padding, and fields are one
// newline apart (huh's default blank line between fields would halve the
// rows of formulas that fit). The focused field carries a left bar and a
// bold title; a blurred one keeps the bar's cell blank so nothing shifts
// when focus moves. Errors are in the Error role and marked with "✗", so
// they read without colour too.
//
// With NoColor the theme uses attributes only (bold, faint, underline,
// reverse) and sets no colour at all: huh's base theme colours its
// buttons, placeholder and help, so every style is built here from
// scratch rather than on top of huh.ThemeBase.
//
// The styles are built once per call and shared by every field of the
// form: huh asks its theme for styles on every View. huh's isDark is
// ignored; the palette was already chosen for the terminal's background.
func (s *Styles) Huh() huh.Theme {
	hs := s.huhStyles()
	return huh.ThemeFunc(func(bool) *huh.Styles { return hs })
}

// huhColors are the few inks and shades the form needs: palette colours,
// or attributes alone without colour.
type huhColors struct {
	text, muted, accent, border, good, err lipgloss.Style
	button, buttonOff                      lipgloss.Style
	bar                                    lipgloss.Style
}

func (s *Styles) huhColors() huhColors {
	base := lipgloss.NewStyle()
	bar := base.PaddingLeft(1).BorderStyle(lipgloss.ThickBorder()).BorderLeft(true)
	button := base.Padding(0, 2).MarginRight(1)
	if s.NoColor {
		return huhColors{
			text: base, muted: base.Faint(true), accent: base.Bold(true), border: base,
			good: base.Bold(true), err: s.Error,
			button: button.Reverse(true).Bold(true), buttonOff: button,
			bar: bar,
		}
	}
	p := s.Palette
	return huhColors{
		text: base.Foreground(p.Text), muted: base.Foreground(p.Muted), accent: base.Foreground(p.Accent),
		border: base.Foreground(p.Border), good: base.Foreground(p.Good), err: s.Error,
		button:    button.Foreground(p.Text).Background(p.Cursor).Bold(true),
		buttonOff: button.Foreground(p.Muted).Background(p.Header),
		bar:       bar.BorderForeground(p.Accent),
	}
}

func (s *Styles) huhStyles() *huh.Styles {
	c := s.huhColors()
	var t huh.Styles
	t.Form.Base = lipgloss.NewStyle()
	t.Group.Base = lipgloss.NewStyle()
	t.Group.Title = c.accent.Bold(true)
	t.Group.Description = c.muted
	t.FieldSeparator = lipgloss.NewStyle().SetString("\n")

	f := &t.Focused
	f.Base = c.bar
	f.Card = f.Base
	f.Title = c.accent.Bold(true)
	f.NoteTitle = c.accent.Bold(true).MarginBottom(1)
	f.Description = c.muted
	f.ErrorIndicator = c.err.SetString(" ✗")
	f.ErrorMessage = c.err.SetString("✗")
	f.SelectSelector = c.accent.SetString("> ")
	f.Option = c.text
	f.NextIndicator = c.accent.MarginLeft(1).SetString("→")
	f.PrevIndicator = c.accent.MarginRight(1).SetString("←")
	f.Directory = c.accent
	f.File = c.text
	f.MultiSelectSelector = c.accent.SetString("> ")
	f.SelectedOption = c.good
	f.SelectedPrefix = c.good.SetString("[✓] ")
	f.UnselectedOption = c.text
	f.UnselectedPrefix = c.muted.SetString("[ ] ")
	f.TextInput.Cursor = c.accent
	f.TextInput.CursorText = c.text
	f.TextInput.Placeholder = c.muted
	f.TextInput.Prompt = c.accent
	f.TextInput.Text = c.text
	f.FocusedButton = c.button
	f.BlurredButton = c.buttonOff
	f.Next = c.button

	t.Blurred = *f
	b := &t.Blurred
	b.Base = f.Base.BorderStyle(lipgloss.HiddenBorder())
	b.Card = b.Base
	b.Title = c.text
	if s.NoColor {
		b.Title = lipgloss.NewStyle()
	}
	b.SelectSelector = lipgloss.NewStyle().SetString("  ")
	b.MultiSelectSelector = lipgloss.NewStyle().SetString("  ")
	b.NextIndicator = lipgloss.NewStyle()
	b.PrevIndicator = lipgloss.NewStyle()
	b.TextInput.Prompt = c.muted

	t.Help = help.Styles{
		Ellipsis:       c.border,
		ShortKey:       c.text.Bold(true),
		ShortDesc:      c.muted,
		ShortSeparator: c.border,
		FullKey:        c.text.Bold(true),
		FullDesc:       c.muted,
		FullSeparator:  c.border,
	}
	return &t
}
