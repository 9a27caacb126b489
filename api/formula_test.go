package api

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// testFields is a small metadata list: the sandbox's types, a boolean, and
// two types this client does not know (a production service may have more).
var testFields = []ScanField{
	{Name: "iv30", DataType: "number"},
	{Name: "hv30", DataType: "number"},
	{Name: "volume", DataType: "integer"},
	{Name: "sector", DataType: "string"},
	{Name: "earnings_date", DataType: "date"},
	{Name: "has_weeklies", DataType: "boolean"},
	{Name: "skew", DataType: "decimal128"},
	{Name: "IVR", DataType: "number"},
	{Name: "iv_rank", DataType: "number"},
	{Name: "listed_at", DataType: ""},
	{Name: "iv30", DataType: "string"}, // a duplicate: the first entry wins
}

func TestFormulaKindString(t *testing.T) {
	for k, want := range map[FormulaKind]string{
		FormulaNumber: "a number", FormulaString: "a string", FormulaBool: "a boolean", 0: "a value of unknown type",
	} {
		if got := k.String(); got != want {
			t.Errorf("%d: %q, want %q", k, got, want)
		}
	}
}

// TestCheckAdmits: kinds, the fields named, unknown types, nesting and
// functions with every arity they accept.
func TestCheckAdmits(t *testing.T) {
	cases := []struct {
		formula string
		kind    FormulaKind
		fields  []string
	}{
		{"iv30", FormulaNumber, []string{"iv30"}},
		{"volume", FormulaNumber, []string{"volume"}},
		{"sector", FormulaString, []string{"sector"}},
		{"earnings_date", FormulaString, []string{"earnings_date"}},
		{"has_weeklies", FormulaBool, []string{"has_weeklies"}},
		{"42", FormulaNumber, nil}, {"1.5e2", FormulaNumber, nil}, {"'quoted'", FormulaString, nil},
		{`"a" < "b"`, FormulaBool, nil},
		{"iv30 > hv30 and iv30 < 90", FormulaBool, []string{"iv30", "hv30"}},
		{"hv30 - iv30 * 2 + hv30 % 7 / volume", FormulaNumber, []string{"hv30", "iv30", "volume"}},
		{`earnings_date <= "2026-12-31" || sector != 'Energy'`, FormulaBool, []string{"earnings_date", "sector"}},
		{"not (iv30 > 1) && !has_weeklies", FormulaBool, []string{"iv30", "has_weeklies"}},
		{"has_weeklies == (iv30 > 1)", FormulaBool, []string{"has_weeklies", "iv30"}},
		{"-iv30", FormulaNumber, []string{"iv30"}}, {"+iv30", FormulaNumber, []string{"iv30"}},
		{"1 < iv30 < 30", FormulaBool, []string{"iv30"}},
		// functions: every arity they take, nested
		{"abs(-2.5)", FormulaNumber, nil},
		{"min(iv30, hv30)", FormulaNumber, []string{"iv30", "hv30"}},
		{"max(abs(iv30 - hv30), min(1, 2, 3, volume))", FormulaNumber, []string{"iv30", "hv30", "volume"}},
		// nesting: parentheses are no nodes
		{strings.Repeat("(", 400) + "iv30" + strings.Repeat(")", 400), FormulaNumber, []string{"iv30"}},
		{"((iv30 > 1) or (hv30 > 1)) and not ((volume < 2))", FormulaBool, []string{"iv30", "hv30", "volume"}},
		{"iv30 > 40\n and hv30 < 20", FormulaBool, []string{"iv30", "hv30"}},
		// unknown types are admitted by every operator
		{"skew", 0, []string{"skew"}},
		{"skew > 1", FormulaBool, []string{"skew"}},
		{`skew == "x"`, FormulaBool, []string{"skew"}},
		{"skew == has_weeklies", FormulaBool, []string{"skew", "has_weeklies"}},
		{"skew + 1", FormulaNumber, []string{"skew"}},
		{"-skew", FormulaNumber, []string{"skew"}},
		{"not skew", FormulaBool, []string{"skew"}},
		{"skew and listed_at", FormulaBool, []string{"skew", "listed_at"}},
		{"abs(skew) + min(listed_at, 1)", FormulaNumber, []string{"skew", "listed_at"}},
		{"skew < listed_at", FormulaBool, []string{"skew", "listed_at"}},
		// limits: 1000 runes, not bytes
		{"1" + strings.Repeat(" ", MaxFormulaLength-1), FormulaNumber, nil},
		{`sector == "` + strings.Repeat("é", 985) + `"`, FormulaBool, []string{"sector"}},
	}
	g := NewGrammar(testFields)
	for _, c := range cases {
		info, err := g.Check(c.formula)
		if err != nil {
			t.Errorf("%.60q: %v", c.formula, err)
			continue
		}
		if info.Kind != c.kind || !slices.Equal(info.Fields, c.fields) {
			t.Errorf("%.60q: %v %q, want %v %q", c.formula, info.Kind, info.Fields, c.kind, c.fields)
		}
	}
}

