package scan

import (
	"errors"
	"strings"
	"testing"
)

// TestGrammar evaluates every operator, precedence, grouping and function
// on one row; want nil with kept false means the filter dropped the row.
func TestGrammar(t *testing.T) {
	cases := []struct {
		formula string
		want    any
	}{
		{"price", 200.0}, {"42", 42.0}, {"1.5e2", 150.0}, {"'quoted'", "quoted"},
		{"price + 2", 202.0}, {"price - 2", 198.0}, {"price * 2", 400.0}, {"price / 8", 25.0},
		{"7 % 3", 1.0}, {"price % 7", 4.0}, {"-change", 3.0}, {"+change", -3.0}, {"2 * -3", -6.0},
		{"2 + 3 * 4", 14.0}, {"(2 + 3) * 4", 20.0}, {"10 - 4 - 3", 3.0}, {"100 / 10 / 5", 2.0},
		{"((price))", 200.0}, {"volume / avg_volume", 0.8}, {"days_to_earnings * 2", 26.0},
		{"abs(change)", 3.0}, {"abs(-2.5)", 2.5}, {"min(iv30, hv30)", 25.0}, {"max(iv30, hv30, 30)", 30.0},
		{"min(1, 2.5) + max(change, -10)", -2.0},
		{"price > 199", true}, {"price >= 200", true}, {"price <= 200", true}, {"price == 200", true},
		{"1 < iv30 < 30", true}, {"iv30 > 20 and price > 100", true}, {"iv30 > 50 or price > 100", true},
		{"not (iv30 > 50)", true}, {"!(iv30 > 50)", true}, {"(iv30 > 50 or price > 100) and volume > 1", true},
		{`sector == "Technology"`, true}, {`sector == 'Technology'`, true}, {`sector != "Energy"`, true},
		{`earnings_date <= "2026-12-31"`, true}, {`"abc" < "abd"`, true}, {`implied_indicator == "green"`, true},
		{"(price > 1) == (iv30 > 1)", true}, {"days_to_earnings == 13", true},
		// false filters drop the row
		{"price < 200", nil}, {"price != 200", nil}, {"price > 200", nil}, {`sector == "technology"`, nil},
		{"iv30 > 20 && price > 300", nil}, {"iv30 > 50 || price > 300", nil}, {"!(iv30 > 20)", nil},
		{"iv30 > 50 or price > 100 and volume > 1e9", nil}, // and binds tighter than or
	}
	for _, c := range cases {
		got, kept := eval(t, c.formula, sample())
		if c.want == nil {
			if kept {
				t.Errorf("%s: kept with %v, want dropped", c.formula, got)
			}
			continue
		}
		if !kept || got != c.want {
			t.Errorf("%s = %v (kept %v), want %v", c.formula, got, kept, c.want)
		}
	}
}

