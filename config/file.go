package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"chainwatch/api"
	"chainwatch/text"
)

// File is config.toml. Every key is optional: a pointer (or an empty
// string) is a key the file leaves out, so that the flags and the defaults
// can tell "not said" from "said zero".
type File struct {
	Symbol     string      `toml:"symbol"`
	Mode       string      `toml:"mode"`
	Theme      string      `toml:"theme"`
	ColorBlind *bool       `toml:"colorblind"`
	Flash      *bool       `toml:"flash"` // false: --no-flash
	BlockSize  *int64      `toml:"block_size"`
	TapeSize   *int        `toml:"tape_size"`
	Budget     Budget      `toml:"budget"`
	Serve      Serve       `toml:"serve"`
	Service    Service     `toml:"service"`
	Record     Record      `toml:"record"` // the flight recorder, record.go
	Scans      []ScanTable `toml:"scan"`   // [[scan]] tables, scans.go
	// Alerts are the [[alert]] rules (alerts.go), AlertLines the line of
	// each one's header, AlertSettings the [alerts] table.
	Alerts        []AlertTable     `toml:"alert"`
	AlertLines    []int            `toml:"-"`
	AlertKeyLines []map[string]int `toml:"-"` // each rule's keys' lines
	AlertSettings AlertSettings    `toml:"alerts"`
	// Watchlist is the watchlist page's symbols (watchlist.go); nil when
	// the file leaves the key out, so that an emptied list stays empty
	// instead of turning back into the default one.
	Watchlist *[]string `toml:"watchlist"`
	// WatchlistSkipped are the entries of watchlist that are not used,
	// with their lines: reported, not fatal, so one typo does not cost
	// the trader the screen or the rest of the list.
	WatchlistSkipped []WatchlistProblem `toml:"-"`
}

type Budget struct {
	PointsPerDay *int     `toml:"points_per_day"`
	Share        *float64 `toml:"share"`
}

// Serve is the [serve] table: `chainwatch serve`'s own settings.
type Serve struct {
	// KeyShare is the share (0,1] of the desk's day budget that one key's
	// commands over ssh may spend; nil: the day split evenly among the
	// keys of authorized_keys (a trader cannot spend the others' day).
	KeyShare *float64 `toml:"key_share"`
}

// Service is the [service] table: where to connect and with what,
// below flags and environment but above a stored login.
type Service struct {
	BaseURL      string `toml:"base_url"`
	AuthURL      string `toml:"auth_url"`
	ClientID     string `toml:"client_id"`
	ClientSecret Secret `toml:"client_secret"`
	TokenFile    string `toml:"token_file"`

	Path string `toml:"-"` // the file it came from, for messages; "" when there was none
}

// Secret is a string that does not print: a config struct that ends up in
// a log line or an error by accident shows "[hidden]", not the secret.
type Secret string

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[hidden]"
}

func (s Secret) GoString() string { return `"` + s.String() + `"` }

// UserConfigDir is os.UserConfigDir on getenv instead of the process
// environment, so tests (and the command line's injected getenv) decide where the config
// and the stored login are, and never touch the developer's own files.
func UserConfigDir(getenv func(string) string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if dir := getenv("AppData"); dir != "" {
			return dir, nil
		}
		return "", errors.New("%AppData% is not set")
	case "darwin", "ios":
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, "Library", "Application Support"), nil
		}
		return "", errors.New("$HOME is not set")
	case "plan9":
		if home := getenv("home"); home != "" {
			return filepath.Join(home, "lib"), nil
		}
		return "", errors.New("$home is not set")
	}
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		if !filepath.IsAbs(dir) {
			return "", errors.New("the path in $XDG_CONFIG_HOME is relative")
		}
		return dir, nil
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config"), nil
	}
	return "", errors.New("neither $XDG_CONFIG_HOME nor $HOME is set")
}

// DefaultPath is $XDG_CONFIG_HOME/chainwatch/config.toml (the user
// config directory of the platform), next to the stored login.
func DefaultPath(getenv func(string) string) (string, error) {
	dir, err := UserConfigDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "chainwatch", "config.toml"), nil
}

// MaxFileSize is the largest config file Load reads: a hand-written file
// with a watchlist and saved scans is a small fraction of it.
const MaxFileSize = 1 << 20

