package strategy

import (
	"fmt"
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"chainwatch/model/common"
	strat "chainwatch/strategy"
)

// template replaces the ticket with the next template that fits,
// centred on the money at the chosen width and delta.
func (p *Page) template() common.Action {
	if !p.hasCur {
		return common.Notice{Text: "no ladder cursor yet: open the page from the ladder (" + p.sh.Keys.Ticket.Help().Key + ")"}
	}
	for range strat.NumTemplates {
		t := p.tpl
		p.tpl = (p.tpl + 1) % strat.NumTemplates
		if act, ok := p.build(t); ok {
			return act
		}
	}
	return common.Notice{Text: "no template fits the ladder's strikes here"}
}

// build puts t on the ticket, false when it does not fit.
func (p *Page) build(t strat.Template) (common.Action, bool) {
	c := p.cur
	c.Width, c.Delta = p.width, p.delta
	st, err := strat.Build(t, c)
	if err != nil {
		return common.Notice{Text: err.Error()}, false
	}
	p.st, p.sel, p.rollOf = st, 0, 0
	p.built, p.hasBuilt = t, true
	text := t.String() + " at " + strat.FormatStrike(c.Centre()) + ", " + strat.FormatStrike(c.WidthPoints()) + " wide"
	if p.delta > 0 && (t == strat.Strangle || t == strat.IronCondor || t == strat.CoveredCall) {
		text += fmt.Sprintf(", shorts at %.0f delta", p.delta*100)
	}
	return common.Notice{Text: text, Info: true}, true
}

// deltas are the short strikes' deltas D cycles through; 0 is by width.
var deltas = []float64{0.16, 0.25, 0.30, 0}

// reshape changes the templates' width ({ }) or delta (D) and builds the
// last template again with it.
func (p *Page) reshape(k tea.KeyPressMsg) common.Action {
	if !p.hasCur {
		return p.template()
	}
	step := p.cur.Step()
	w := p.cur.WidthPoints()
	if p.width > 0 {
		w = p.width
	}
	switch {
	case key.Matches(k, p.keys.Narrower):
		p.width = math.Max(w-step, step)
	case key.Matches(k, p.keys.Wider):
		p.width = w + step
	default:
		i := 0
		for i < len(deltas) && deltas[i] != p.delta {
			i++
		}
		p.delta = deltas[(i+1)%len(deltas)]
	}
	if !p.hasBuilt {
		return common.Notice{Text: p.shapeText() + "; " + p.keys.Template.Help().Key + " builds a template", Info: true}
	}
	act, _ := p.build(p.built)
	return act
}

// shapeText says the width and delta the next template is built at.
func (p *Page) shapeText() string {
	c := p.cur
	c.Width = p.width
	s := "templates " + strat.FormatStrike(c.WidthPoints()) + " wide"
	if p.delta > 0 {
		return s + fmt.Sprintf(", short strikes at %.0f delta", p.delta*100)
	}
	return s + ", short strikes by width"
}