// TestCheckRefuses: every class of error, worded as the sandbox words it.
func TestCheckRefuses(t *testing.T) {
	cases := []struct{ formula, msg string }{
		// exact texts (the sandbox's 400 bodies are built on them)
		{"iv31 > 40", "=unknown field iv31; did you mean iv30?"},
		{"zzzzzz > 1", "=unknown field zzzzzz"},
		{"iv30 >> 3", `=syntax error at column 7: unexpected token Operator(">")`},
		{"IV30 > 1", "=unknown field IV30 (names are case sensitive: did you mean iv30?)"},
		{"Sector", "did you mean sector?"},
		{"len(sector)", "=unknown function len at column 1 (the functions are abs, min and max)"},
		{"iv30(1)", "unknown function iv30"},
		{"$env", "unknown field $env"},
		// outside the grammar
		{"sector[0]", `"[" at column 7 is not part of the formula grammar`},
		{"sector.Foo()", `"." at column 7`},
		{"iv30 ?? 1", `"??" at column 6`},
		{"iv30 | abs()", `"|"`},
		{"iv30 > 1 ? 1 : 2", `"?"`},
		{"let x = 1; x", `"let"`},
		{"iv30 ** 2", `"**"`},
		{`sector in ["a"]`, `"in"`},
		{`sector matches "T.*"`, `"matches"`},
		{"true", `"true"`}, {"nil", `"nil"`}, {`b"x"`, "Bytes"},
		// syntax
		{"(iv30 > 3", "=syntax error: the formula ends too early (an operand or a closing parenthesis is missing)"},
		{"iv30 > 40\n and ) hv30", "syntax error at line 2, column 6"},
		{"@", "unrecognized character"},
		{"'abc", "literal not terminated"},
		{"99999999999999999999", "syntax error"},
		{"", "=is required"}, {" \n\t", "=is required"},
		// types
		{"sector + 1", `="+" at column 8 needs numbers, not a string and a number`},
		{"-sector", `"-" at column 1 needs a number, not a string`},
		{"not iv30 > 50", `"not" at column 1 needs a condition (a boolean), not a number`},
		{"iv30 and hv30", `"and" at column 6 needs conditions (booleans) on both sides, not a number and a number`},
		{`"a" < 1`, "compares a string with a number"},
		{"has_weeklies == 1", "compares a boolean with a number"},
		{"has_weeklies < (iv30 > 1)", "cannot order booleans"},
		{"skew < has_weeklies", "cannot order booleans"},
		{"sector + skew", "needs numbers, not a string and a value of unknown type"},
		// function arity and arguments
		{"abs(1, 2)", "=abs at column 1 takes one number, not 2"},
		{"abs()", "abs at column 1 takes one number, not 0"},
		{"min(1)", "=min at column 1 takes two or more numbers, not 1"},
		{"max()", "max at column 1 takes two or more numbers, not 0"},
		{"abs(sector)", "=abs at column 1 needs numbers, not a string"},
		{"1 + max(1, iv30 > 2)", "max at column 5 needs numbers, not a boolean"},
		// limits
		{"1" + strings.Repeat(" ", MaxFormulaLength), "=must be at most 1000 characters, not 1001"},
		{strings.Repeat("é", MaxFormulaLength+1), "=must be at most 1000 characters, not 1001"},
		{"1" + strings.Repeat(" + 1", 150), "=is too complex: more than 200 names, numbers and operators"},
	}
	g := NewGrammar(testFields)
	for _, c := range cases {
		info, err := g.Check(c.formula)
		if err == nil {
			t.Errorf("%.60q: admitted as %v, want %s", c.formula, info.Kind, c.msg)
			continue
		}
		msg := err.Error()
		if exact, ok := strings.CutPrefix(c.msg, "="); ok && msg != exact || !ok && !strings.Contains(msg, c.msg) {
			t.Errorf("%.60q: %q, want %q", c.formula, msg, c.msg)
		}
		if strings.ContainsAny(msg, "\r\n") {
			t.Errorf("%.60q: %q is not one line", c.formula, msg)
		}
		if info.Kind != 0 || info.Fields != nil {
			t.Errorf("%.60q: refused with info %+v", c.formula, info)
		}
	}
}

