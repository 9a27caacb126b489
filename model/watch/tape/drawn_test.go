package tape

import (
	"math"
	"reflect"
	"testing"

	"chainwatch/api"
	"chainwatch/model/modeltest"
	"chainwatch/ui"
)

// TestDrawnTapeFollowsEveryField: the tape is drawn again when any field
// of what it shows changes (every field of ui.TapeView and of a trade,
// found by reflection, so a field added later is covered), and not when
// nothing did, a greek not fetched yet (NaN) included.
func TestDrawnTapeFollowsEveryField(t *testing.T) {
	st := modeltest.Common(modeltest.Now).Styles
	base := ui.TapeView{Trades: []ui.TapeTrade{{Time: 36000000, Type: api.Call, Strike: 700, Root: "SPY", Price: 1.5, Size: 3,
		Bid: 1.4, Ask: 1.6, Exchange: "CBOE", SeqNo: 9, IV: math.NaN(), Delta: math.NaN()}}, Held: 1, Filter: "all", ResumeKey: "g"}
	var d drawnTape
	view := func(tv *ui.TapeView, w, h int) []string { d.draw(tv, w, h, st); return d.lines }
	first := view(&base, 60, 8)
	again := base
	again.Trades = []ui.TapeTrade{base.Trades[0]}
	if got := view(&again, 60, 8); &got[0] != &first[0] {
		t.Error("drawn again though nothing it shows changed")
	}
	changed := func(what string, v ui.TapeView) {
		t.Helper()
		if sameView(&base, &v) {
			t.Errorf("a change of %s is not seen", what)
		}
	}
	vt := reflect.TypeFor[ui.TapeView]()
	for i := range vt.NumField() {
		if f := vt.Field(i); f.Name != "Trades" {
			v := base
			bump(reflect.ValueOf(&v).Elem().Field(i))
			changed(f.Name, v)
		}
	}
	tt := reflect.TypeFor[ui.TapeTrade]()
	for i := range tt.NumField() {
		v := base
		v.Trades = []ui.TapeTrade{base.Trades[0]}
		bump(reflect.ValueOf(&v.Trades[0]).Elem().Field(i))
		changed("a trade's "+tt.Field(i).Name, v)
	}
	if view(&base, 61, 8)[0] == first[0] {
		t.Error("not drawn again at another width")
	}
}

// bump changes a field of any kind the views hold.
func bump(f reflect.Value) {
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(!f.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(f.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(f.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		f.SetFloat(1.25)
	case reflect.String:
		f.SetString(f.String() + "x")
	default:
		panic("bump: a field of kind " + f.Kind().String())
	}
}
