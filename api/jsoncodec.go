package api

import (
	"math"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// fieldKind is how the table-driven decoder writes one struct field.
type fieldKind uint8

const (
	kString fieldKind = iota + 1
	kStringN
	kFloat
	kFloatN
	kInt64
	kIntN
	kInt
	kUint8
	kDate
	kTime
)

// fieldDesc is one JSON key of a struct: where its value goes and how.
type fieldDesc struct {
	name string
	off  uintptr
	off2 uintptr // a second place for the value, when has2
	has2 bool
	kind fieldKind
}

// structDesc is the decoding table of one struct type, built once by
// reflection from its json tags (embedded structs flattened), so the tags
// stay the single source of truth for JSON names.
type structDesc struct {
	fields []fieldDesc
	byName map[string]int
	merge  bool // building a union: keys two variants share go to both
	// keys finds a field by its exact name from a few of its bytes, and
	// folded by its lower-case name: members in any order, and keys a
	// table does not hold, cost about what the expected next key does
	// (see jsonkeys.go).
	keys   keyTable
	folded map[string]int
	lower  bool // no name has an upper-case letter
}

// mask returns the seen-bits of the named keys.
func (d *structDesc) mask(names ...string) uint64 {
	var m uint64
	for _, n := range names {
		if i, ok := d.byName[n]; ok && i < 64 {
			m |= 1 << i
		}
	}
	return m
}

var (
	descMu    sync.Mutex
	descCache = map[reflect.Type]*structDesc{}
)

// descOf returns the table of T, building it on first use.
func descOf[T any]() *structDesc {
	t := reflect.TypeFor[T]()
	descMu.Lock()
	defer descMu.Unlock()
	if d, ok := descCache[t]; ok {
		return d
	}
	d := &structDesc{byName: map[string]int{}}
	d.add(t, 0)
	d.index()
	descCache[t] = d
	return d
}

var (
	typeDate  = reflect.TypeFor[Date]()
	typeTime  = reflect.TypeFor[TimeOfDay]()
	typeFloat = reflect.TypeFor[Float]()
	typeInt   = reflect.TypeFor[Int]()
)

func (d *structDesc) add(t reflect.Type, base uintptr) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			d.add(f.Type, base+f.Offset)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		k := kindOf(f.Type)
		if k == 0 {
			if f.Type.Kind() == reflect.Slice {
				continue // nested arrays are read by the caller's hook
			}
			panic("api: no JSON decoder for field " + t.Name() + "." + f.Name)
		}
		if j, dup := d.byName[name]; dup {
			// A union's second variant shares the key: write both.
			if d.merge && d.fields[j].kind == k {
				d.fields[j].off2, d.fields[j].has2 = base+f.Offset, true
			}
			continue // otherwise the first field wins, as in encoding/json
		}
		d.byName[name] = len(d.fields)
		d.fields = append(d.fields, fieldDesc{name: name, off: base + f.Offset, kind: k})
	}
}

func kindOf(t reflect.Type) fieldKind {
	switch t {
	case typeDate:
		return kDate
	case typeTime:
		return kTime
	case typeFloat:
		return kFloatN
	case typeInt:
		return kIntN
	}
	switch t.Kind() {
	case reflect.String:
		return kString
	case reflect.Float64:
		return kFloat
	case reflect.Int64:
		return kInt64
	case reflect.Int:
		return kInt
	case reflect.Uint8:
		return kUint8
	case reflect.Struct:
		// Null of a string type (String, Null[Indicator]) shares String's layout.
		if v, ok := t.FieldByName("V"); ok && v.Type.Kind() == reflect.String && t.NumField() == 2 {
			return kStringN
		}
	}
	return 0
}

// object decodes one JSON object into the struct at base. Unknown keys are
// skipped; hook, when not nil, may consume the value of a key the table does
// not hold (a nested array). It returns a bit per table field seen (the
// first 64), which tagged unions use to tell their kind.
func (s *jsonScanner) object(base unsafe.Pointer, d *structDesc, hook func(key []byte) bool) uint64 {
	o := newMemberOrder()
	return s.objectIn(base, d, hook, &o)
}