// Load reads and checks the config file at path. A missing file is
// no config (exists false) unless the user named it (explicit, --config):
// a typo in a path they gave must not silently fall back to defaults.
// Every error names the file and the key or line, and never holds the
// client secret.
func Load(path string, explicit bool, rule ScanRule) (fc File, exists bool, err error) {
	fc.Service.Path = path
	// Regular and at most MaxFileSize, or refused before it is read:
	// --config /dev/zero would be read until memory runs out, a FIFO would
	// block forever.
	data, fi, err := api.ReadRegularFile(path, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		return fc, false, nil
	case errors.Is(err, fs.ErrNotExist):
		return fc, false, fmt.Errorf("--config %s: no such file", path)
	case errors.Is(err, api.ErrNotRegular), errors.Is(err, api.ErrTooLarge):
		return fc, true, fmt.Errorf("config file %w", err)
	case err != nil:
		return fc, true, fmt.Errorf("cannot read the config file: %w", err)
	}
	md, err := toml.Decode(string(data), &fc)
	if err != nil {
		return File{}, true, tomlError(path, string(data), err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		if err, ok := unknownAlertKey(path, string(data), und[0]); ok {
			return File{}, true, err
		}
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = echoKey(k.String())
		}
		return File{}, true, fmt.Errorf("%s: unknown key %s (known: %s)", path, strings.Join(keys, ", "), strings.Join(configKeys, ", "))
	}
	fc.Service.Path = path
	// Like ssh with a private key: a secret others can read may already be
	// someone else's, so refuse it rather than use it. (Windows has no such
	// permission bits.)
	if fc.Service.ClientSecret != "" && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return File{}, true, fmt.Errorf("%s holds client_secret but group or others can read it (mode %04o); run: chmod 600 %s",
			path, fi.Mode().Perm(), path)
	}
	if err := fc.check(rule); err != nil {
		return File{}, true, fmt.Errorf("%s: %w", path, err)
	}
	if err := fc.checkAlerts(path, string(data)); err != nil {
		return File{}, true, err
	}
	fc.checkWatchlist(string(data))
	return fc, true, nil
}

// configKeys lists every key of the file, for the unknown-key message.
var configKeys = []string{
	"symbol", "mode", "theme", "colorblind", "flash", "block_size", "tape_size", "watchlist",
	"budget.points_per_day", "budget.share", "serve.key_share", "record.enabled", "record.max_size",
	"service.base_url", "service.auth_url", "service.client_id", "service.client_secret", "service.token_file",
	"scan.name", "scan.description", "scan.all_results",
	"scan.field.formula", "scan.field.display_name", "scan.field.include_in_resultset", "scan.field.sort",
	"alert.name", "alert.kind", "alert.symbol", "alert.contract", "alert.above", "alert.below", "alert.margin",
	"alert.move", "alert.from", "alert.min_size", "alert.min_premium", "alert.ratio", "alert.min_volume",
	"alert.scan", "alert.exec", "alert.enabled",
	"alerts.every", "alerts.exec", "alerts.exec_timeout", "alerts.desktop", "alerts.bell",
}

// typeError is the decoder's message for a value of the wrong type, which
// it gives as a plain error: `toml: line 3 (last key "block_size"): ...`.
var typeError = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)

// tomlError turns a decoding error into "file:line:col: message", naming
// the key where the decoder knows it. A syntax error's message may quote
// a piece of the line it stopped on, so an error on a line that holds
// client_secret gets a message of our own instead.
func tomlError(path, data string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		lines := strings.Split(data, "\n")
		if strings.Contains(pe.LastKey, "client_secret") ||
			(pe.Position.Line >= 1 && pe.Position.Line <= len(lines) && strings.Contains(lines[pe.Position.Line-1], "client_secret")) {
			msg = `client_secret is not a valid TOML string (not shown: it is a secret); write it quoted: client_secret = "..."`
		}
		where := fmt.Sprintf("%s:%d", path, pe.Position.Line)
		if pe.Position.Col > 0 {
			where += fmt.Sprintf(":%d", pe.Position.Col)
		}
		return fmt.Errorf("%s: %s", where, clipQuoted(msg))
	}
	if m := typeError.FindStringSubmatch(err.Error()); m != nil {
		where := path
		if m[1] != "" {
			where += ":" + m[1]
		}
		msg := strings.Replace(m[3], "incompatible types: ", "", 1)
		return fmt.Errorf("%s: %s: wrong type: %s", where, m[2], msg)
	}
	return fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "toml: "))
}

