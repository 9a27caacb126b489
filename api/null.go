package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Null holds a value the service may send as null. The zero value is null.
//
// The service nulls fields the caller has no subscription for, and prices that
// do not exist (no bid, no trade yet). A trader must be able to tell a missing
// bid from a 0.00 bid, so every such field is a Null rather than a bare number.
// It is a value type (no pointer) so that a 20,000-contract chain does not cost
// one allocation per field.
type Null[T any] struct {
	V     T
	Valid bool
}

// Float is a decimal the service may send as null.
type Float = Null[float64]

// Int is an integer the service may send as null.
type Int = Null[int64]

// String is a string the service may send as null.
type String = Null[string]

// Some returns a non-null value.
func Some[T any](v T) Null[T] { return Null[T]{V: v, Valid: true} }

// Get returns the value and whether it is present.
func (n Null[T]) Get() (T, bool) { return n.V, n.Valid }

// Or returns the value, or def when it is null.
func (n Null[T]) Or(def T) T {
	if n.Valid {
		return n.V
	}
	return def
}

// String formats the value, or "null".
func (n Null[T]) String() string {
	if !n.Valid {
		return "null"
	}
	switch v := any(n.V).(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(n.V)
}

var nullJSON = []byte("null")

// MarshalJSON writes null or the value.
func (n Null[T]) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return nullJSON, nil
	}
	switch v := any(n.V).(type) {
	case float64:
		return strconv.AppendFloat(nil, v, 'f', -1, 64), nil
	case int64:
		return strconv.AppendInt(nil, v, 10), nil
	}
	return json.Marshal(n.V)
}

// UnmarshalJSON reads null or the value.
func (n *Null[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), nullJSON) {
		var zero T
		n.V, n.Valid = zero, false
		return nil
	}
	if err := json.Unmarshal(b, &n.V); err != nil {
		return err
	}
	n.Valid = true
	return nil
}

// xsiNamespace is the XML Schema instance namespace the service binds to the
// prefix i: for i:nil and i:type.
const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

// isNil reports whether an element carries i:nil="true".
func isNil(start xml.StartElement) bool {
	for _, a := range start.Attr {
		if a.Name.Local == "nil" && (a.Name.Space == xsiNamespace || a.Name.Space == "i" || a.Name.Space == "xsi") {
			return a.Value == "true" || a.Value == "1"
		}
	}
	return false
}

// jsonText returns the text of a JSON string value, or "" for null; what
// names the value in the error for anything else.
func jsonText(b []byte, what string) (string, error) {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return "", fmt.Errorf("%s: %s is not a string", what, truncate(string(bytes.TrimSpace(b)), 40))
	}
	if s == nil {
		return "", nil
	}
	return *s, nil
}

// xmlText returns an element's character data, or "" when it carries
// i:nil="true".
func xmlText(d *xml.Decoder, start xml.StartElement) (string, error) {
	if isNil(start) {
		return "", d.Skip()
	}
	var s string
	err := d.DecodeElement(&s, &start)
	return s, err
}

// UnmarshalXML reads an element that is either i:nil="true", empty (taken as
// null, for tolerance) or holds the value as text.
func (n *Null[T]) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	var zero T
	n.V, n.Valid = zero, false
	s, err := xmlText(d, start)
	if err != nil {
		return err
	}
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	if err := parseText(s, &n.V); err != nil {
		return fmt.Errorf("%s: %w", start.Name.Local, err)
	}
	n.Valid = true
	return nil
}

// MarshalXML writes the value, or an empty element with i:nil="true".
func (n Null[T]) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if !n.Valid {
		start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "i:nil"}, Value: "true"})
		if err := e.EncodeToken(start); err != nil {
			return err
		}
		return e.EncodeToken(start.End())
	}
	return e.EncodeElement(n.String(), start)
}

// parseText parses XML character data into a number, string or bool.
func parseText(s string, dst any) error {
	var err error
	switch p := dst.(type) {
	case *float64:
		*p, err = strconv.ParseFloat(s, 64)
	case *int64:
		*p, err = strconv.ParseInt(s, 10, 64)
	case *int:
		*p, err = strconv.Atoi(s)
	case *string:
		*p = s
	case *bool:
		*p, err = strconv.ParseBool(s)
	default:
		// Named string types (Indicator, OptionType) hold the text as is.
		v := reflect.ValueOf(dst).Elem()
		if v.Kind() != reflect.String {
			return fmt.Errorf("unsupported type %T", dst)
		}
		v.SetString(s)
	}
	if err != nil {
		return fmt.Errorf("invalid value %q", truncate(s, 40))
	}
	return nil
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// OrNaN is f's value, or NaN when null: what a screen draws as a dash and
// what arithmetic carries through without a special case.
func OrNaN(f Float) float64 {
	if f.Valid {
		return f.V
	}
	return math.NaN()
}
