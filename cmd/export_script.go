package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/itchyny/gojq"

	"chainwatch/text"
)

// --jq and --template run on the rows' JSON document (an array of
// objects) as gh's do. jq is github.com/itchyny/gojq, a jq in pure Go, so a
// script needs no jq binary on the box; its environment ($ENV, env) is
// empty, so an expression cannot read the client secret from the process.

// compileJQ parses and compiles a --jq expression before anything is
// spent: a typo costs nothing.
func compileJQ(src string) (*gojq.Code, error) {
	q, err := gojq.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("--jq %s: %s", text.Quote(src), text.OneLine(err.Error(), 200))
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return nil, fmt.Errorf("--jq %s: %s", text.Quote(src), text.OneLine(err.Error(), 200))
	}
	return code, nil
}

// runJQ prints each value the expression yields on a line of its own: a
// string as it is (jq -r, the useful form in a pipeline: its tabs and line
// breaks kept, as the expression may have built a TSV line; any other
// control removed), anything else as compact JSON. An error of the expression on this data is the caller's
// (exit status 2), and nothing is printed.
func runJQ(code *gojq.Code, doc []byte) ([]byte, error) {
	var in any
	if err := json.Unmarshal(doc, &in); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	iter := code.Run(in)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break // halt: stop without an error
			}
			return nil, badInput(fmt.Errorf("--jq: %s", text.OneLine(err.Error(), 200)))
		}
		if s, ok := v.(string); ok {
			out.WriteString(cleanKeepLines(s))
		} else {
			b, err := gojq.Marshal(v)
			if err != nil {
				return nil, err
			}
			out.Write(escapeC1(b))
		}
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// parseTemplate parses a --template before anything is spent.
func parseTemplate(src string) (*template.Template, error) {
	t, err := template.New("--template").Option("missingkey=zero").Parse(src)
	if err != nil {
		return nil, fmt.Errorf("--template: %s", text.OneLine(err.Error(), 200))
	}
	return t, nil
}

// runTemplate executes the template on the rows (a slice of maps, as
// decoded from the JSON, so field names are the JSON keys). The values are
// cleaned as the table's are, and a null is empty rather than Go's
// "<no value>"; what the template writes itself is cleaned line by line,
// its line breaks and tabs kept, since it writes lines and columns on
// purpose.
func runTemplate(t *template.Template, doc []byte) ([]byte, error) {
	var rows []map[string]any
	if err := json.Unmarshal(doc, &rows); err != nil {
		return nil, err
	}
	for _, r := range rows {
		for k, v := range r {
			switch v := v.(type) {
			case nil:
				r[k] = ""
			case string:
				r[k] = text.Clean(v)
			}
		}
	}
	var out strings.Builder
	if err := t.Execute(&out, rows); err != nil {
		return nil, badInput(fmt.Errorf("--template: %s", text.OneLine(err.Error(), 200)))
	}
	return []byte(cleanKeepLines(out.String())), nil
}

// cleanKeepLines is text.Clean for output meant to have lines and
// columns: each piece between line breaks and tabs is cleaned, the breaks
// and tabs are kept.
func cleanKeepLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = text.Clean(c)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}