// TestRefused: every construct outside the grammar is a one-line
// *FormulaError naming the formula and what is wrong.
func TestRefused(t *testing.T) {
	cases := []struct{ formula, msg string }{
		{"len(symbol)", "unknown function len at column 1"},
		{"now()", "unknown function now"},
		{"repeat('a', 10)", "unknown function repeat"},
		{"map(symbol, 1)", "unknown function map"},
		{"filter(symbol, true)", "unknown function filter"},
		{"symbol[0]", `"[" at column 7 is not part of the formula grammar`},
		{"symbol[1:2]", `"["`},
		{"symbol.Foo()", `"." at column 7`},
		{"symbol?.x", `"?."`},
		{"iv30 ?? 1", `"??" at column 6`},
		{"let x = 1; x", `"let"`},
		{"{# > 1}", `"{"`},
		{"#", `"#"`},
		{"1..3", `".." at column 2`},
		{"iv30 | abs()", `"|"`},
		{"iv30 > 1 ? 1 : 2", `"?"`},
		{"if iv30 > 1 { 1 } else { 2 }", `"if"`},
		{"iv30 ** 2", `"**"`}, {"iv30 ^ 2", `"^"`},
		{`sector in ["a"]`, `"in"`}, {`sector matches "T.*"`, `"matches"`},
		{`sector contains "T"`, `"contains"`}, {`sector startsWith "T"`, `"startsWith"`},
		{"iv30 = 1", `"="`}, {"iv30; price", `";"`}, {"[1, 2]", `"["`},
		{"true", `"true"`}, {"nil", `"nil"`}, {`b"x"`, "Bytes"},
		{"$env", "unknown field $env"},
		{"iv31 > 40", "unknown field iv31; did you mean iv30?"},
		{"IV30", "unknown field IV30 (names are case sensitive: did you mean iv30?)"},
		{"Price > 1", "did you mean price?"},
		{"iv30 >> 3", "syntax error at column 7"},
		{"(iv30 > 3", "syntax error: the formula ends too early"},
		{"iv30 >", "syntax error"},
		{"iv30 > 40\n and (", "ends too early"},
		{"iv30 > 40\n and ) price", "syntax error at line 2, column 6"},
		{"@", "unrecognized character"},
		{"'abc", "literal not terminated"},
		{"sector + 1", `"+" at column 8 needs numbers, not a string and a number`},
		{"-sector", `"-" at column 1 needs a number`},
		{"not iv30 > 50", `"not" at column 1 needs a condition (a boolean), not a number`},
		{"iv30 and price", `"and" at column 6 needs conditions`},
		{`"a" < 1`, "compares a string with a number"},
		{"(iv30 > 1) < (price > 1)", "cannot order booleans"},
		{"abs(1, 2)", "abs at column 1 takes one number, not 2"},
		{"min(1)", "min at column 1 takes two or more numbers, not 1"},
		{"abs(sector)", "abs at column 1 needs numbers, not a string"},
		{"iv30(1)", "unknown function iv30"},
		{"99999999999999999999", "syntax error"},
	}
	for _, c := range cases {
		_, err := Compile(fields("price", c.formula))
		var fe *FormulaError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error %v, want a *FormulaError", c.formula, err)
			continue
		}
		if fe.Index != 1 || fe.Formula != c.formula || !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%q: %+v, want index 1 and a message with %q", c.formula, fe, c.msg)
		}
		if msg := err.Error(); strings.ContainsAny(msg, "\r\n") || !strings.HasPrefix(msg, "fields[1].formula ") {
			t.Errorf("%q: error %q is not one line naming fields[1].formula", c.formula, msg)
		}
	}
}

func TestErrorText(t *testing.T) {
	for formula, want := range map[string]string{
		"iv31 > 40": `fields[0].formula "iv31 > 40": unknown field iv31; did you mean iv30?`,
		"iv30 >> 3": `fields[0].formula "iv30 >> 3": syntax error at column 7: unexpected token Operator(">")`,
	} {
		if _, err := Compile(fields(formula)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", formula, err, want)
		}
	}
}

func TestLimits(t *testing.T) {
	long := "1" + strings.Repeat(" ", MaxFormulaLength-1) // 1000 runes: fine
	if _, err := Compile(fields(long)); err != nil {
		t.Errorf("formula of %d characters: %v", MaxFormulaLength, err)
	}
	_, err := Compile(fields(long + " "))
	if err == nil || !strings.Contains(err.Error(), "must be at most 1000 characters, not 1001") || !strings.Contains(err.Error(), "…") {
		t.Errorf("formula of 1001 characters: %v", err)
	}
	// characters are runes, not bytes: 990 two-byte letters fit
	accents := `sector == "` + strings.Repeat("é", 985) + `"`
	if _, err := Compile(fields(accents)); err != nil {
		t.Errorf("formula of %d bytes, %d characters: %v", len(accents), 996, err)
	}
	complexFormula := "1" + strings.Repeat(" + 1", 150)
	if _, err := Compile(fields(complexFormula)); err == nil || !strings.Contains(err.Error(), "too complex") {
		t.Errorf("formula of 301 nodes: %v", err)
	}
	deep := strings.Repeat("(", 400) + "1" + strings.Repeat(")", 400)
	if _, err := Compile(fields(deep)); err != nil {
		t.Errorf("400 parentheses (one node): %v", err)
	}
}
