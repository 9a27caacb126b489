package alerts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/alert"
	"chainwatch/model/common"
	"chainwatch/ui"
)

// dialog proposes a rule for what was selected, or edits one: its kind
// (←/→ among those that fit the target), above or below, and a value
// typed in, with what it would cost an hour before it is armed.
type dialog struct {
	p     *Page
	pa    common.ProposeAlert
	edit  string     // the rule edited; "" for a new one
	base  alert.Rule // the edited rule as it was
	kinds []alert.Kind
	k     int
	above bool
	value string
	typed bool // the value was typed: a kind or a flip does not replace it
	err   string
	done  bool // armed, but the save failed: any key closes
}

var (
	_ common.Overlay  = (*dialog)(nil)
	_ common.Floating = (*dialog)(nil)
)

// newDialog proposes a rule for pa's target, or opens pa.Edit's.
func newDialog(p *Page, pa common.ProposeAlert) *dialog {
	d := &dialog{p: p, pa: pa, above: true}
	if p.eng == nil {
		d.err = p.unavailable()
		return d
	}
	if pa.Edit != "" {
		if r, ok := p.eng.Rule(pa.Edit); ok {
			d.edit, d.base, d.kinds, d.above = r.Name, r, []alert.Kind{r.Kind}, r.Above
			d.pa.Symbol, d.pa.Contract = r.Symbol, r.Contract
			d.value, d.typed = valueOf(r), true
			return d
		}
	}
	switch {
	case pa.Print:
		d.kinds = []alert.Kind{alert.KindBlock, alert.KindSweep, alert.KindMid, alert.KindBid, alert.KindAsk, alert.KindIV, alert.KindUnusual, alert.KindPrice}
	case pa.Contract != "":
		d.kinds = []alert.Kind{alert.KindMid, alert.KindBid, alert.KindAsk, alert.KindIV, alert.KindUnusual, alert.KindBlock, alert.KindSweep, alert.KindPrice, alert.KindIV30}
	default:
		d.kinds = []alert.Kind{alert.KindPrice, alert.KindIV30, alert.KindBlock, alert.KindSweep, alert.KindUnusual}
	}
	d.value = d.proposed()
	return d
}

// kind is the kind chosen.
func (d *dialog) kind() alert.Kind {
	if len(d.kinds) == 0 {
		return 0
	}
	return d.kinds[d.k]
}

