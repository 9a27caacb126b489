package scan

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"chainwatch/api"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// memoryBudget caps what one evaluation may allocate in expr's VM. The
// grammar has no construct that allocates (no arrays, ranges or maps), so
// this is a second wall, not a limit a formula meets.
const memoryBudget = 1 << 10

// grammar is the conventions' formula grammar over the catalogue. It is
// api's, the one the client checks with as the trader types, so the client
// and the sandbox admit the same formulas and word refusals alike; this
// package only compiles and evaluates what it admits.
var grammar = api.NewGrammar(Metadata().Fields)

// formula is one compiled formula; immutable and safe for concurrent use.
type formula struct {
	prog   *vm.Program
	kind   api.FormulaKind
	fields []*field // the fields it names, each once
}

// envSample gives expr's checker the type of every field, as the grammar
// types it (so the two never disagree); being a map, it makes the env
// strict (an unknown name is a compile error, though the grammar refuses
// it first). At run time the env holds nil for a null, which the functions
// below handle.
var envSample = func() map[string]any {
	m := make(map[string]any, len(catalogue))
	for i := range catalogue {
		info, _ := grammar.Check(catalogue[i].name)
		switch info.Kind {
		case api.FormulaNumber:
			m[catalogue[i].name] = 0.0
		case api.FormulaBool:
			m[catalogue[i].name] = false
		default:
			m[catalogue[i].name] = ""
		}
	}
	return m
}()

// Every operator is rewritten into a call of a null-aware function (see
// rewrite), so that evaluation follows three-valued logic instead of
// expr's (where nil == 1 is false and nil > 1 a runtime error).
var (
	// allowedOperators are the operators of the grammar, each with the
	// functions that evaluate it: unary, then binary ("" where it is not
	// one). A unary + is dropped, and a comma only separates arguments.
	allowedOperators = map[string][2]string{
		"+": {"", "_add"}, "-": {"_neg", "_sub"}, "*": {"", "_mul"}, "/": {"", "_div"}, "%": {"", "_mod"},
		"<": {"", "_lt"}, "<=": {"", "_le"}, ">": {"", "_gt"}, ">=": {"", "_ge"}, "==": {"", "_eq"}, "!=": {"", "_ne"},
		"and": {"", "_and"}, "&&": {"", "_and"}, "or": {"", "_or"}, "||": {"", "_or"},
		"not": {"_not", ""}, "!": {"_not", ""}, ",": {},
	}
	// functions are the grammar's functions, which formulas call by name.
	functions = map[string]func(...any) (any, error){
		"abs": unary(math.Abs), "min": fold(math.Min), "max": fold(math.Max),
	}
	// operatorFuncs are the functions of allowedOperators.
	operatorFuncs = map[string]func(...any) (any, error){
		"_neg": unary(func(x float64) float64 { return -x }),
		"_add": arith(func(a, b float64) float64 { return a + b }),
		"_sub": arith(func(a, b float64) float64 { return a - b }),
		"_mul": arith(func(a, b float64) float64 { return a * b }),
		"_div": arith(func(a, b float64) float64 { return a / b }),
		"_mod": arith(math.Mod),
		"_lt":  compare(func(c int) bool { return c < 0 }),
		"_le":  compare(func(c int) bool { return c <= 0 }),
		"_gt":  compare(func(c int) bool { return c > 0 }),
		"_ge":  compare(func(c int) bool { return c >= 0 }),
		"_eq":  compare(func(c int) bool { return c == 0 }),
		"_ne":  compare(func(c int) bool { return c != 0 }),
		"_and": and, "_or": or, "_not": not,
	}
)

// options are expr's options for a formula: typed env, no builtins (len,
// map, filter, now, ... are gone), only the functions above. Users cannot
// call the internal _ functions: the grammar admits only abs, min and max
// as callees, and it bounds the number of nodes, so expr's own (larger)
// node budget is never met.
func options() []expr.Option {
	opts := []expr.Option{expr.Env(envSample), expr.DisableAllBuiltins()}
	for name, fn := range functions {
		opts = append(opts, expr.Function(name, fn))
	}
	for name, fn := range operatorFuncs {
		opts = append(opts, expr.Function(name, fn))
	}
	return opts
}