// memberOrder is what the objects of one array taught about the order of
// their members. Each key is first guessed as the one that followed the
// previous key in the last object (the table's order until then): a
// service that lists members in any one order of its own, a newer version
// that moved a field, costs what the table's own order does after its
// first object. A guess that fails turns guessing off for the rest of the
// object (one wrong guess, not one a key), and a key that comes as
// guessed turns it on again; unknown keys change nothing.
type memberOrder struct {
	// guess: the last object's members came as guessed, so this one
	// starts guessing.
	guess bool
	// after[k] is the field that followed field k-1 last time (after[0]
	// the first field), for the first orderSlots fields.
	after [orderSlots]uint8
}

// orderSlots bounds what memberOrder learns; fields beyond it are guessed
// in the table's order.
const orderSlots = 64

func newMemberOrder() memberOrder {
	o := memberOrder{guess: true}
	for k := range o.after {
		o.after[k] = uint8(k)
	}
	return o
}

// next is the field guessed to follow field prev (-1: the first member).
func (o *memberOrder) next(prev int) int {
	if prev+1 < orderSlots {
		return int(o.after[prev+1])
	}
	return prev + 1
}

// learn records that field i followed field prev.
func (o *memberOrder) learn(prev, i int) {
	if prev+1 < orderSlots && i < 256 {
		o.after[prev+1] = uint8(i)
	}
}

// objectIn is object for the elements of an array, guessing each key from
// the order the array's earlier objects taught (see memberOrder). A
// service that shuffles every object then never pays for a guess that
// fails, and one that keeps an order never pays for a lookup.
func (s *jsonScanner) objectIn(base unsafe.Pointer, d *structDesc, hook func(key []byte) bool, o *memberOrder) uint64 {
	var seen uint64
	if !s.expect('{') {
		return 0
	}
	prev, guessing, missed := -1, o.guess, false
	for first := true; s.more('}', &first); {
		i := -1
		if guessing {
			i = s.expectedKey(d, o.next(prev))
		}
		if i < 0 {
			var key []byte
			var ok bool
			if i, key, ok = s.memberKey(d); !ok {
				return seen
			}
			if i < 0 {
				if hook == nil {
					s.skipMember()
					continue
				}
				if !s.expect(':') {
					return seen
				}
				if !hook(key) {
					s.skip()
				}
				continue
			}
			guessing = i == o.next(prev)
			missed = missed || !guessing
			o.learn(prev, i)
		}
		if !s.expect(':') {
			return seen
		}
		prev = i
		if i < 64 {
			seen |= 1 << i
		}
		f := &d.fields[i]
		s.field(unsafe.Add(base, f.off), f)
		if f.has2 {
			copyField(f.kind, unsafe.Add(base, f.off2), unsafe.Add(base, f.off))
		}
	}
	o.guess = !missed
	return seen
}

