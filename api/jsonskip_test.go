package api

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomValue writes a JSON value of every kind, nested up to depth.
func randomValue(rng *rand.Rand, sb *strings.Builder, depth int) {
	scalars := []string{`0`, `-1.5e-7`, `12.25`, `true`, `false`, `null`, `""`, `"a\"b\\c\/\u00e9\ud83d\ude00"`, `"日本"`, `"{[,:]}"`}
	if depth <= 0 || rng.IntN(3) == 0 {
		sb.WriteString(scalars[rng.IntN(len(scalars))])
		return
	}
	n := rng.IntN(4)
	if rng.IntN(2) == 0 {
		sb.WriteByte('[')
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			randomValue(rng, sb, depth-1)
		}
		sb.WriteByte(']')
		return
	}
	sb.WriteByte('{')
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(`"k` + string(rune('a'+i)) + `" : `)
		randomValue(rng, sb, depth-1)
	}
	sb.WriteByte('}')
}

// TestSkipAcceptsWhatStdlibAccepts: an unknown member's value, however
// nested (past the 64 levels skipNested keeps in a word), is accepted
// exactly when encoding/json accepts the body; one byte deleted, doubled
// or replaced by a structural byte must be judged the same way too.
func TestSkipAcceptsWhatStdlibAccepts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for n := range 3000 {
		var sb strings.Builder
		depth := 6
		if n%10 == 0 {
			depth = 90
		}
		randomValue(rng, &sb, depth)
		v := sb.String()
		variants := []string{v}
		if len(v) > 1 {
			at := rng.IntN(len(v))
			variants = append(variants, v[:at]+v[at+1:], v[:at]+v[at:at+1]+v[at:],
				v[:at]+string(",:[]{}\"\\"[rng.IntN(8)])+v[at+1:])
		}
		for _, x := range variants {
			body := `{"x":` + x + `,"symbol":"A"}`
			_, err := decodeChain([]byte(body), JSON)
			if want := json.Valid([]byte(body)); (err == nil) != want {
				t.Fatalf("%s: decodeChain error %v, encoding/json valid %v", body, err, want)
			}
		}
	}
	deep := strings.Repeat(`{"a":[`, 100) + `1` + strings.Repeat(`]}`, 100)
	if _, err := decodeChain([]byte(`{"x":`+deep+`}`), JSON); err != nil {
		t.Fatalf("200 levels: %v", err)
	}
	if _, err := decodeChain([]byte(`{"x":`+deep[:len(deep)-1]+`}`), JSON); err == nil {
		t.Fatal("200 levels, one closing byte short: accepted")
	}
}

// BenchmarkSkipMember steps over 20,000 values of each kind the unknown
// chain layout adds (and two spaced variants), without the key lookup
// around them: what skipMember alone costs per kind.
//
//	go test -run '^$' -bench SkipMember -benchmem ./api
func BenchmarkSkipMember(b *testing.B) {
	kinds := []struct{ name, value string }{
		{"spaced_obj", `{ "a" : [ 1, 2, { "b" : null } ], "c" : "d", "e" : { "f" : [ ] } }`},
		{"spaced_colon", ` : "v"`},
	}
	for _, u := range unknownFields {
		name, value, _ := strings.Cut(u, ":")
		kinds = append(kinds, struct{ name, value string }{strings.Trim(name, `"x_`), value})
	}
	for _, k := range kinds {
		value := k.value
		if !strings.HasPrefix(value, " :") {
			value = ":" + value
		}
		body := []byte(strings.Repeat(value+",", 20000))
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				s := jsonScanner{b: body}
				for s.i < len(body) {
					s.skipMember()
					if s.err != nil || body[s.i] != ',' {
						b.Fatalf("at %d: %v", s.i, s.err)
					}
					s.i++
				}
			}
		})
	}
}

// TestSkipEdgesAsStdlib: values at the edges of each fast path (a string
// past the sixteen bytes read one at a time, an escape or a control
// character inside the words read eight at once, a body ending within a
// word, numbers of every grammatical form, cut literals, white space
// everywhere) are accepted exactly when encoding/json accepts the body,
// as a member's value and inside a container.
func TestSkipEdgesAsStdlib(t *testing.T) {
	long := strings.Repeat("plain é ", 5)
	values := []string{
		`"` + long + `"`, `"` + long + `\n` + long + `"`, `"` + long + `\u12G4"`, `"` + long + `\x"`,
		`"` + long + "\x01" + `"`, `"` + long + "\x7f\xff" + `"`, `"` + long, `"` + long + `\`, `"` + long + `\u12`,
		`"a\"b"`, `"\\"`, `"\"`, `"\u00e9\ud83d\ude00"`, "\"\t\"", `""`,
		`0`, `-0`, `01`, `-`, `-a`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1e+7`, `1E-07`, `-1.5e-7`, `12345678901234567890`,
		`0.0e0`, `1.e5`, `+1`, `1x`,
		`true`, `tru`, `false`, `fals`, `null`, `nul`, `nulll`, `truefalse`,
		`{}`, `[]`, `{ }`, `[ ]`, `{"a":1,}`, `[1,]`, `[,1]`, `{,"a":1}`, `{"a" 1}`, `{"a":}`, `{1:2}`, `[1 2]`,
		"{ \"a\" :\t[ 1 ,\n2 ] , \"b\" : { } }", `[[[[]]]]`, `[{"a":[{"b":[]}]}]`, `{"a":1}}`, `[1]]`,
	}
	for _, v := range values {
		for _, body := range []string{
			`{"x":` + v + `,"symbol":"A"}`,
			`{"x" : ` + v + ` , "symbol":"A"}`,
			`{"x":[` + v + `],"symbol":"A"}`,
			`{"x":{"y":` + v + `},"symbol":"A"}`,
			`{"symbol":"A","x":` + v + `}`,
			`{"symbol":"A","x":` + v,
		} {
			_, err := decodeChain([]byte(body), JSON)
			if want := json.Valid([]byte(body)); (err == nil) != want {
				t.Errorf("%q: decodeChain error %v, encoding/json valid %v", body, err, want)
			}
		}
	}
	for _, n := range []int{63, 64, 65, 128, 129} {
		deep := strings.Repeat(`[`, n) + `{"a":"b"}` + strings.Repeat(`]`, n)
		for _, body := range []string{`{"x":` + deep + `}`, `{"x":` + deep[:len(deep)-1] + `}`, `{"x":` + deep + `]}`} {
			_, err := decodeChain([]byte(body), JSON)
			if want := json.Valid([]byte(body)); (err == nil) != want {
				t.Errorf("%d levels %q: decodeChain error %v, encoding/json valid %v", n, body[len(body)-3:], err, want)
			}
		}
	}
}