// compileFormula checks src against the grammar and compiles it. Errors are
// one line without the formula (the caller names it).
func compileFormula(src string) (*formula, error) {
	info, err := grammar.Check(src)
	if err != nil {
		return nil, err
	}
	prog, err := expr.Compile(src, append(options(), expr.Patch(rewrite{}))...)
	if err != nil { // the grammar admitted it, so this is a bug here, not the trader's
		return nil, fmt.Errorf("cannot be compiled: %s", oneLine(err.Error()))
	}
	f := &formula{prog: prog, kind: info.Kind, fields: make([]*field, len(info.Fields))}
	for i, name := range info.Fields {
		f.fields[i] = byName[name]
	}
	return f, nil
}

// rewrite is an expr patcher turning every operator into a call of its
// null-aware function; expr walks children first, so arguments are
// rewritten before their parent. A unary + is dropped.
type rewrite struct{}

func (rewrite) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.UnaryNode:
		if n.Operator == "+" {
			ast.Patch(node, n.Node)
			return
		}
		patchCall(node, allowedOperators[n.Operator][0], n.Node)
	case *ast.BinaryNode:
		patchCall(node, allowedOperators[n.Operator][1], n.Left, n.Right)
	}
}

func patchCall(node *ast.Node, name string, args ...ast.Node) {
	ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: name}, Arguments: args})
}

// eval runs f on one row's env. The result is a float64, string, bool or
// nil; a runtime error (none is expected of a checked formula) is null.
func (f *formula) eval(m *vm.VM, env map[string]any) any {
	out, err := m.Run(f.prog, env)
	if err != nil {
		return nil
	}
	switch v := out.(type) {
	case float64:
		return num(v)
	case int:
		return float64(v)
	case string, bool:
		return v
	}
	return nil
}

// number is v as a float64; false for null. Literals arrive as int.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

func unary(op func(float64) float64) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		if x, ok := number(args[0]); ok {
			return num(op(x)), nil
		}
		return nil, nil
	}
}

// arith is a binary operator on numbers: null over a null, and null where
// the result is not finite (division or remainder by zero).
func arith(op func(a, b float64) float64) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		a, ok := number(args[0])
		b, ok2 := number(args[1])
		if !ok || !ok2 {
			return nil, nil
		}
		return num(op(a, b)), nil
	}
}

// fold is min or max over two or more numbers; null if any is null.
func fold(op func(a, b float64) float64) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		acc, ok := number(args[0])
		for _, a := range args[1:] {
			x, ok2 := number(a)
			ok = ok && ok2
			acc = op(acc, x)
		}
		if !ok {
			return nil, nil
		}
		return num(acc), nil
	}
}

// compare is a comparison: numbers by value, strings (and dates) by text,
// booleans false before true; null over a null.
func compare(holds func(c int) bool) func(...any) (any, error) {
	return func(args ...any) (any, error) {
		if c, ok := order(args[0], args[1]); ok {
			return holds(c), nil
		}
		return nil, nil
	}
}

// order compares two non-null values of one type; false when either is
// null (or, which the checker prevents, the types differ).
func order(a, b any) (int, bool) {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return cmp.Compare(x, y), ok
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return strings.Compare(x, y), ok
	case bool:
		y, ok := b.(bool)
		return cmp.Compare(b2i(x), b2i(y)), ok
	}
	return 0, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// and, or, not: SQL's three-valued logic, where a null is "unknown".
func and(args ...any) (any, error) {
	switch {
	case args[0] == false || args[1] == false:
		return false, nil
	case args[0] == nil || args[1] == nil:
		return nil, nil
	}
	return true, nil
}

func or(args ...any) (any, error) {
	switch {
	case args[0] == true || args[1] == true:
		return true, nil
	case args[0] == nil || args[1] == nil:
		return nil, nil
	}
	return false, nil
}

func not(args ...any) (any, error) {
	if b, ok := args[0].(bool); ok {
		return !b, nil
	}
	return nil, nil
}
