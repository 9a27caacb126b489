package ui

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// pxHeaderPast is the header of an open market after a backfill: the
// figures from the store of past days join line 2 with the indicator's
// meaning and the ladder's view, its fullest state.
func pxHeaderPast() *HeaderData {
	h := pxHeader()
	h.HasPast, h.IVRank, h.IVPercentile, h.HV30, h.IVHV = true, 31, 25, 0.14, 1.03
	h.View = "quotes · 40 strikes"
	return h
}

// TestHeaderWithHistoryOnAnOpenMarket is the regression of the panic a
// new user met after `history backfill`: line 2 had eleven segments for a
// row of ten. At every width the header draws its two exact lines, and
// once wide enough it shows the figures from the store.
func TestHeaderWithHistoryOnAnOpenMarket(t *testing.T) {
	for _, w := range []int{1, 40, 80, 100, 120, 160, 200, 250} {
		lines := Header(pxHeaderPast(), w, pxColor)
		pxCheck(t, "header with history", lines, w, 2)
	}
	l2 := ansi.Strip(Header(pxHeaderPast(), 250, pxNoColor)[1])
	for _, want := range []string{"IVR 31 25%ile", "HV30 14.00% IV/HV 1.03", "quotes · 40 strikes", "prev 450.10", "● GREEN", "tight"} {
		if !strings.Contains(l2, want) {
			t.Errorf("line 2 at 250 lacks %q: %q", want, l2)
		}
	}
	// Narrow, the rank outlives the volume and OHLC (its priority is
	// higher), and the badge outlives both.
	l2 = ansi.Strip(Header(pxHeaderPast(), 100, pxNoColor)[1])
	if !strings.Contains(l2, "IVR 31") || !strings.Contains(l2, "● GREEN") || strings.Contains(l2, "prev ") {
		t.Errorf("line 2 at 100: %q", l2)
	}
}

// TestHeaderPastFiguresNotFinite: a store's figure that is not a number
// reads "-", not int64's overflow (-9223372036854775808).
func TestHeaderPastFiguresNotFinite(t *testing.T) {
	h := pxHeaderPast()
	h.IVRank, h.IVPercentile, h.HV30, h.IVHV = math.Inf(1), math.Inf(-1), math.NaN(), math.NaN()
	l2 := ansi.Strip(Header(h, 250, pxNoColor)[1])
	if !strings.Contains(l2, "IVR - -%ile") || strings.Contains(l2, "922337") {
		t.Errorf("line 2: %q", l2)
	}
}