// echoKey is a key of the file as a message names it: as written, cut at
// text.EchoMax; quoted when it holds what a terminal must not see.
func echoKey(k string) string {
	if strconv.Quote(k) != `"`+k+`"` {
		return text.Quote(k)
	}
	return text.Clip(k, text.EchoMax)
}

// quotedInMessage is a quoted string in the TOML parser's message (the
// text it found), which may be a whole long line of the file.
var quotedInMessage = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// clipQuoted cuts every quoted string in msg to text.EchoMax.
func clipQuoted(msg string) string {
	return quotedInMessage.ReplaceAllStringFunc(msg, func(q string) string {
		inner := q[1 : len(q)-1]
		if utf8.RuneCountInString(inner) <= text.EchoMax {
			return q
		}
		return `"` + text.Clip(inner, text.EchoMax) + `"`
	})
}

// check validates every value the file gives, naming the key, and
// normalises the symbol, so that a bad file fails at start with one line
// instead of misbehaving in the middle of the screen.
func (fc *File) check(rule ScanRule) error {
	if fc.Symbol != "" {
		s, err := ParseSymbol(fc.Symbol)
		if err != nil {
			return err // it names the key: symbol "S P Y": ...
		}
		fc.Symbol = s
	}
	if fc.Mode != "" {
		if _, err := ParseMode(fc.Mode); err != nil {
			return fmt.Errorf("mode: %w", err)
		}
	}
	if fc.Theme != "" {
		if err := CheckTheme(fc.Theme); err != nil {
			return fmt.Errorf("theme: %w", err)
		}
	}
	if fc.BlockSize != nil {
		if err := CheckBlockSize(*fc.BlockSize); err != nil {
			return fmt.Errorf("block_size: %w", err)
		}
	}
	if fc.TapeSize != nil {
		if err := CheckTapeSize(*fc.TapeSize); err != nil {
			return fmt.Errorf("tape_size: %w", err)
		}
	}
	if p := fc.Budget.PointsPerDay; p != nil {
		if err := CheckPerDay(*p); err != nil {
			return fmt.Errorf("[budget] points_per_day: %w", err)
		}
	}
	if s := fc.Budget.Share; s != nil {
		if err := CheckShare(*s); err != nil {
			return fmt.Errorf("[budget] share: %w", err)
		}
	}
	if s := fc.Serve.KeyShare; s != nil && (math.IsNaN(*s) || *s <= 0 || *s > 1) {
		return fmt.Errorf("[serve] key_share: %v: want a key's share of the desk's day budget in (0, 1], e.g. 0.25", *s)
	}
	if err := fc.Record.check(); err != nil {
		return err
	}
	svc := &fc.Service
	svc.BaseURL = strings.TrimSpace(svc.BaseURL)
	svc.AuthURL = strings.TrimSpace(svc.AuthURL)
	svc.ClientID = strings.TrimSpace(svc.ClientID)
	svc.ClientSecret = Secret(strings.TrimSpace(string(svc.ClientSecret)))
	svc.TokenFile = strings.TrimSpace(svc.TokenFile)
	return fc.checkScans(rule)
}

func ParseMode(s string) (api.Mode, error) {
	m := api.Mode(strings.ToLower(strings.TrimSpace(s)))
	if !m.Valid() {
		return "", fmt.Errorf("%s: want live or delayed", text.Quote(s))
	}
	return m, nil
}

func CheckTheme(s string) error {
	if !slices.Contains(Themes, s) {
		return fmt.Errorf("%s: want auto, dark or light", text.Quote(s))
	}
	return nil
}

func CheckBlockSize(n int64) error {
	if n < 1 {
		return fmt.Errorf("%d: want a trade size of at least 1 contract", n)
	}
	return nil
}

func CheckTapeSize(n int) error {
	if n < MinTapeSize || n > MaxTapeSize {
		return fmt.Errorf("%d: want %d to %d trades", n, MinTapeSize, MaxTapeSize)
	}
	return nil
}

func CheckPerDay(n int) error {
	if n < 0 {
		return fmt.Errorf("%d: want points per trading day >= 0 (0: use the share)", n)
	}
	return nil
}

func CheckShare(f float64) error {
	if math.IsNaN(f) || f <= 0 || f > 1 {
		return fmt.Errorf("%v: want a share of the month's points left in (0, 1], e.g. 0.25", f)
	}
	return nil
}
