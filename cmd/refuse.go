package cmd

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"chainwatch/text"
)

// A refusal echoes what was typed at most text.EchoMax characters
// (docs/scripting.md, "What chainwatch refuses"). Messages built here use text.Quote; cobra's
// and pflag's own messages, and any other that repeats an argument or a
// flag's value whole, pass through clipEchoes on the way out.

// flagError words a flag that did not parse once, in chainwatch's way:
// pflag's "invalid argument "X" for "--days" flag: strconv.ParseInt:
// parsing "X": invalid syntax" repeated the value whole, twice. Exit 2.
func flagError(cmd *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		f := iv.GetFlag()
		want := wantOf(f.Value.Type())
		if want == "" {
			want = clipValue(iv.Unwrap().Error(), iv.GetValue())
		}
		err = fmt.Errorf("--%s %s: %s", f.Name, text.Quote(iv.GetValue()), want)
	}
	var ne *pflag.NotExistError
	if errors.As(err, &ne) {
		err = errors.New(clipValue(err.Error(), ne.GetSpecifiedName()))
	}
	return usageError{clipEchoes(cmd, nil, err)}
}

// wantOf is what a flag of pflag's type takes, "" for a type of ours
// (whose own error says it).
func wantOf(typ string) string {
	switch {
	case strings.HasPrefix(typ, "int"), strings.HasPrefix(typ, "uint"):
		return "want a whole number"
	case strings.HasPrefix(typ, "float"):
		return "want a number"
	case typ == "duration":
		return "want a duration such as 30s, 5m or 1h30m"
	case typ == "bool":
		return "want true or false"
	}
	return ""
}

// clipValue is msg with every long value in it cut to text.EchoMax.
func clipValue(msg string, values ...string) string {
	for _, v := range values {
		for _, form := range []string{v, strings.ToUpper(v), strings.Trim(strconv.Quote(v), `"`)} {
			if utf8.RuneCountInString(form) > text.EchoMax && strings.Contains(msg, form) {
				msg = strings.ReplaceAll(msg, form, text.Clip(form, text.EchoMax))
			}
		}
	}
	return msg
}

// echoClipped is an error whose message had a long value cut; its status
// is the wrapped error's.
type echoClipped struct {
	error
	msg string
}

func (e echoClipped) Error() string { return e.msg }
func (e echoClipped) Unwrap() error { return e.error }

// clipEchoes cuts, in err's message, every argument and flag value of cmd
// longer than text.EchoMax.
func clipEchoes(cmd *cobra.Command, args []string, err error) error {
	if err == nil {
		return nil
	}
	values := append([]string(nil), args...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if s, ok := f.Value.(pflag.SliceValue); ok {
			values = append(values, s.GetSlice()...)
		}
		values = append(values, f.Value.String())
	})
	// A file that exists is what the message is about (a token file that
	// does not load): its path is named whole, to be found.
	values = slices.DeleteFunc(values, func(v string) bool {
		_, err := os.Lstat(v)
		return err == nil
	})
	msg := err.Error()
	if clipped := clipValue(msg, values...); clipped != msg {
		return echoClipped{err, clipped}
	}
	return err
}

// guardEchoes puts every command's argument check and run behind
// clipEchoes, and the flags' errors behind flagError.
func guardEchoes(root *cobra.Command) {
	root.SetFlagErrorFunc(flagError)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if check := c.Args; check != nil {
			c.Args = func(cmd *cobra.Command, args []string) error { return clipEchoes(cmd, args, check(cmd, args)) }
		}
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error { return clipEchoes(cmd, args, run(cmd, args)) }
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
