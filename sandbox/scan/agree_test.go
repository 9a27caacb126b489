package scan

import (
	"maps"
	"slices"
	"testing"
)

// TestGrammarAgrees: api's grammar, which checks formulas, and this
// package's evaluation know the same operators. One formula per operator of
// allowedOperators must be admitted by the grammar and evaluate, and every
// other operator expr's lexer knows must be refused by the grammar, since
// evaluation would have no null-aware function for it.
func TestGrammarAgrees(t *testing.T) {
	uses := map[string]string{
		"+": "+iv30 + 1", "-": "-iv30 - 1", "*": "iv30 * 2", "/": "iv30 / 2", "%": "iv30 % 2",
		"<": "iv30 < 1", "<=": "iv30 <= 1", ">": "iv30 > 1", ">=": "iv30 >= 1", "==": "iv30 == 1", "!=": "iv30 != 1",
		"and": "iv30 > 1 and price > 1", "&&": "iv30 > 1 && price > 1",
		"or": "iv30 > 1 or price > 1", "||": "iv30 > 1 || price > 1",
		"not": "not (iv30 > 1)", "!": "!(iv30 > 1)", ",": "min(iv30, price)",
	}
	if got, want := slices.Sorted(maps.Keys(uses)), slices.Sorted(maps.Keys(allowedOperators)); !slices.Equal(got, want) {
		t.Fatalf("operators tested %q, evaluated %q", got, want)
	}
	for op, formula := range uses {
		if _, err := grammar.Check(formula); err != nil {
			t.Errorf("%s: the grammar refuses %q: %v", op, formula, err)
		}
		if _, err := Compile(fields(formula)); err != nil {
			t.Errorf("%s: %q does not compile: %v", op, formula, err)
		}
	}
	others := []string{
		"|", ":", ";", "^", "&", "&=", "=", "**", "*=", "<=>", "?", "??", "?.", ".", "..",
		"in", "not in", "matches", "contains", "startsWith", "endsWith", "let", "if", "#", "##",
	}
	for _, op := range others {
		if _, ok := allowedOperators[op]; ok {
			t.Errorf("%s is evaluated: take it off this list", op)
			continue
		}
		if info, err := grammar.Check("iv30 " + op + " price"); err == nil {
			t.Errorf("%s: the grammar admits it (%v), evaluation does not", op, info.Kind)
		}
	}
	for name := range functions {
		if _, err := grammar.Check(name + "(iv30, price)"); err != nil && name != "abs" {
			t.Errorf("%s: %v", name, err)
		}
	}
}
