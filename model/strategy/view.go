package strategy

import (
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/market"
	"chainwatch/model/common"
	strat "chainwatch/strategy"
	"chainwatch/ui"
)

// market is the ticket's legs at the last marks; false until every leg
// is in the chain held.
func (p *Page) market() (strat.Market, bool) {
	if p.chain == nil || len(p.st.Legs) == 0 || p.chain.Symbol != p.st.Symbol {
		return strat.Market{}, false
	}
	m, err := strat.MarketOf(&p.st, p.chain, p.sh.Now())
	return m, err == nil
}

// layout makes ready what View draws: the figures and curves at the last
// marks, laid out for the page's size.
func (p *Page) layout() {
	if p.W <= 0 || p.H <= 0 {
		p.Lines = nil
		return
	}
	d := ui.StrategyData{Title: "Strategy"}
	switch m, ok := p.market(); {
	case len(p.st.Legs) == 0:
		d.Message = "The ticket is empty: space buys and z sells the ladder's contract, t builds a template at its cursor"
	case !ok:
		d.Title = "Strategy · " + p.st.Symbol + " · " + p.st.Name()
		d.Message = "marking the legs…"
	default:
		p.fill(&d, &m)
	}
	p.Lines = ui.StrategyPage(&d, p.W, p.H, p.sh.Styles)
}

// fill computes the figures and the risk graph's curves.
func (p *Page) fill(d *ui.StrategyData, m *strat.Market) {
	f := p.st.Analyze(m)
	d.Fig, d.Spot = f, m.Spot
	d.Title = "Strategy · " + p.st.Symbol + " · " + p.st.Name() + " · spot " + strconv.FormatFloat(m.Spot, 'f', 2, 64) +
		" · marked " + p.markAt.In(api.Eastern).Format("15:04:05")
	if p.rollOf != 0 {
		d.Title += " · rolling position " + itoa(p.rollOf)
	}
	for i := range p.st.Legs {
		d.Legs = append(d.Legs, ui.StrategyLeg{Text: p.st.Legs[i].String(), Quote: m.Quotes[i], Selected: i == p.sel})
		if p.st.Legs[i].Option() {
			d.Strikes = append(d.Strikes, p.st.Legs[i].Strike)
		}
	}
	lo, hi := strat.Range(m.Spot, f.Move, &p.st)
	d.Xs = make([]float64, riskPoints)
	for i := range d.Xs {
		d.Xs[i] = lo + (hi-lo)*float64(i)/(riskPoints-1)
	}
	pr := p.st.Pricer(m, p.shift/100)
	at := p.chosenDate(f)
	d.Expiry = pr.Curve(d.Xs, f.At, nil)
	d.Today = pr.Curve(d.Xs, m.Now, nil)
	d.AtDate = pr.Curve(d.Xs, at, nil)
	d.DateLabel = at.In(api.Eastern).Format("Jan02")
	if p.shift != 0 {
		d.DateLabel += " IV " + signedPts(p.shift)
	}
}

// chosenDate is the risk graph's third curve's time: days from today at
// the close, half-way to the first expiry until moved.
func (p *Page) chosenDate(f strat.Figures) time.Time {
	today := api.Today(p.sh.Now())
	n := max(today.DaysUntil(f.Expiry), 0)
	days := p.days
	if days < 0 {
		days = n / 2
	}
	return market.ExpiryTime(today.AddDays(min(days, n)))
}

func signedPts(v float64) string {
	if v > 0 {
		return "+" + itoa(int(v)) + " pt"
	}
	return itoa(int(v)) + " pt"
}

func itoa(n int) string { return strconv.Itoa(n) }

// SetSize sizes the page.
func (p *Page) SetSize(w, h int) {
	if p.Resize(w, h) {
		p.layout()
	}
}

// SetFocused: the page's keys are its own whenever it is on top.
func (p *Page) SetFocused(bool) {}

// Covers: the page fills the frame; the screen beneath is not polled.
func (p *Page) Covers() bool { return true }

// Wants is the job marking the legs (one request for the ticket), kept
// while the legs are the same so that its pacing goes on.
func (p *Page) Wants(c common.Sight) []feed.Want {
	if len(p.st.Legs) == 0 || c.Historical {
		return nil
	}
	sp := p.st.Span()
	q := feed.Query{Symbol: p.st.Symbol, Mode: c.Mode, Date: p.q.Date}
	name := "strategy " + string(c.Mode) + " " + p.st.Symbol + ":" + sp.Key
	if p.job == nil || p.jobName != name {
		p.job = feed.LegsJob(p.sh.Source(), "strategy", q, map[string]api.Span{p.st.Symbol: sp}, markEvery)
		p.jobName = name
	}
	return []feed.Want{{Feed: feed.FeedJob, Query: q, Job: p.job}}
}

// Status is the page's for the status bar.
func (p *Page) Status(time.Time) common.Status {
	k, n := p.keys, p.sh.Keys
	return common.Status{Shown: feed.FeedContractQuote, Errs: []error{feed.Failed(p.err, p.errAt)}, Title: "chainwatch · strategy",
		Hint: k.Template.Help().Key + " template  " + k.Save.Help().Key + " save  " + k.IVUp.Help().Key + k.IVDown.Help().Key + " IV  " +
			k.DateNext.Help().Key + k.DatePrev.Help().Key + " date  " + k.Back.Help().Key + " back  " + n.Help.Help().Key + " help"}
}

// ShortHelp and FullHelp are the page's keys.
func (p *Page) ShortHelp() []key.Binding  { return p.keys.ShortHelp() }
func (p *Page) FullHelp() [][]key.Binding { return p.keys.FullHelp(p.sh.Keys) }
