package wire

import (
	"math"

	"chainwatch/api"
)

// xsiNamespace is bound to the prefix i: on every XML root, for i:nil and
// i:type, as the conventions say.
const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

// xsdNamespace is bound to x: on scan_result, whose values name their XML
// Schema type (i:type="x:double") so that a string that looks like a number
// stays a string.
const xsdNamespace = "http://www.w3.org/2001/XMLSchema"

const xmlHeader = `<?xml version="1.0" encoding="utf-8"?>`

// key is one field or element name in every form the encoder writes, built
// once so that a contract's 26 fields cost 26 appends of constant text.
type key struct {
	json  string // "name":
	open  string // <name>
	close string // </name>
	null  string // <name i:nil="true"/>
}

// k names a field that has one name in both formats.
func k(name string) key { return kx(name, name) }

// kx names a field whose XML element is named differently (OptionTrade's
// NBBO and trade fields).
func kx(jsonName, xmlName string) key {
	return key{
		json:  `"` + jsonName + `":`,
		open:  "<" + xmlName + ">",
		close: "</" + xmlName + ">",
		null:  "<" + xmlName + ` i:nil="true"/>`,
	}
}

// enc writes one document in either format with the same calls, so that each
// type's field list is written once and the two formats cannot drift apart.
//
// In JSON every value, object and array is followed by a comma, and the comma
// before a closing bracket is taken back (trim): cheaper than tracking
// whether a field is the first of its object.
type enc struct {
	b   []byte
	xml bool
}

func newEnc(b []byte, f api.Format) enc { return enc{b: b, xml: f == api.XML} }

func (e *enc) trim() {
	if n := len(e.b); n > 0 && e.b[n-1] == ',' {
		e.b = e.b[:n-1]
	}
}

func (e *enc) open(k *key) {
	if e.xml {
		e.b = append(e.b, k.open...)
	} else {
		e.b = append(e.b, k.json...)
	}
}

func (e *enc) close(k *key) {
	if e.xml {
		e.b = append(e.b, k.close...)
	} else {
		e.b = append(e.b, ',')
	}
}

// null writes null, or the element with i:nil="true".
func (e *enc) null(k *key) {
	if e.xml {
		e.b = append(e.b, k.null...)
	} else {
		e.b = append(e.b, k.json...)
		e.b = append(e.b, "null,"...)
	}
}

// float writes a number; NaN and infinities, which neither format can carry
// as a number, are null.
func (e *enc) float(k *key, v float64) {
	if !(math.Abs(v) < 1e7) && !finite(v) { // one comparison for the usual value
		e.null(k)
		return
	}
	e.open(k)
	e.b = appendFloat(e.b, v)
	e.close(k)
}

func (e *enc) nfloat(k *key, v api.Float) {
	if !v.Valid {
		e.null(k)
		return
	}
	e.float(k, v.V)
}

func (e *enc) int(k *key, v int64) {
	e.open(k)
	e.b = appendInt(e.b, v)
	e.close(k)
}

func (e *enc) nint(k *key, v api.Int) {
	if !v.Valid {
		e.null(k)
		return
	}
	e.int(k, v.V)
}

func (e *enc) str(k *key, s string) {
	e.open(k)
	e.text(s)
	e.close(k)
}

// text writes a string value: quoted and escaped in JSON, escaped in XML.
func (e *enc) text(s string) {
	if e.xml {
		e.b = appendXMLText(e.b, s)
	} else {
		e.b = appendJSONString(e.b, s)
	}
}

func (e *enc) nstr(k *key, v api.String) {
	if !v.Valid {
		e.null(k)
		return
	}
	e.str(k, v.V)
}

func (e *enc) bool(k *key, v bool) {
	e.open(k)
	if v {
		e.b = append(e.b, "true"...)
	} else {
		e.b = append(e.b, "false"...)
	}
	e.close(k)
}

// date writes yyyy-MM-dd; the zero Date (no date) and values no calendar
// holds digits for are null, as api.Date's own MarshalJSON writes the zero.
func (e *enc) date(k *key, d api.Date) {
	if d <= 0 || d > 99991231 {
		e.null(k)
		return
	}
	e.open(k)
	if !e.xml {
		e.b = append(e.b, '"')
	}
	y, m, day := d.Year(), int(d.Month()), d.Day()
	e.b = append(e.b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+day/10), byte('0'+day%10))
	if !e.xml {
		e.b = append(e.b, '"')
	}
	e.close(k)
}

// time writes HH:mm:ss.fff; a value outside the day is null rather than a
// time no parser accepts.
func (e *enc) time(k *key, t api.TimeOfDay) {
	if t < 0 || t >= api.DayMillis {
		e.null(k)
		return
	}
	e.open(k)
	if !e.xml {
		e.b = append(e.b, '"')
	}
	h, m, s, ms := t.Hour(), t.Minute(), t.Second(), t.Millisecond()
	e.b = append(e.b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':',
		byte('0'+s/10), byte('0'+s%10), '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	if !e.xml {
		e.b = append(e.b, '"')
	}
	e.close(k)
}

// beginItem starts an element of a list: an object in JSON, the item
// element in XML.
func (e *enc) beginItem(item *key) {
	if e.xml {
		e.b = append(e.b, item.open...)
	} else {
		e.b = append(e.b, '{')
	}
}

func (e *enc) endItem(item *key) {
	if e.xml {
		e.b = append(e.b, item.close...)
	} else {
		e.trim()
		e.b = append(e.b, '}', ',')
	}
}

// beginList starts a named list inside an object: "name":[ or <name>.
func (e *enc) beginList(k *key) {
	if e.xml {
		e.b = append(e.b, k.open...)
	} else {
		e.b = append(e.b, k.json...)
		e.b = append(e.b, '[')
	}
}

func (e *enc) endList(k *key) {
	if e.xml {
		e.b = append(e.b, k.close...)
	} else {
		e.trim()
		e.b = append(e.b, ']', ',')
	}
}

// beginDoc starts a document: '[' or '{' in JSON; in XML the declaration and
// the root element, which binds i: (and x:, when xsd is set).
func (e *enc) beginDoc(root string, array, xsd bool) {
	if !e.xml {
		if array {
			e.b = append(e.b, '[')
		} else {
			e.b = append(e.b, '{')
		}
		return
	}
	e.b = append(e.b, xmlHeader...)
	e.b = append(e.b, '<')
	e.b = append(e.b, root...)
	e.b = append(e.b, ` xmlns:i="`+xsiNamespace+`"`...)
	if xsd {
		e.b = append(e.b, ` xmlns:x="`+xsdNamespace+`"`...)
	}
	e.b = append(e.b, '>')
}

// endDoc closes what beginDoc opened and returns the buffer.
func (e *enc) endDoc(root string, array bool) []byte {
	if !e.xml {
		e.trim()
		if array {
			e.b = append(e.b, ']')
		} else {
			e.b = append(e.b, '}')
		}
		return e.b
	}
	e.b = append(e.b, '<', '/')
	e.b = append(e.b, root...)
	return append(e.b, '>')
}
