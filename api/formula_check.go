package api

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser/lexer"

	"chainwatch/text"
)

// The grammar's walls: the tokens first, then the parsed tree with its
// types. expr-lang/expr's lexer and parser do the reading; everything
// richer than the conventions' grammar that expr knows is refused here.

// functions are the grammar's functions and their arities (-1: no upper bound).
var functions = map[string][2]int{"abs": {1, 1}, "min": {2, -1}, "max": {2, -1}}

// allowedOperators are the operator tokens of the grammar; the lexer knows
// many more (?? ?: .. | . ** ^ in matches let if ...), all refused.
var allowedOperators = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true,
	"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true,
	"and": true, "or": true, "not": true, "&&": true, "||": true, "!": true,
	",": true,
}

// checkTokens refuses, token by token, whatever lies outside the grammar,
// before the parser runs: the message can then name what the trader wrote
// (an operator, a function, a field) rather than what expr's richer parser
// made of it, and constructs that parse into innocent-looking nodes (a pipe
// x | abs() is a call of abs) never get that far. It returns the fields
// named, each once, in order of appearance.
func (g *Grammar) checkTokens(src string) ([]string, error) {
	tokens, err := lexer.Lex(file.NewSource(src))
	if err != nil {
		return nil, syntaxError(src, err)
	}
	var names []string
	for i, t := range tokens {
		switch t.Kind {
		case lexer.Number, lexer.String, lexer.EOF:
		case lexer.Bracket:
			if t.Value != "(" && t.Value != ")" {
				return nil, notInGrammar(src, t.Value, t.From)
			}
		case lexer.Operator:
			if !allowedOperators[t.Value] {
				return nil, notInGrammar(src, t.Value, t.From)
			}
		case lexer.Identifier:
			if i+1 < len(tokens) && tokens[i+1].Is(lexer.Bracket, "(") {
				if _, ok := functions[t.Value]; !ok {
					return nil, unknownFunction(src, t.Value, t.From)
				}
				continue
			}
			if t.Value == "true" || t.Value == "false" || t.Value == "nil" {
				return nil, notInGrammar(src, t.Value, t.From)
			}
			if _, ok := g.byName[t.Value]; !ok {
				return nil, g.unknownField(t.Value)
			}
			if !slices.Contains(names, t.Value) {
				names = append(names, t.Value)
			}
		default: // bytes literals b"..."
			return nil, notInGrammar(src, string(t.Kind), t.From)
		}
	}
	return names, nil
}

func notInGrammar(src, what string, from int) error {
	return fmt.Errorf("%q at %s is not part of the formula grammar", what, at(src, from))
}

func unknownFunction(src, name string, from int) error {
	return fmt.Errorf("unknown function %s at %s (the functions are abs, min and max)", name, at(src, from))
}

// unknownField names the field, and the right spelling when only the case
// is wrong: names are case sensitive, and IV30 for iv30 is the usual slip.
func (g *Grammar) unknownField(name string) error {
	for _, f := range g.fields {
		if strings.EqualFold(f.Name, name) {
			return fmt.Errorf("unknown field %s (names are case sensitive: did you mean %s?)", name, f.Name)
		}
	}
	names := make([]string, len(g.fields))
	for i, f := range g.fields {
		names[i] = f.Name
	}
	if near := text.Nearest(name, names); near != "" {
		return fmt.Errorf("unknown field %s; did you mean %s?", name, near)
	}
	return fmt.Errorf("unknown field %s", name)
}

// syntaxError turns an expr lexer or parser error into one line with the
// position; expr's own message carries a multi-line snippet.
func syntaxError(src string, err error) error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return fmt.Errorf("syntax error: %s", oneLine(err.Error()))
	}
	if strings.Contains(fe.Message, "maximum allowed nodes") {
		return fmt.Errorf("is too complex: more than %d names, numbers and operators", maxNodes)
	}
	if strings.Contains(fe.Message, "token EOF") { // expr places it on the last character
		return errors.New("syntax error: the formula ends too early (an operand or a closing parenthesis is missing)")
	}
	return fmt.Errorf("syntax error at %s: %s", at(src, fe.From), oneLine(fe.Message))
}

