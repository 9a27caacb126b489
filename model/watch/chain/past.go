package chain

import (
	"chainwatch/feed"
	"chainwatch/ui"
	"chainwatch/vol"
)

// takePast keeps the figures a chain reply brought from the store of past
// days (IV rank and percentile, realized vol), when it brought any.
func (c *Model) takePast(m feed.ChainMsg) {
	if m.Past != nil {
		p := *m.Past
		c.past = &p
	}
}

// Past is the symbol against its stored year; nil without a store.
func (c *Model) Past() *vol.Past { return c.past }

// pastHeader puts the figures in the header.
func (c *Model) pastHeader(h *ui.HeaderData) {
	if c.past == nil {
		return
	}
	h.HasPast = true
	h.IVRank, h.IVPercentile, h.HV30, h.IVHV = c.past.IVRank, c.past.IVPercentile, c.past.HV30, c.past.IVHV
}