func TestGrammarFields(t *testing.T) {
	in := slices.Clone(testFields)
	g := NewGrammar(in)
	in[0].Name = "changed" // the grammar keeps its own copy
	fields := g.Fields()
	if len(fields) != len(testFields)-1 || fields[0].Name != "iv30" || fields[len(fields)-1].Name != "listed_at" {
		t.Fatalf("Fields: %+v", fields)
	}
	fields[0].Name = "changed"
	if again := g.Fields(); again[0].Name != "iv30" {
		t.Error("Fields shares the grammar's slice")
	}
	if f, ok := g.Field("iv30"); !ok || f.DataType != "number" {
		t.Errorf("Field(iv30) = %+v, %v; want the first entry", f, ok)
	}
	for _, name := range []string{"IV30", "iv31", "", "changed"} {
		if f, ok := g.Field(name); ok {
			t.Errorf("Field(%q) = %+v", name, f)
		}
	}
	if empty := NewGrammar(nil); empty.Fields() != nil && len(empty.Fields()) != 0 || empty.Complete("a") != nil {
		t.Error("an empty grammar has fields")
	}
	if _, err := NewGrammar(nil).Check("1 + 2"); err != nil {
		t.Errorf("an empty grammar refuses a formula without fields: %v", err)
	}
}

func TestComplete(t *testing.T) {
	g := NewGrammar(testFields)
	cases := []struct {
		prefix string
		want   []string
	}{
		{"", nil},
		{"iv", []string{"iv30", "iv_rank", "IVR"}},
		{"IV", []string{"IVR", "iv30", "iv_rank"}},
		{"Iv3", []string{"iv30"}},
		{"iv30", []string{"iv30"}},
		{"iv300", nil},
		{"s", []string{"sector", "skew"}},
		{"zz", nil},
		{"é", nil},
	}
	for _, c := range cases {
		var got []string
		for _, f := range g.Complete(c.prefix) {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Complete(%q) = %q, want %q", c.prefix, got, c.want)
		}
	}
	if g.Complete("") != nil {
		t.Error(`Complete("") is not nil`)
	}
}

func TestWordAt(t *testing.T) {
	cases := []struct {
		s, word string
		start   int
	}{
		{"", "", 0},
		{"iv", "iv", 0},
		{"iv30 > hv", "hv", 7},
		{"iv30 > ", "", 7},
		{"iv30 >", "", 6},
		{"abs(ch", "ch", 4},
		{"abs(", "", 4},
		{"min(iv30,hv3", "hv3", 9},
		{"_x", "_x", 0},
		{"a_b_9", "a_b_9", 0},
		{"x > 1e5", "", 7},
		{"x > 12ab", "", 8},
		{"x > 40", "", 6},
		{"iv30 > 40\n and vol", "vol", 15},
		{"é > ré", "ré", 5},
		{`sector == "Tech`, "", 15},
		{`sector == 'it\'s a`, "", 18},
		{"sector == `raw te", "", 17},
		{`sector == "Tech" and se`, "se", 21},
		{`sector == "a\"b" or ea`, "ea", 20},
		{`x == "a\\" and ea`, "ea", 15},
	}
	for _, c := range cases {
		word, start := WordAt(c.s)
		if word != c.word || start != c.start {
			t.Errorf("WordAt(%q) = %q, %d; want %q, %d", c.s, word, start, c.word, c.start)
		}
		if c.s[start:] != word && word != "" {
			t.Errorf("WordAt(%q): %q is not s[%d:]", c.s, word, start)
		}
	}
}

// TestCheckConcurrent: one grammar serves many goroutines (run with -race).
func TestCheckConcurrent(t *testing.T) {
	g := NewGrammar(testFields)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				if _, err := g.Check("iv30 > hv30 and min(iv30, 3) < 2"); err != nil {
					t.Errorf("goroutine %d, check %d: %v", i, j, err)
					return
				}
				g.Complete("iv")
			}
		})
	}
	wg.Wait()
}

// FuzzGrammarCheck: Check never panics, and what it says is consistent: an
// admitted formula names only known fields, each once, and has a kind; a
// refusal is one line.
func FuzzGrammarCheck(f *testing.F) {
	for _, seed := range []string{
		"iv30 > 40", "iv30 > hv30 and sector == 'Tech'", "abs(-skew) + max(1, 2, volume)", "not (has_weeklies)",
		"(((iv30)))", "iv30 >> 3", "sector[0]", "x | abs()", "'abc", `b"x"`, "@", "min(", "1 < 2 < 3", "-+-1",
		"iv30 > 40\n and (", "é", "\x00", "let x = 1; x", "{# > 1}", "1..3", "$env", "IV30",
	} {
		f.Add(seed)
	}
	g := NewGrammar(testFields)
	f.Fuzz(func(t *testing.T, formula string) {
		if len(formula) > 4*MaxFormulaLength {
			t.Skip() // longer ones are refused on their length alone
		}
		info, err := g.Check(formula)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Errorf("%q: error on more than one line: %q", formula, err)
			}
			return
		}
		if info.Kind > FormulaBool || utf8.RuneCountInString(formula) > MaxFormulaLength {
			t.Errorf("%q: admitted as %+v", formula, info)
		}
		seen := map[string]bool{}
		for _, name := range info.Fields {
			if _, ok := g.Field(name); !ok || seen[name] {
				t.Errorf("%q: fields %q", formula, info.Fields)
			}
			seen[name] = true
		}
	})
}
