package keymap

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"github.com/evertras/bubble-table/table"
)

// bindingsOf is every enabled key.Binding field of a key map struct.
func bindingsOf(km any) []key.Binding {
	v := reflect.Indirect(reflect.ValueOf(km))
	var out []key.Binding
	for i := 0; i < v.NumField(); i++ {
		if b, ok := v.Field(i).Interface().(key.Binding); ok && b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// noKeyTwice fails when a key is in two of the bindings of one state: it
// would do whichever the model checks first.
func noKeyTwice(t *testing.T, state string, bs []key.Binding) map[string]string {
	t.Helper()
	seen := map[string]string{}
	for _, b := range bs {
		for _, k := range b.Keys() {
			if prev, ok := seen[k]; ok {
				t.Errorf("%s: key %q is bound to %q and %q", state, k, prev, b.Help().Desc)
			}
			seen[k] = b.Help().Desc
		}
	}
	return seen
}

// The edit state types formulas: none of its keys may be one the text
// input or the huh form already answers to, nor ctrl+c (the App's).
func TestScannerEditKeysLeaveTypingAlone(t *testing.T) {
	k := Scanner()
	mine := noKeyTwice(t, "edit", k.EditHelp())
	if len(mine) < 10 {
		t.Fatalf("edit state binds %d keys, want every action bound", len(mine))
	}
	huhKeys := HuhKeys()
	var theirs []key.Binding
	theirs = append(theirs, bindingsOf(textinput.DefaultKeyMap())...)
	theirs = append(theirs, bindingsOf(huhKeys.Input)...)
	theirs = append(theirs, bindingsOf(huhKeys.Select)...)
	theirs = append(theirs, bindingsOf(huhKeys.Confirm)...)
	theirs = append(theirs, bindingsOf(huhKeys.Note)...)
	theirs = append(theirs, Default().Interrupt)
	for _, b := range theirs {
		for _, key := range b.Keys() {
			if what, ok := mine[key]; ok {
				t.Errorf("edit key %q (%s) is also the form's or text input's", key, what)
			}
		}
	}
	if huhKeys.Quit.Enabled() {
		t.Errorf("the form must not quit on its own: the App owns ctrl+c")
	}
}

// In the results state the table's keys and the scanner's share the
// keyboard; only the filter key is the same binding in both.
func TestScannerResultsKeysDistinct(t *testing.T) {
	k := Scanner()
	tk := ResultsTableKeys()
	if !reflect.DeepEqual(tk.Filter.Keys(), k.Filter.Keys()) {
		t.Fatalf("table filter %v and scanner filter %v differ", tk.Filter.Keys(), k.Filter.Keys())
	}
	// FilterBlur answers only while a filter is typed, when the table
	// takes every key.
	nav := []key.Binding{tk.RowDown, tk.RowUp, tk.RowSelectToggle, tk.PageDown, tk.PageUp,
		tk.PageFirst, tk.PageLast, tk.FilterClear, tk.ScrollLeft, tk.ScrollRight}
	all := k.ResultsHelp()
	for _, b := range nav {
		if b.Enabled() {
			all = append(all, b)
		}
	}
	seen := noKeyTwice(t, "results", all)
	for _, must := range []string{"enter", "/", "esc", "up", "down", "pgup", "pgdown"} {
		if _, ok := seen[must]; !ok {
			t.Errorf("results: %q is not bound", must)
		}
	}
	if tk.RowSelectToggle.Enabled() || tk.FilterClear.Enabled() {
		t.Errorf("row selection and the table's own filter clear must be off (enter picks, esc is back)")
	}
	if !reflect.DeepEqual(tk.FilterBlur.Keys(), []string{"enter", "esc"}) {
		t.Errorf("enter and esc must end a filter: %v", tk.FilterBlur.Keys())
	}
}

func TestScannerSavedKeysDistinct(t *testing.T) {
	k := Scanner()
	noKeyTwice(t, "saved", append(k.SavedHelp(), Default().Up, Default().Down))
	for _, key := range k.Delete.Keys() {
		for _, b := range bindingsOf(textinput.DefaultKeyMap()) {
			for _, tk := range b.Keys() {
				if tk == key {
					t.Errorf("delete %q would be typed into a name", key)
				}
			}
		}
	}
}

func TestScannerBindingsHaveHelp(t *testing.T) {
	k := Scanner()
	all := append(append(k.EditHelp(), k.ResultsHelp()...), k.SavedHelp()...)
	if got, want := len(all), reflect.TypeOf(k).NumField()+3; got != want {
		// SavedHelp repeats Pick (as "load") and Back; ResultsHelp repeats
		// Run (a scan is run again from its results).
		t.Errorf("help lists %d bindings, want %d: every binding in one state's help", got, want)
	}
	for _, b := range all {
		if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
			t.Errorf("binding %v has no help", b.Keys())
		}
	}
	for _, b := range bindingsOf(ResultsTableKeys()) {
		if b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("table binding %v has no help", b.Keys())
		}
	}
	var _ table.KeyMap = ResultsTableKeys()
}

func TestScannerKeyOnWatchScreen(t *testing.T) {
	k := Default()
	if !reflect.DeepEqual(k.Scanner.Keys(), []string{"S"}) || k.Scanner.Help().Desc != "scanner" {
		t.Fatalf("scanner key = %v %q", k.Scanner.Keys(), k.Scanner.Help().Desc)
	}
	found := false
	for _, g := range k.FullHelp() {
		for _, b := range g {
			if b.Help().Desc == "scanner" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("the help screen does not list the scanner")
	}
}
