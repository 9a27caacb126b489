package scan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser/lexer"
)

// Limits of a scan. A formula's cost is bounded by its number of AST nodes,
// and the node count by its length, so these bound the work of a request.
const (
	MaxFields        = 50   // fields per scan, as the spec says
	MaxFormulaLength = 1000 // characters (runes) per formula, as the conventions say
	maxNodes         = 200  // AST nodes per formula: a long but sane screen has a few dozen
)

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
// x | abs() is a call of abs) never get that far.
func checkTokens(src string) error {
	tokens, err := lexer.Lex(file.NewSource(src))
	if err != nil {
		return syntaxError(src, err)
	}
	for i, t := range tokens {
		switch t.Kind {
		case lexer.Number, lexer.String, lexer.EOF:
		case lexer.Bracket:
			if t.Value != "(" && t.Value != ")" {
				return notInGrammar(src, t.Value, t.From)
			}
		case lexer.Operator:
			if !allowedOperators[t.Value] {
				return notInGrammar(src, t.Value, t.From)
			}
		case lexer.Identifier:
			if i+1 < len(tokens) && tokens[i+1].Is(lexer.Bracket, "(") {
				if _, ok := functions[t.Value]; !ok {
					return fmt.Errorf("unknown function %s at %s (the functions are abs, min and max)", t.Value, at(src, t.From))
				}
				continue
			}
			if t.Value == "true" || t.Value == "false" || t.Value == "nil" {
				return notInGrammar(src, t.Value, t.From)
			}
			if byName[t.Value] == nil {
				return unknownField(t.Value)
			}
		default: // bytes literals b"..."
			return notInGrammar(src, string(t.Kind), t.From)
		}
	}
	return nil
}

func notInGrammar(src, what string, from int) error {
	return fmt.Errorf("%q at %s is not part of the formula grammar", what, at(src, from))
}

// unknownField names the field, and the right spelling when only the case
// is wrong: names are case sensitive, and IV30 for iv30 is the usual slip.
func unknownField(name string) error {
	for i := range catalogue {
		if strings.EqualFold(catalogue[i].name, name) {
			return fmt.Errorf("unknown field %s (names are case sensitive: did you mean %s?)", name, catalogue[i].name)
		}
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

// oneLine flattens s to a single line: error bodies are one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// typeOf checks a parsed formula against the grammar and returns its type.
// checkTokens already refused most of what does not belong; this walk is
// the second wall, by node kind, and the type check (no arithmetic on
// strings, no "and" of numbers), so that evaluation never meets a value of
// a type it does not expect. Recursion is bounded by maxNodes.
func typeOf(src string, node ast.Node) (kind, error) {
	switch n := node.(type) {
	case *ast.IdentifierNode:
		f := byName[n.Value]
		if f == nil {
			return 0, unknownField(n.Value)
		}
		return f.kind(), nil
	case *ast.IntegerNode, *ast.FloatNode:
		return kindNumber, nil
	case *ast.StringNode:
		return kindString, nil
	case *ast.UnaryNode:
		k, err := typeOf(src, n.Node)
		if err != nil {
			return 0, err
		}
		switch n.Operator {
		case "not", "!":
			if k != kindBool {
				return 0, fmt.Errorf("%q at %s needs a condition (a boolean), not %s: write not (a > b)", n.Operator, at(src, n.Location().From), k)
			}
			return kindBool, nil
		case "-", "+":
			if k != kindNumber {
				return 0, fmt.Errorf("%q at %s needs a number, not %s", n.Operator, at(src, n.Location().From), k)
			}
			return kindNumber, nil
		}
	case *ast.BinaryNode:
		return binaryType(src, n)
	case *ast.CallNode:
		return callType(src, n)
	}
	return 0, notInGrammar(src, node.String(), node.Location().From)
}

func binaryType(src string, n *ast.BinaryNode) (kind, error) {
	l, err := typeOf(src, n.Left)
	if err != nil {
		return 0, err
	}
	r, err := typeOf(src, n.Right)
	if err != nil {
		return 0, err
	}
	pos := at(src, n.Location().From)
	switch n.Operator {
	case "+", "-", "*", "/", "%":
		if l != kindNumber || r != kindNumber {
			return 0, fmt.Errorf("%q at %s needs numbers, not %s and %s", n.Operator, pos, l, r)
		}
		return kindNumber, nil
	case "<", "<=", ">", ">=", "==", "!=":
		if l != r {
			return 0, fmt.Errorf("%q at %s compares %s with %s", n.Operator, pos, l, r)
		}
		if l == kindBool && n.Operator != "==" && n.Operator != "!=" {
			return 0, fmt.Errorf("%q at %s cannot order booleans", n.Operator, pos)
		}
		return kindBool, nil
	case "and", "or", "&&", "||":
		if l != kindBool || r != kindBool {
			return 0, fmt.Errorf("%q at %s needs conditions (booleans) on both sides, not %s and %s", n.Operator, pos, l, r)
		}
		return kindBool, nil
	}
	return 0, notInGrammar(src, n.Operator, n.Location().From)
}

func callType(src string, n *ast.CallNode) (kind, error) {
	id, ok := n.Callee.(*ast.IdentifierNode)
	if !ok {
		return 0, notInGrammar(src, n.String(), n.Location().From)
	}
	arity, ok := functions[id.Value]
	if !ok {
		return 0, fmt.Errorf("unknown function %s at %s (the functions are abs, min and max)", id.Value, at(src, n.Location().From))
	}
	pos := at(src, n.Location().From)
	if len(n.Arguments) < arity[0] || arity[1] >= 0 && len(n.Arguments) > arity[1] {
		if arity[1] == 1 {
			return 0, fmt.Errorf("%s at %s takes one number, not %d", id.Value, pos, len(n.Arguments))
		}
		return 0, fmt.Errorf("%s at %s takes two or more numbers, not %d", id.Value, pos, len(n.Arguments))
	}
	for _, a := range n.Arguments {
		k, err := typeOf(src, a)
		if err != nil {
			return 0, err
		}
		if k != kindNumber {
			return 0, fmt.Errorf("%s at %s needs numbers, not %s", id.Value, pos, k)
		}
	}
	return kindNumber, nil
}