// field decodes one value into p by kind. A null leaves a plain field as it
// was and makes a Null field null, as encoding/json would.
func (s *jsonScanner) field(p unsafe.Pointer, f *fieldDesc) {
	if s.null() {
		switch f.kind {
		case kFloatN:
			*(*Float)(p) = Float{}
		case kIntN:
			*(*Int)(p) = Int{}
		case kStringN:
			*(*String)(p) = String{}
		case kDate:
			*(*Date)(p) = 0
		case kTime:
			*(*TimeOfDay)(p) = 0
		}
		return
	}
	switch f.kind {
	case kFloatN:
		if v, ok := s.float(); ok {
			*(*Float)(p) = Float{V: v, Valid: true}
		}
	case kFloat:
		if v, ok := s.float(); ok {
			*(*float64)(p) = v
		}
	case kIntN:
		if v, ok := s.int(math.MinInt64, math.MaxInt64); ok {
			*(*Int)(p) = Int{V: v, Valid: true}
		}
	case kInt64:
		if v, ok := s.int(math.MinInt64, math.MaxInt64); ok {
			*(*int64)(p) = v
		}
	case kInt:
		if v, ok := s.int(math.MinInt, math.MaxInt); ok {
			*(*int)(p) = int(v)
		}
	case kUint8:
		if v, ok := s.int(0, 255); ok {
			*(*uint8)(p) = uint8(v)
		}
	case kString:
		if b, ok := s.str(); ok {
			*(*string)(p) = s.strs.get(b)
		}
	case kStringN:
		if b, ok := s.str(); ok {
			*(*String)(p) = String{V: s.strs.get(b), Valid: true}
		}
	case kDate:
		if b, ok := s.str(); ok {
			if v, ok := parseDateLenient(b); ok {
				*(*Date)(p) = v
			} else {
				s.fail("field %s: %q is not a date", f.name, truncate(string(b), 40))
			}
		}
	case kTime:
		if b, ok := s.str(); ok {
			if v, ok := parseTimeLenient(b); ok {
				*(*TimeOfDay)(p) = v
			} else {
				s.fail("field %s: %q is not a time of day", f.name, truncate(string(b), 40))
			}
		}
	}
}

// array decodes a JSON array of T objects. sizeHint pre-sizes the slice.
func array[T any](s *jsonScanner, d *structDesc, sizeHint int, each func(p *T, seen uint64)) []T {
	if s.null() {
		return nil
	}
	if !s.expect('[') {
		return nil
	}
	out := make([]T, 0, s.elementsHint(sizeHint))
	order := newMemberOrder()
	for first := true; s.more(']', &first); {
		var zero T
		out = append(out, zero)
		if s.null() {
			continue // a null element is a zero element, as in encoding/json
		}
		p := &out[len(out)-1]
		seen := s.objectIn(unsafe.Pointer(p), d, nil, &order)
		if each != nil {
			each(p, seen)
		}
	}
	return out
}

// hintSample is how many elements elementsHint measures.
const hintSample = 64

// elementsHint bounds hint, a count of the array's objects that nested
// objects inflate (members the table does not know, holding objects,
// would make a chain reserve several times its contracts): the first
// elements are stepped over to measure their length, and the hint capped
// at what the rest of the body holds at that length, with a margin for
// longer elements later. The scanner is left where it was.
func (s *jsonScanner) elementsHint(hint int) int {
	if hint <= 2*hintSample || s.err != nil {
		return max(hint, 0)
	}
	start := s.i
	n := 0
	for first := true; n < hintSample && s.more(']', &first); n++ {
		s.skip()
	}
	end, failed := s.i, s.err != nil
	s.i, s.err = start, nil // decoding reports any error itself
	switch {
	case failed:
		return hint
	case n < hintSample:
		return n // the whole array was measured
	}
	per := max((end-start)/n, 1)
	return min(hint, hintSample+(len(s.b)-end)/per*5/4)
}

// copyField copies a decoded value to a union's second variant.
func copyField(k fieldKind, dst, src unsafe.Pointer) {
	switch k {
	case kString:
		*(*string)(dst) = *(*string)(src)
	case kStringN:
		*(*String)(dst) = *(*String)(src)
	case kFloat:
		*(*float64)(dst) = *(*float64)(src)
	case kFloatN:
		*(*Float)(dst) = *(*Float)(src)
	case kInt64:
		*(*int64)(dst) = *(*int64)(src)
	case kIntN:
		*(*Int)(dst) = *(*Int)(src)
	case kInt:
		*(*int)(dst) = *(*int)(src)
	case kUint8:
		*(*uint8)(dst) = *(*uint8)(src)
	case kDate:
		*(*Date)(dst) = *(*Date)(src)
	case kTime:
		*(*TimeOfDay)(dst) = *(*TimeOfDay)(src)
	}
}
