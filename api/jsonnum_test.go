package api

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestShortDecimalMatchesStrconv holds the branch-free number reader to
// strconv on every short form, with what may follow a number, and checks
// that it declines (for the careful path) whatever is not a plain short
// decimal.
func TestShortDecimalMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	var nums []string
	for _, n := range []string{"0", "-0", "0.5", "-0.0", "7", "10", "99999999", "12345678", "1234567.8", "0.0000001", "-9.9999999",
		"5300", "5921.37", "0.12345", "-4.1234", "0.001234", "1.", "01", "-01.5", "1e5", "1.5e3", "1.2.3", "-", "-.5", ".5",
		"123456789", "0.12345678", "1.23456789", "00", "-x", "+1", "1E2", "9.", "0.", "4.4e"} {
		nums = append(nums, n)
	}
	for range 20000 {
		intDigits, fracDigits := 1+rng.IntN(8), rng.IntN(8)
		var sb strings.Builder
		if rng.IntN(3) == 0 {
			sb.WriteByte('-')
		}
		for k := range intDigits {
			d := rng.IntN(10)
			if k == 0 && intDigits > 1 && rng.IntN(10) != 0 {
				d = 1 + rng.IntN(9)
			}
			sb.WriteByte(byte('0' + d))
		}
		if fracDigits > 0 || rng.IntN(10) == 0 {
			sb.WriteByte('.')
			for range fracDigits {
				sb.WriteByte(byte('0' + rng.IntN(10)))
			}
		}
		nums = append(nums, sb.String())
	}
	for _, n := range nums {
		for _, after := range []string{",\"k\":1}", "}", "]", " ,", "x", "e7}", ".5,", "9999999999", "        "} {
			b := []byte(n + after)
			mant, frac, dot, sign, end, ok := shortDecimal(b, 0)
			f, neg := shortFloat(mant, frac, sign), sign != 0
			tok := jsonNumberPrefix(string(b))
			body := strings.TrimPrefix(tok, "-")
			plain := tok != "" && len(body) <= 8 && !strings.ContainsAny(tok, "eE") &&
				(len(tok) == len(b) || !strings.ContainsRune("0123456789.eE", rune(b[len(tok)])))
			if ok != (plain && len(b) >= 10) {
				t.Fatalf("%q: short decimal %v, want %v (number %q)", b, ok, plain && len(b) >= 10, tok)
			}
			if !ok {
				continue
			}
			want, err := strconv.ParseFloat(tok, 64)
			if end != len(tok) || err != nil || f != want || math.Signbit(f) != math.Signbit(want) || neg != strings.HasPrefix(tok, "-") {
				t.Fatalf("%q: %v up to %d, strconv %v up to %d (%v)", b, f, end, want, len(tok), err)
			}
			point := strings.IndexByte(body, '.')
			if dot != (point >= 0) || dot && frac != len(body)-point-1 || !dot && frac != 0 {
				t.Fatalf("%q: dot %v frac %d", b, dot, frac)
			}
			if digits, _ := strconv.ParseUint(strings.Replace(body, ".", "", 1), 10, 64); mant != digits {
				t.Fatalf("%q: digits %d, want %d", b, mant, digits)
			}
		}
	}
}

// jsonNumberPrefix returns the longest prefix of s that the JSON number
// grammar reads, written out plainly, or "".
func jsonNumberPrefix(s string) string {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - d
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return ""
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		digits()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		save := i
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			i = save
		}
	}
	return s[:i]
}