// valueOf is the value an existing rule is edited by.
func valueOf(r alert.Rule) string {
	var v float64
	switch r.Kind {
	case alert.KindIV:
		v = r.Level * 100
	case alert.KindIV30:
		v = r.Move
	case alert.KindBlock, alert.KindSweep:
		v = float64(r.MinSize)
		if r.MinSize == 0 {
			v = r.MinPremium
		}
	case alert.KindUnusual:
		v = r.Ratio
	default:
		v = r.Level
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// proposed is the value proposed for the kind chosen: the next round
// level past the value now, in the direction chosen; the print's size.
func (d *dialog) proposed() string {
	pa := d.pa
	switch k := d.kind(); k {
	case alert.KindPrice:
		return d.next(pa.Price, priceStep(pa.Price))
	case alert.KindBid:
		return d.next(pa.Bid, optionStep(pa.Bid))
	case alert.KindAsk:
		return d.next(pa.Ask, optionStep(pa.Ask))
	case alert.KindMid:
		return d.next(pa.Mid, optionStep(pa.Mid))
	case alert.KindIV:
		return d.next(pa.IV*100, 1)
	case alert.KindIV30:
		return "2"
	case alert.KindBlock, alert.KindSweep:
		if pa.Print && pa.Size > 0 {
			return strconv.FormatInt(pa.Size, 10)
		}
		if k == alert.KindSweep {
			return "100"
		}
		return "500"
	case alert.KindUnusual:
		return "5"
	}
	return ""
}

// next is the first multiple of step past v in the direction chosen.
func (d *dialog) next(v, step float64) string {
	if math.IsNaN(v) || v <= 0 {
		return ""
	}
	n := math.Floor(v/step+1e-9) + 1
	if !d.above {
		n = math.Ceil(v/step-1e-9) - 1
	}
	return strconv.FormatFloat(math.Round(n*step*100)/100, 'f', -1, 64)
}

func priceStep(v float64) float64 {
	switch {
	case v >= 100:
		return 1
	case v >= 10:
		return 0.5
	}
	return 0.05
}

func optionStep(v float64) float64 {
	if v >= 3 {
		return 0.1
	}
	return 0.05
}

// rule is the rule the dialog would arm.
func (d *dialog) rule() (alert.Rule, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(d.value), 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) {
		return alert.Rule{}, fmt.Errorf("type a number above 0")
	}
	r := alert.Rule{Symbol: d.pa.Symbol, Enabled: true}
	if d.edit != "" {
		r = d.base
		if r.Name == r.Describe() {
			r.Name = "" // named by its words: renamed with them
		}
		if r.Margin == r.DefaultMargin() {
			r.Margin = 0
		}
	}
	r.Kind, r.Above = d.kind(), d.above
	switch r.Kind {
	case alert.KindPrice, alert.KindIV30:
		r.Contract = ""
	case alert.KindBlock, alert.KindSweep, alert.KindUnusual:
		if d.edit == "" {
			r.Contract = d.pa.Contract
		}
	default:
		r.Contract = d.pa.Contract
	}
	switch r.Kind {
	case alert.KindIV:
		r.Level = v / 100
	case alert.KindIV30:
		r.Move = v
	case alert.KindBlock, alert.KindSweep:
		if d.edit != "" && d.base.MinSize == 0 {
			r.MinPremium = v
		} else {
			r.MinSize = int64(math.Round(v))
		}
	case alert.KindUnusual:
		r.Ratio = v
		if r.MinVolume == 0 {
			r.MinVolume = 500
		}
	default:
		r.Level = v
	}
	return r.WithDefaults(), nil
}

// Update takes a key; enter arms the rule (and saves it), esc cancels.
func (d *dialog) Update(msg tea.Msg) (tea.Cmd, common.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	keys := d.p.keys
	switch {
	case d.done || key.Matches(k, keys.Cancel):
		return nil, common.Close{}
	case d.p.eng == nil:
	case key.Matches(k, keys.Arm):
		return nil, d.arm()
	case key.Matches(k, keys.PrevKind, keys.NextKind) && len(d.kinds) > 1:
		step := 1
		if key.Matches(k, keys.PrevKind) {
			step = len(d.kinds) - 1
		}
		d.k = (d.k + step) % len(d.kinds)
		d.value, d.typed, d.err = d.proposed(), false, ""
	case key.Matches(k, keys.Flip):
		d.above = !d.above
		if !d.typed {
			d.value = d.proposed()
		}
	case key.Matches(k, keys.Backspace):
		if d.value != "" {
			d.value, d.typed = d.value[:len(d.value)-1], true
		}
	case len(k.Text) == 1 && strings.Contains("0123456789.", k.Text) && len(d.value) < 12:
		if !d.typed {
			d.value = "" // the first digit replaces the proposal
		}
		d.value, d.typed, d.err = d.value+k.Text, true, ""
	}
	return nil, nil
}

// arm arms the rule and writes it to the config file.
func (d *dialog) arm() common.Action {
	r, err := d.rule()
	if err == nil {
		err = d.p.eng.Replace(d.edit, r)
	}
	if err != nil {
		d.err = err.Error()
		return nil
	}
	d.p.refresh()
	if err := d.p.save(d.edit, r); err != nil {
		d.err, d.done = "armed for this session only: "+err.Error(), true
		return nil
	}
	return common.Close{}
}

// SetSize: the dialog is sized by the frame it is drawn over (Over).
func (d *dialog) SetSize(int, int) {}

// View is drawn over the frame (Over).
func (d *dialog) View() []string { return nil }

// Over is the dialog drawn over frame.
func (d *dialog) Over(frame string) string {
	v := d.viewData()
	w, h := ui.FrameSize(frame)
	return ui.AlertDialogOver(frame, &v, w, h, d.p.sh.Styles)
}

// viewData is what the dialog shows.
func (d *dialog) viewData() ui.AlertDialogView {
	pa := d.pa
	target := pa.Symbol
	if pa.Contract != "" {
		target = pa.Contract
	}
	v := ui.AlertDialogView{Title: "New alert · " + target, Kind: d.k, Value: d.value, Err: d.err}
	if d.edit != "" {
		v.Title = "Edit alert · " + d.edit
	}
	for _, k := range d.kinds {
		v.Kinds = append(v.Kinds, k.String())
	}
	v.Label, v.When = labelOf(d.kind(), d.above)
	v.Now = nowOf(pa)
	var hint []string
	for _, b := range d.p.keys.DialogHelp() {
		hint = append(hint, b.Help().Key+" "+b.Help().Desc)
	}
	v.Keys = strings.Join(hint, "  ")
	if d.p.eng == nil {
		return v
	}
	if r, err := d.rule(); err == nil {
		v.Rule = r.Describe()
		v.Cost = d.p.eng.CostOf(r, d.p.sh.Now()).Text()
	}
	return v
}

// labelOf names the value of a kind, and its direction.
func labelOf(k alert.Kind, above bool) (label, when string) {
	dir := "below"
	if above {
		dir = "above"
	}
	switch k {
	case alert.KindIV:
		return "IV %", dir
	case alert.KindIV30:
		return "points", "moves"
	case alert.KindBlock, alert.KindSweep:
		return "size", "at least"
	case alert.KindUnusual:
		return "vol/OI", "at least"
	}
	return "level", dir
}

// nowOf is the target's data now, as the dialog shows it.
func nowOf(pa common.ProposeAlert) string {
	var parts []string
	add := func(name string, v float64, format string) {
		if !math.IsNaN(v) && v != 0 {
			parts = append(parts, name+" "+fmt.Sprintf(format, v))
		}
	}
	if pa.Contract != "" {
		add("mid", pa.Mid, "%.2f")
		add("bid", pa.Bid, "%.2f")
		add("ask", pa.Ask, "%.2f")
		add("IV", pa.IV*100, "%.1f%%")
	}
	if pa.Print {
		parts = append(parts, fmt.Sprintf("print %d", pa.Size))
		add("$", pa.Premium, "%.0f")
	}
	add(pa.Symbol, pa.Price, "%.2f")
	add("IV30", pa.IV30, "%.1f")
	return strings.Join(parts, " · ")
}

// ShortHelp and FullHelp are the dialog's keys.
func (d *dialog) ShortHelp() []key.Binding  { return d.p.keys.DialogHelp() }
func (d *dialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.p.keys.DialogHelp()} }
