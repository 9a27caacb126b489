package cmd

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"chainwatch/api"
	"chainwatch/feed"
	"chainwatch/text"
)

// mcpTool is a headless command offered to an agent: the command, and
// what its positional arguments are called in the tool's input. The
// rest of the input is the command's own flags, read from its flag set
// when the server starts, so a flag added to a command is a tool argument
// too; the flags every headless command shares (the exporter's, the
// service's, --cost, --watch) are the server's, not an agent's.
type mcpTool struct {
	name  string
	arg   string // the positional arguments' name in the input; "" for none
	many  bool   // an array of them
	need  bool   // required
	about string
}

// mcpTools are the tools, in tools/list's order.
var mcpTools = []mcpTool{
	{name: "chain", arg: "symbol", need: true, about: "the underlying, e.g. SPY"},
	{name: "quotes", arg: "symbols", many: true, about: "the underlyings (default: the config file's watchlist)"},
	{name: "vol", arg: "symbol", need: true, about: "the underlying, e.g. SPY"},
	{name: "gex", arg: "symbol", need: true, about: "the underlying, e.g. SPY"},
	{name: "trades", arg: "symbol", need: true, about: "an underlying (its option trades) or an OSI contract such as SPY261120C00700000 (with IV and greeks at each trade)"},
	{name: "taq", arg: "contract", need: true, about: "an OSI contract, e.g. SPY261120C00700000"},
	{name: "calendar", arg: "symbols", many: true, need: true, about: "the underlyings"},
	{name: "scan"},
	{name: "strategy", arg: "legs", need: true, about: "the legs in the leg syntax, e.g. 'SPY 2026-12-18 +C700 -C710'"},
	{name: "positions"},
}

// mcpFields is the input that chooses the rows' fields (--json=...).
const mcpFields = "fields"

// sharedFlags are the names of the flags every headless command has.
func sharedFlags() map[string]bool {
	c := &cobra.Command{}
	addHeadlessFlags(c, &headless{})
	names := map[string]bool{"help": true}
	c.Flags().VisitAll(func(f *pflag.Flag) { names[f.Name] = true })
	delete(names, "mode") // live or delayed is the agent's to choose, as a user's
	return names
}

// schema is t's input schema, from c's flags.
func (t mcpTool) schema(c *cobra.Command, shared map[string]bool) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	if t.arg != "" {
		p := &jsonschema.Schema{Type: "string", Description: t.about}
		if t.many {
			p = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: t.about}
			if t.need {
				p.MinItems = jsonschema.Ptr(1)
			}
		}
		s.Properties[t.arg] = p
		s.PropertyOrder = append(s.PropertyOrder, t.arg)
		if t.need {
			s.Required = []string{t.arg}
		}
	}
	// --json=field,field: the rows' fields an agent wants, in its order.
	s.Properties[mcpFields] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"},
		Description: "only these fields of each row, in this order (default all; an unknown one is refused with the fields there are)"}
	s.PropertyOrder = append(s.PropertyOrder, mcpFields)
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if shared[f.Name] || f.Hidden || f.Name == mcpFields || f.Name == t.arg {
			return
		}
		desc := f.Usage
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			desc += " (default " + d + ")"
		}
		p := &jsonschema.Schema{Type: "string", Description: desc}
		switch f.Value.Type() {
		case "bool":
			p.Type = "boolean"
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
			p.Type = "integer"
		case "float32", "float64":
			p.Type = "number"
		case "stringSlice", "stringArray":
			p = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: desc}
		}
		s.Properties[f.Name] = p
		s.PropertyOrder = append(s.PropertyOrder, f.Name)
	})
	return s
}

// commandLine is the command line a call of t with in runs: its flags,
// --json, then its positional arguments after "--" (a symbol is never
// read as a flag). The input was checked against t's schema.
func (t mcpTool) commandLine(in map[string]any, extra []string) []string {
	args := []string{t.name}
	var pos []string
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	output := "--json"
	for _, k := range keys {
		if k == mcpFields {
			if fields, _ := in[k].([]any); len(fields) > 0 {
				var names []string
				for _, f := range fields {
					names = append(names, scalar(f))
				}
				output += "=" + strings.Join(names, ",")
			}
			continue
		}
		vals, ok := in[k].([]any)
		if !ok {
			vals = []any{in[k]}
		}
		for _, v := range vals {
			if k == t.arg {
				pos = append(pos, scalar(v))
			} else {
				args = append(args, "--"+k+"="+scalar(v))
			}
		}
	}
	args = append(append(args, extra...), output, "--")
	return append(args, pos...)
}

