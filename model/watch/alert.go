package watch

import (
	"math"

	"chainwatch/feed"
	"chainwatch/model/common"
)

// proposeAlert asks for the alert dialog on what is selected: the tape's
// print when the tape has the focus, else the ladder's contract, with the
// underlying's price and IV30 for the rules of the underlying.
func (s *state) proposeAlert() common.Action {
	if s.q.Historical(s.sh.Now()) {
		return common.Notice{Text: "alerts watch today's session: " + feed.ShownDay(s.q, s.sh.Now()).String() + " is a past day"}
	}
	h := s.chain.Header()
	pa := common.ProposeAlert{Symbol: s.q.Symbol, Price: s.chain.Spot(), IV30: h.IV30,
		Bid: math.NaN(), Ask: math.NaN(), Mid: math.NaN(), IV: math.NaN()}
	if s.focus == paneTape && s.showTape {
		tr, ok := s.tape.Selected()
		if !ok {
			return common.Notice{Text: "no print selected"}
		}
		pa.Contract, pa.Print, pa.Size = s.tape.SelectedOSI(), true, tr.Size
		pa.Premium = tr.Price * float64(tr.Size) * 100
		pa.Bid, pa.Ask, pa.Mid, pa.IV = tr.Bid, tr.Ask, (tr.Bid+tr.Ask)/2, tr.IV
		return pa
	}
	if d, ok := s.chain.Selected(); ok && d.Contract != nil {
		c := d.Contract
		pa.Contract, pa.Bid, pa.Ask, pa.Mid, pa.IV = c.OSI, c.Bid, c.Ask, c.Mid, c.IV
	}
	return pa
}
