// Package theme holds chainwatch's colours as named roles and the Styles
// built from them. No other package names a colour: rendering asks for a
// role (a Tone on a Shade), so a palette can change without touching the
// renderers, and NO_COLOR can swap colours for attributes in one place.
package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is a set of colour roles. Foreground roles colour text; the
// Shade roles colour a cell's background.
type Palette struct {
	Name string
	Dark bool // drawn for a dark terminal background

	Text, Muted, Accent, Border color.Color
	Up, Down                    color.Color // change against the previous close
	Call, Put                   color.Color
	BidSide, AskSide, MidSide   color.Color // where a trade printed against the NBBO
	Block, Canceled             color.Color // large prints; canceled trades
	Good, Caution, Bad          color.Color // implied-underlying indicator green / yellow / red
	Warn, Error                 color.Color

	ITM, Cursor, Flash, Header color.Color // backgrounds
}

// Dark is the default palette, for dark terminals.
func Dark() Palette {
	return Palette{
		Name: "dark", Dark: true,
		Text: c("#D0D0D0"), Muted: c("#808080"), Accent: c("#5FAFFF"), Border: c("#4E4E4E"),
		Up: c("#5FD75F"), Down: c("#FF5F5F"),
		Call: c("#87D7FF"), Put: c("#FFAFD7"),
		BidSide: c("#FF6E6E"), AskSide: c("#5FD75F"), MidSide: c("#D7D787"),
		Block: c("#FFD700"), Canceled: c("#6C6C6C"),
		Good: c("#5FD75F"), Caution: c("#FFD75F"), Bad: c("#FF5F5F"),
		Warn: c("#FFAF5F"), Error: c("#FF5F5F"),
		ITM: c("#1C2B36"), Cursor: c("#3A3A6E"), Flash: c("#5F5F00"), Header: c("#262626"),
	}
}

// Light is the palette for light terminals: darker inks, pale shades.
func Light() Palette {
	return Palette{
		Name: "light", Dark: false,
		Text: c("#1C1C1C"), Muted: c("#6C6C6C"), Accent: c("#005FAF"), Border: c("#B2B2B2"),
		Up: c("#007A00"), Down: c("#C00000"),
		Call: c("#005F87"), Put: c("#870057"),
		BidSide: c("#C00000"), AskSide: c("#007A00"), MidSide: c("#7A6A00"),
		Block: c("#AF5F00"), Canceled: c("#A8A8A8"),
		Good: c("#007A00"), Caution: c("#AF8700"), Bad: c("#C00000"),
		Warn: c("#AF5F00"), Error: c("#C00000"),
		ITM: c("#E4F0F8"), Cursor: c("#C6C6F0"), Flash: c("#FFF3A0"), Header: c("#EEEEEE"),
	}
}

// ColorBlind is the palette for red-green colour blindness, on the
// Okabe-Ito colours: blue for up, ask side and good, orange and vermilion
// for down, bid side and bad, so no pair a trader must tell apart differs
// by red and green alone.
func ColorBlind(dark bool) Palette {
	p := Dark()
	if !dark {
		p = Light()
	}
	p.Name = p.Name + "-colorblind"
	blue, sky, orange, verm, yellow := c("#0072B2"), c("#56B4E9"), c("#E69F00"), c("#D55E00"), c("#F0E442")
	if dark {
		blue = sky
	} else {
		yellow = c("#9A7D00")
	}
	p.Up, p.Down = blue, orange
	p.AskSide, p.BidSide, p.MidSide = blue, verm, yellow
	p.Good, p.Caution, p.Bad = blue, yellow, verm
	p.Call, p.Put = blue, c("#CC79A7")
	return p
}

// ByName returns a palette for a config name: "dark", "light", and either
// with colorblind.
func ByName(dark, colorblind bool) Palette {
	switch {
	case colorblind:
		return ColorBlind(dark)
	case dark:
		return Dark()
	default:
		return Light()
	}
}

func c(hex string) color.Color { return lipgloss.Color(hex) }
