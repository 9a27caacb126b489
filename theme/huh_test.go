package theme

import (
	"image/color"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// colourSGR matches an SGR sequence that sets a colour: 30-37, 38;...,
// 40-47, 48;..., 90-97, 100-107 as any parameter.
var colourSGR = regexp.MustCompile(`\x1b\[(?:[0-9;:]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:[;:][0-9;:]*)?m`)

// huhForm is a form like the scanner's: a formula, a display name, a
// confirm and a select, the first focused and the formula invalid.
func huhForm(st *Styles) *huh.Form {
	formula, name, show, sort := "iv31 > 40", "", true, "none"
	in := huh.NewInput().Title("Formula").Value(&formula).Placeholder("iv30 > 40").
		Validate(func(string) error { return errString("unknown field iv31") })
	f := huh.NewForm(huh.NewGroup(
		in,
		huh.NewInput().Title("Name").Value(&name).Placeholder("optional"),
		huh.NewConfirm().Title("Show").Value(&show),
		huh.NewSelect[string]().Title("Sort").Options(huh.NewOptions("none", "asc", "desc")...).Value(&sort),
	)).WithTheme(st.Huh()).WithWidth(60).WithShowHelp(true)
	f.Init()
	_ = in.Blur() // runs the validation, as leaving the field would
	_ = in.Focus()
	return f
}

type errString string

func (e errString) Error() string { return string(e) }

// styleColours is every colour a lipgloss style sets.
func styleColours(st lipgloss.Style) []color.Color {
	cs := []color.Color{st.GetForeground(), st.GetBackground(),
		st.GetBorderTopForeground(), st.GetBorderLeftForeground(), st.GetBorderRightForeground(), st.GetBorderBottomForeground(),
		st.GetBorderTopBackground(), st.GetBorderLeftBackground(), st.GetBorderRightBackground(), st.GetBorderBottomBackground()}
	var out []color.Color
	for _, c := range cs {
		if _, none := c.(lipgloss.NoColor); c != nil && !none {
			out = append(out, c)
		}
	}
	return out
}

// walkStyles calls fn on every lipgloss.Style inside v, with its path.
func walkStyles(v reflect.Value, path string, fn func(string, lipgloss.Style)) {
	if st, ok := v.Interface().(lipgloss.Style); ok {
		fn(path, st)
		return
	}
	if v.Kind() == reflect.Struct {
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkStyles(v.Field(i), path+"."+v.Type().Field(i).Name, fn)
			}
		}
	}
}

// Without colour not one style of the theme sets a colour.
func TestHuhThemeWithoutColourHasNoColour(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), ColorBlind(true)} {
		hs := New(p, true).Huh().Theme(true)
		n := 0
		walkStyles(reflect.ValueOf(*hs), "huh", func(path string, st lipgloss.Style) {
			n++
			if cs := styleColours(st); len(cs) > 0 {
				t.Errorf("%s: %s sets colours %v without colour", p.Name, path, cs)
			}
		})
		if n < 40 {
			t.Fatalf("walked %d styles; the theme has more", n)
		}
		// The parts the theme draws carry no colour escape. (A blurred
		// input's prompt and placeholder keep the text input's own
		// defaults: huh only restyles the focused state. They are left to
		// the program's colour profile.)
		lines := strings.Split(huhForm(New(p, true)).View(), "\n")
		for _, l := range []string{lines[0], lines[1], lines[len(lines)-1]} {
			if m := colourSGR.FindString(l); m != "" {
				t.Errorf("%s NO_COLOR form line carries a colour %q: %q", p.Name, m, l)
			}
		}
		plain := ansi.Strip(strings.Join(lines, "\n"))
		for _, want := range []string{"┃ Formula", "┃ > iv31 > 40", "Name", "Show", "Sort", "Yes", "✗ unknown field iv31"} {
			if !strings.Contains(plain, want) {
				t.Errorf("%s NO_COLOR form lacks %q:\n%s", p.Name, want, plain)
			}
		}
	}
}

func TestHuhThemeUsesThePalette(t *testing.T) {
	st := New(Dark(), false)
	out := huhForm(st).View()
	accent := spanOf(lipgloss.NewStyle().Foreground(st.Palette.Accent)).Open
	errInk := spanOf(lipgloss.NewStyle().Foreground(st.Palette.Error)).Open
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], accent[2:len(accent)-1]) {
		t.Errorf("focused title not in the accent: %q", lines[0])
	}
	if !strings.Contains(lines[len(lines)-1], errInk[2:len(errInk)-1]) {
		t.Errorf("error not in the error ink: %q", lines[len(lines)-1])
	}
	plain := ansi.Strip(out)
	for _, want := range []string{"Formula", "Name", "Show", "Sort"} {
		if !strings.Contains(plain, want) {
			t.Errorf("form lacks %q:\n%s", want, plain)
		}
	}
	// One newline between fields: no blank line between the formula's
	// input and the next title.
	pl := strings.Split(plain, "\n")
	for i := 1; i < len(pl); i++ {
		if strings.Contains(pl[i], "Name") && strings.TrimSpace(pl[i-1]) == "" {
			t.Errorf("a blank line separates fields:\n%s", plain)
		}
	}
	// Every colour is one of the palette's: huh's own inks (buttons,
	// placeholder, help) are all replaced.
	pv := reflect.ValueOf(st.Palette)
	isPalette := func(c color.Color) bool {
		for i := 0; i < pv.NumField(); i++ {
			if pc, ok := pv.Field(i).Interface().(color.Color); ok && pc == c {
				return true
			}
		}
		return false
	}
	hs := st.Huh().Theme(true)
	walkStyles(reflect.ValueOf(*hs), "huh", func(path string, s lipgloss.Style) {
		for _, c := range styleColours(s) {
			if !isPalette(c) {
				t.Errorf("%s uses %v, not a palette colour", path, c)
			}
		}
	})
}

func TestHuhThemeMarksFocusAndErrors(t *testing.T) {
	st := New(Dark(), true)
	th := st.Huh()
	hs := th.Theme(true)
	if th.Theme(false) != hs {
		t.Errorf("one theme should answer the same styles whatever the background")
	}
	if hs.Form.Base.GetHorizontalFrameSize() != 0 || hs.Group.Base.GetHorizontalFrameSize() != 0 {
		t.Errorf("form and group must have no border or padding")
	}
	if hs.FieldSeparator.Value() != "\n" {
		t.Errorf("field separator = %q, want one newline", hs.FieldSeparator.Value())
	}
	if !hs.Focused.Base.GetBorderLeft() || hs.Focused.Base.GetHorizontalFrameSize() != hs.Blurred.Base.GetHorizontalFrameSize() {
		t.Errorf("focused field needs a left bar the blurred one keeps room for")
	}
	if got := ansi.Strip(hs.Focused.ErrorMessage.Render("bad")); got != "✗ bad" {
		t.Errorf("error message not marked: %q", got)
	}
	if !hs.Focused.Title.GetBold() {
		t.Errorf("focused title not bold")
	}
}