// at is the human position of the rune offset from: "column 7", or
// "line 2, column 3" in a formula that spans lines.
func at(src string, from int) string {
	line, col, n := 1, 1, 0
	for _, r := range src {
		if n == from {
			break
		}
		n++
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	if line == 1 {
		return fmt.Sprintf("column %d", col)
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

// oneLine flattens s to a single line: error messages are one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fits reports whether a value of kind k may stand where want is needed:
// a field of unknown type fits anywhere, since the service knows its type
// and this client does not.
func fits(k, want FormulaKind) bool { return k == 0 || k == want }

// typeOf checks a parsed formula against the grammar and returns its type.
// checkTokens already refused most of what does not belong; this walk is
// the second wall, by node kind, and the type check (no arithmetic on
// strings, no "and" of numbers), so that evaluation never meets a value of
// a type it does not expect. Recursion is bounded by maxNodes.
func (g *Grammar) typeOf(src string, node ast.Node) (FormulaKind, error) {
	switch n := node.(type) {
	case *ast.IdentifierNode:
		i, ok := g.byName[n.Value]
		if !ok {
			return 0, g.unknownField(n.Value)
		}
		return g.kinds[i], nil
	case *ast.IntegerNode, *ast.FloatNode:
		return FormulaNumber, nil
	case *ast.StringNode:
		return FormulaString, nil
	case *ast.UnaryNode:
		k, err := g.typeOf(src, n.Node)
		if err != nil {
			return 0, err
		}
		switch n.Operator {
		case "not", "!":
			if !fits(k, FormulaBool) {
				return 0, fmt.Errorf("%q at %s needs a condition (a boolean), not %s: write not (a > b)", n.Operator, at(src, n.Location().From), k)
			}
			return FormulaBool, nil
		case "-", "+":
			if !fits(k, FormulaNumber) {
				return 0, fmt.Errorf("%q at %s needs a number, not %s", n.Operator, at(src, n.Location().From), k)
			}
			return FormulaNumber, nil
		}
	case *ast.BinaryNode:
		return g.binaryType(src, n)
	case *ast.CallNode:
		return g.callType(src, n)
	}
	return 0, notInGrammar(src, node.String(), node.Location().From)
}

func (g *Grammar) binaryType(src string, n *ast.BinaryNode) (FormulaKind, error) {
	l, err := g.typeOf(src, n.Left)
	if err != nil {
		return 0, err
	}
	r, err := g.typeOf(src, n.Right)
	if err != nil {
		return 0, err
	}
	pos := at(src, n.Location().From)
	switch n.Operator {
	case "+", "-", "*", "/", "%":
		if !fits(l, FormulaNumber) || !fits(r, FormulaNumber) {
			return 0, fmt.Errorf("%q at %s needs numbers, not %s and %s", n.Operator, pos, l, r)
		}
		return FormulaNumber, nil
	case "<", "<=", ">", ">=", "==", "!=":
		if l != r && l != 0 && r != 0 {
			return 0, fmt.Errorf("%q at %s compares %s with %s", n.Operator, pos, l, r)
		}
		if (l == FormulaBool || r == FormulaBool) && n.Operator != "==" && n.Operator != "!=" {
			return 0, fmt.Errorf("%q at %s cannot order booleans", n.Operator, pos)
		}
		return FormulaBool, nil
	case "and", "or", "&&", "||":
		if !fits(l, FormulaBool) || !fits(r, FormulaBool) {
			return 0, fmt.Errorf("%q at %s needs conditions (booleans) on both sides, not %s and %s", n.Operator, pos, l, r)
		}
		return FormulaBool, nil
	}
	return 0, notInGrammar(src, n.Operator, n.Location().From)
}

func (g *Grammar) callType(src string, n *ast.CallNode) (FormulaKind, error) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		return 0, notInGrammar(src, n.String(), n.Location().From)
	}
	arity, ok := functions[id.Value]
	if !ok {
		return 0, unknownFunction(src, id.Value, n.Location().From)
	}
	pos := at(src, n.Location().From)
	if len(n.Arguments) < arity[0] || arity[1] >= 0 && len(n.Arguments) > arity[1] {
		if arity[1] == 1 {
			return 0, fmt.Errorf("%s at %s takes one number, not %d", id.Value, pos, len(n.Arguments))
		}
		return 0, fmt.Errorf("%s at %s takes two or more numbers, not %d", id.Value, pos, len(n.Arguments))
	}
	for _, a := range n.Arguments {
		k, err := g.typeOf(src, a)
		if err != nil {
			return 0, err
		}
		if !fits(k, FormulaNumber) {
			return 0, fmt.Errorf("%s at %s needs numbers, not %s", id.Value, pos, k)
		}
	}
	return FormulaNumber, nil
}
