package api

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
)

// This file is the custom scanner's formula grammar of the conventions,
// shared by the client (the modal checks as the trader types, the headless
// command refuses a bad formula before it spends points) and the sandbox
// (which compiles and evaluates what the grammar admits). One grammar, so
// the client never refuses what the sandbox would run, nor the reverse, and
// both say the same thing about a bad formula.

// Limits of a custom scan.
const (
	MaxScanFields    = 50   // fields per scan, as the spec says
	MaxFormulaLength = 1000 // characters (runes) per formula, as the conventions say
	// maxNodes bounds a formula's AST: a long but sane screen has a few
	// dozen nodes, and the node count bounds the cost of evaluating it.
	maxNodes = 200
)

// FormulaKind is the type of a formula's value as the grammar sees it.
// Integer fields are numbers, and dates are strings (yyyy-MM-dd compares
// correctly as text). The zero value is unknown: the formula is a field
// whose data type the grammar does not know (see NewGrammar).
type FormulaKind uint8

// The kinds of formula. A FormulaBool formula is a filter; the others are
// value columns.
const (
	FormulaNumber FormulaKind = iota + 1
	FormulaString
	FormulaBool
)

// String is the kind as a message names it: "a number", "a string", "a boolean".
func (k FormulaKind) String() string {
	switch k {
	case FormulaNumber:
		return "a number"
	case FormulaString:
		return "a string"
	case FormulaBool:
		return "a boolean"
	}
	return "a value of unknown type"
}

// FormulaInfo is what Check learns of a formula it admits.
type FormulaInfo struct {
	Kind   FormulaKind
	Fields []string // the fields it names, each once, in order of appearance
}

// Grammar checks formulas against the conventions' grammar and one
// service's fields. It is immutable, so safe for concurrent use.
type Grammar struct {
	fields []ScanField
	byName map[string]int // index into fields
	kinds  []FormulaKind  // by index into fields
}

// NewGrammar returns the grammar over fields, as the scanner metadata lists
// them. Data types number and integer are numbers, string and date strings,
// boolean booleans; any other type is unknown and admitted by every
// operator, so that a service with more types than this client knows is
// never refused what it would run. A name listed twice keeps its first entry.
func NewGrammar(fields []ScanField) *Grammar {
	g := &Grammar{byName: make(map[string]int, len(fields))}
	for _, f := range fields {
		if _, dup := g.byName[f.Name]; dup {
			continue
		}
		g.byName[f.Name] = len(g.fields)
		g.fields = append(g.fields, f)
		g.kinds = append(g.kinds, dataKind(f.DataType))
	}
	return g
}

func dataKind(dataType string) FormulaKind {
	switch dataType {
	case "number", "integer":
		return FormulaNumber
	case "string", "date":
		return FormulaString
	case "boolean":
		return FormulaBool
	}
	return 0
}

// Field returns the field of that name (case sensitive).
func (g *Grammar) Field(name string) (ScanField, bool) {
	i, ok := g.byName[name]
	if !ok {
		return ScanField{}, false
	}
	return g.fields[i], true
}

// Fields returns every field in metadata order; the slice is a copy.
func (g *Grammar) Fields() []ScanField { return append([]ScanField(nil), g.fields...) }

// Complete returns the fields whose names start with prefix, ignoring
// case: those that match in the exact case first, then the others, each in
// metadata order. An empty prefix completes nothing (nil).
func (g *Grammar) Complete(prefix string) []ScanField {
	if prefix == "" {
		return nil
	}
	var exact, folded []ScanField
	for _, f := range g.fields {
		switch {
		case strings.HasPrefix(f.Name, prefix):
			exact = append(exact, f)
		case len(f.Name) >= len(prefix) && strings.EqualFold(f.Name[:len(prefix)], prefix):
			folded = append(folded, f)
		}
	}
	return append(exact, folded...)
}

// Check checks formula against the grammar: its length, every token, its
// syntax and its types. The error is one line without the formula (the
// caller names it, e.g. fields[0].formula "iv31 > 40": unknown field iv31),
// worded as the sandbox answers it.
func (g *Grammar) Check(formula string) (FormulaInfo, error) {
	if n := utf8.RuneCountInString(formula); n > MaxFormulaLength {
		return FormulaInfo{}, fmt.Errorf("must be at most %d characters, not %d", MaxFormulaLength, n)
	}
	if strings.TrimSpace(formula) == "" {
		return FormulaInfo{}, errors.New("is required")
	}
	names, err := g.checkTokens(formula)
	if err != nil {
		return FormulaInfo{}, err
	}
	tree, err := parser.ParseWithConfig(formula, parseConfig())
	if err != nil {
		return FormulaInfo{}, syntaxError(formula, err)
	}
	k, err := g.typeOf(formula, tree.Node)
	if err != nil {
		return FormulaInfo{}, err
	}
	return FormulaInfo{Kind: k, Fields: names}, nil
}

// parseConfig makes expr's parser read abs, min and max as calls of
// functions of ours rather than its builtins, and stop at maxNodes. A
// fresh one per parse, because expr's config holds caches.
func parseConfig() *conf.Config {
	cfg := conf.CreateNew()
	cfg.MaxNodes = maxNodes
	for name := range functions {
		cfg.Functions[name] = &builtin.Function{Name: name}
	}
	return cfg
}

// WordAt returns the identifier being typed at the end of s (letters,
// digits and underscores, not starting with a digit), which is what a
// completion replaces, and the byte offset where it starts. It returns ""
// and len(s) when s ends in anything else: an operator, a space, a number,
// or an unfinished quoted string, where a field name would be text.
func WordAt(s string) (word string, start int) {
	start = len(s)
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:start])
		if !isIdentRune(r) {
			break
		}
		start -= size
	}
	word = s[start:]
	if word == "" || isDigit(word[0]) || inString(s[:start]) {
		return "", len(s)
	}
	return word, start
}

// inString reports whether s ends inside a quoted string: "…", '…' (both
// with backslash escapes) or `…`.
func inString(s string) bool {
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case quote == 0:
			if r == '"' || r == '\'' || r == '`' {
				quote = r
			}
		case escaped:
			escaped = false
		case r == '\\' && quote != '`':
			escaped = true
		case r == quote:
			quote = 0
		}
	}
	return quote != 0
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
