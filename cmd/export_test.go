package cmd

import (
	"bytes"
	"testing"
)

// exportOf is a two-row answer with a hostile string and a null.
func exportOf() Export {
	return Export{Keys: []string{"symbol", "iv", "note"}, Records: [][]any{
		{"SPY", 0.21, "plain"},
		{"EV" + hostile, nil, "x"},
	}}
}

func formatOf(t *testing.T, f exportFlags) Format {
	t.Helper()
	fm := f.format()
	if err := fm.Check(nil); err != nil {
		t.Fatal(err)
	}
	return fm
}

// TestExporterScripts: --json=fields keeps those fields in that order;
// --jq prints strings raw and values as compact JSON; --template writes
// its own lines and tabs; none of them lets a terminal control through.
func TestExporterScripts(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    exportFlags
		want string
	}{
		{"fields", exportFlags{json: "note,symbol"}, "[\n  {\n    \"note\": \"plain\",\n    \"symbol\": \"SPY\"\n  },\n  {\n    \"note\": \"x\",\n    \"symbol\": \"EV\\u001b[2J\\u001b]0;owned\\u0007A\\u009b31mB\\u007f\\tC\\nD\\u001b[0m\"\n  }\n]\n"},
		{"jq raw strings", exportFlags{jq: ".[].symbol"}, "SPY\nEVAB\tC\nD\n"},
		{"jq values", exportFlags{jq: "map(.iv)"}, "[0.21,null]\n"},
		{"jq object with a hostile value", exportFlags{jq: ".[1] | {symbol}"}, "{\"symbol\":\"EV\\u001b[2J\\u001b]0;owned\\u0007A\\u009b31mB\\u007f\\tC\\nD\\u001b[0m\"}\n"},
		{"jq halt stops quietly", exportFlags{jq: ".[0].symbol, halt, .[1].symbol"}, "SPY\n"},
		{"jq on the chosen fields", exportFlags{json: "iv", jq: ".[0] | keys"}, "[\"iv\"]\n"},
		{"template", exportFlags{template: "{{range .}}{{.symbol}}\t{{.iv}}\n{{end}}"}, "SPY\t0.21\nEVAB C D\t\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := formatOf(t, tc.f).Write(&b, exportOf()); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Fatalf("got  %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}

// TestExporterRefusals: a malformed flag is found before anything runs;
// an expression that fails on the data prints nothing.
func TestExporterRefusals(t *testing.T) {
	for _, f := range []exportFlags{{json: ","}, {jq: ".[] |"}, {template: "{{range}"}} {
		if err := f.format().Check(nil); exitCode(err) != ExitInput {
			t.Fatalf("%+v: %v", f, err)
		}
	}
	if err := (exportFlags{json: "ivv"}).format().Check([]string{"iv"}); exitCode(err) != ExitInput {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err := formatOf(t, exportFlags{jq: ".[] | .symbol | tonumber"}).Write(&b, exportOf())
	if exitCode(err) != ExitInput || b.Len() != 0 {
		t.Fatalf("%v, wrote %q", err, b.String())
	}
}