// scalar is a JSON value as a flag's or an argument's text.
func scalar(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(v)
}

// mcpSession is what every call of one mcp session runs on: the served
// client and monitor, the cap, and where the call is logged.
type mcpSession struct {
	client    *api.Client
	mon       *feed.Monitor
	cap       *mcpCap
	getenv    func(string) string
	positions string   // the positions file strategy --save and positions use
	extra     []string // flags every call takes (the session's --config)
	mode      string   // the session's --mode, for a call that names none
	// check refuses a command line (over ssh, serve's own refusals); nil
	// refuses nothing.
	check func(args []string) string
	log   *slog.Logger
}

// newMCPServer is the MCP server of s, a tool per headless command.
func newMCPServer(s *mcpSession) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "chainwatch", Title: "chainwatch", Version: version()},
		&mcp.ServerOptions{Instructions: mcpInstructions, Logger: slog.New(slog.DiscardHandler)})
	root := NewCmdRoot(Deps{getenv: s.getenv}, nil)
	shared := sharedFlags()
	for _, t := range mcpTools {
		c, _, err := root.Find([]string{t.name})
		if err != nil || c.Name() != t.name {
			continue // a build without the command
		}
		desc := c.Short + "\n\n" + c.Long + "\n\nEach call is charged the most it may spend before it is sent, against the session's cap; " +
			"the result is the command's --json rows, then the points it spent and what is left."
		tool := &mcp.Tool{Name: t.name, Description: desc, InputSchema: t.schema(c, shared)}
		mcp.AddTool(srv, tool, func(ctx context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
			return s.call(ctx, t, in), nil, nil
		})
	}
	return srv
}

const mcpInstructions = `chainwatch's headless commands as tools: option chains, quotes, IV and greeks, ` +
	`gamma exposure, trades, the earnings calendar, scans, strategies and positions. ` +
	`Every call spends points of the account; the session has a cap, said after each call.`

// call runs t's command with in, as the command line would, on the
// session's client: its rows, or its refusal with its exit status.
func (s *mcpSession) call(ctx context.Context, t mcpTool, in map[string]any) *mcp.CallToolResult {
	extra := s.extra
	if _, ok := in["mode"]; !ok && s.mode != "" {
		extra = append(slices.Clip(extra), "--mode="+s.mode)
	}
	args := t.commandLine(in, extra)
	if s.check != nil {
		if msg := s.check(args); msg != "" {
			return mcpError(msg, ExitInput)
		}
	}
	var spent int
	charge := func(p costPlan) (func(int), error) {
		settle, err := s.cap.charge(p)
		if err != nil {
			return nil, err
		}
		return func(n int) { spent = n; settle(n) }, nil
	}
	served := &servedClient{client: s.client, mon: s.mon, line: strings.Join(args, " "), charge: charge, positions: s.positions}
	var out, errOut bytes.Buffer
	code := Execute(Deps{in: strings.NewReader(""), out: &out, errOut: &errOut, getenv: s.getenv, now: s.client.Now, ctx: ctx, served: served}, args)
	s.log.Info("mcp call", "tool", t.name, "args", text.OneLine(strings.Join(args[1:], " "), 200), "points", spent, "status", code, "session", s.cap.describe())
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "Error: ") // cobra's, before the command's one line
	}
	said := strings.Join(lines, "\n")
	if code != ExitOK {
		return mcpError(said, code)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: out.String()},
		&mcp.TextContent{Text: strings.TrimSpace(said + "\n" + s.cap.describe())},
	}}
}

// mcpError is a refusal as a tool error, with its exit status's meaning.
func mcpError(msg string, code int) *mcp.CallToolResult {
	meaning := map[int]string{ExitService: "the service or the network failed", ExitInput: "bad input",
		ExitNoData: "no data", ExitInternal: "an internal error"}[code]
	r := &mcp.CallToolResult{IsError: true}
	r.Content = []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s\n(exit status %d: %s)", msg, code, meaning)}}
	return r
}
