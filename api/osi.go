package api

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// OSI is an option contract named by its OSI symbol: root, expiration,
// call or put, and strike.
//
// The strike is kept in thousandths as an integer because that is what the
// symbol holds: a float64 strike would turn 7.25 into a value that prints
// back differently after arithmetic, and two symbols for one contract would
// then compare unequal. Strike() converts at the edge.
type OSI struct {
	Root        string // 1 to 6 upper-case letters or digits
	Expiry      Date   // a real day from 2000-01-01 to 2099-12-31 (the symbol has a two-digit year)
	Type        OptionType
	StrikeMilli int64 // strike x 1000, 1 to 99,999,999
}

// Shape of the symbol after the root: yymmdd, C or P, eight strike digits.
const (
	osiSuffixLen = 6 + 1 + 8
	osiMaxRoot   = 6
	osiMaxMilli  = 99_999_999
)

// ParseOSI reads an OSI option symbol such as SPXW241220C05925000.
//
// Symbols reach us from users, CSV exports and OCC files, so ParseOSI is
// lenient about form but strict about content: it accepts lower case and
// the OCC layout whose root is padded to six characters with spaces
// ("SPX   241220C04125000"), and trims surrounding space; but the date must
// exist and the strike must be exactly eight digits. It never panics.
func ParseOSI(s string) (OSI, error) {
	o, problem := parseOSI(s)
	if problem != "" {
		return OSI{}, fmt.Errorf("OSI symbol %q: %s", truncate(strings.TrimSpace(s), 40), problem)
	}
	return o, nil
}

// parseOSI returns the contract, or a description of what is wrong that the
// callers wrap in their own context (ParseOSI, parameter validation).
func parseOSI(s string) (OSI, string) {
	b := []byte(asciiUpper(strings.TrimSpace(s)))
	switch {
	case len(b) == 0:
		return OSI{}, "is empty"
	case len(b) <= osiSuffixLen:
		return OSI{}, "too short for root, yymmdd, C or P, and an 8-digit strike"
	case len(b) > osiMaxRoot+osiSuffixLen:
		return OSI{}, "too long: the root has at most 6 characters, followed by yymmdd, C or P, and an 8-digit strike"
	}
	n := len(b) - osiSuffixLen
	rootField, date, typ, strike := b[:n], b[n:n+6], b[n+6], b[n+7:]

	root := strings.TrimRight(string(rootField), " ")
	if len(root) < len(rootField) && len(rootField) != osiMaxRoot {
		return OSI{}, fmt.Sprintf("root %q is padded with spaces to %d characters, not %d", root, len(rootField), osiMaxRoot)
	}
	if !validRoot(root) {
		return OSI{}, fmt.Sprintf("root %q must be 1 to 6 letters or digits", root)
	}
	if !allDigits(date) {
		return OSI{}, fmt.Sprintf("expiry %q must be six digits yymmdd", date)
	}
	yy, mm, dd := atoi2(date[0:2]), atoi2(date[2:4]), atoi2(date[4:6])
	expiry := Date((2000+yy)*10000 + mm*100 + dd)
	if !expiry.Valid() {
		return OSI{}, fmt.Sprintf("expiry %s is not a date", date)
	}
	if typ != 'C' && typ != 'P' {
		return OSI{}, fmt.Sprintf("type %q must be C or P", []byte{typ})
	}
	if !allDigits(strike) {
		return OSI{}, fmt.Sprintf("strike %q must be eight digits, the strike x 1000", strike)
	}
	milli, _ := strconv.ParseInt(string(strike), 10, 64) // eight digits always fit
	if milli == 0 {
		return OSI{}, "strike 00000000 is zero"
	}
	return OSI{Root: root, Expiry: expiry, Type: OptionType(typ), StrikeMilli: milli}, ""
}

// NewOSI builds the contract for a root, expiry, type and strike.
//
// The strike must be a whole number of thousandths (within 1e-6, to absorb
// float noise such as 7.249999999) because the symbol cannot say more; a
// strike like 7.2501 is an error rather than silently a different contract.
// The root is upper-cased, as ParseOSI would.
func NewOSI(root string, expiry Date, typ OptionType, strike float64) (OSI, error) {
	root = asciiUpper(root)
	if !validRoot(root) {
		return OSI{}, fmt.Errorf("OSI: root %q must be 1 to 6 letters or digits", truncate(root, 40))
	}
	if !expiry.Valid() || expiry.Year() < 2000 || expiry.Year() > 2099 {
		return OSI{}, fmt.Errorf("OSI: expiry %d (yyyymmdd) must be a date from 2000-01-01 to 2099-12-31", int32(expiry))
	}
	if !typ.Valid() {
		return OSI{}, fmt.Errorf("OSI: type %q must be C or P", truncate(string(typ), 40))
	}
	if math.IsNaN(strike) || math.IsInf(strike, 0) || strike <= 0 || strike >= 100000 {
		return OSI{}, fmt.Errorf("OSI: strike %v must be above 0 and below 100000", strike)
	}
	milli := math.Round(strike * 1000)
	if math.Abs(strike-milli/1000) > 1e-6 {
		return OSI{}, fmt.Errorf("OSI: strike %v is not a whole number of thousandths", strike)
	}
	if milli < 1 || milli > osiMaxMilli {
		return OSI{}, fmt.Errorf("OSI: strike %v rounds to %v, outside 0.001 to 99999.999", strike, milli/1000)
	}
	return OSI{Root: root, Expiry: expiry, Type: typ, StrikeMilli: int64(milli)}, nil
}

// FormatOSI returns the OSI symbol of a contract; see NewOSI for the rules.
func FormatOSI(root string, expiry Date, typ OptionType, strike float64) (string, error) {
	o, err := NewOSI(root, expiry, typ, strike)
	if err != nil {
		return "", err
	}
	return o.String(), nil
}

// Strike returns the strike price. Dividing the exact integer by 1000 gives
// the float64 nearest the decimal strike, so it prints as the strike does.
func (o OSI) Strike() float64 { return float64(o.StrikeMilli) / 1000 }

// String returns the symbol in the spec's form, the root not padded
// (SPXW241220C05925000), which is what the service sends and accepts.
func (o OSI) String() string {
	b := make([]byte, 0, len(o.Root)+osiSuffixLen)
	b = append(b, o.Root...)
	y, m, d := o.Expiry.Year()%100, int(o.Expiry.Month()), o.Expiry.Day()
	b = append(b, byte('0'+y/10), byte('0'+y%10), byte('0'+m/10%10), byte('0'+m%10), byte('0'+d/10%10), byte('0'+d%10))
	b = append(b, o.Type...)
	milli := o.StrikeMilli
	if milli < 0 || milli > osiMaxMilli {
		milli = 0 // not a contract NewOSI or ParseOSI makes; keep the eight-digit shape
	}
	var digits [8]byte
	for i := 7; i >= 0; i-- {
		digits[i] = byte('0' + milli%10)
		milli /= 10
	}
	return string(append(b, digits[:]...))
}

// validRoot reports whether root is 1 to 6 upper-case letters or digits.
func validRoot(root string) bool {
	if len(root) < 1 || len(root) > osiMaxRoot {
		return false
	}
	for i := 0; i < len(root); i++ {
		c := root[i]
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// asciiUpper upper-cases ASCII letters only: strings.ToUpper would turn 'ſ'
// into 'S' and accept a symbol no one wrote.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func atoi2(b []byte) int { return int(b[0]-'0')*10 + int(b[1]-'0') }
