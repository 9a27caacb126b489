package crash

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Keep is how many of the last messages a Guard keeps: enough to see what
// the trader did and what the monitor posted just before a panic.
const Keep = 32

// ring is the last Keep messages the root saw, oldest overwritten. It
// keeps what describes a message without holding the message (which may
// hold a whole chain): its type, for a wrapper its payload's type, a key's
// code and modifiers, a size, a paste's length, and when. Nothing it keeps
// can be a secret: a paste's text, an answer's fields or an error's words
// are never kept. Adding allocates nothing; the words are made only for a
// report.
type ring struct {
	e [Keep]entry
	n uint64 // messages added
}

type entry struct {
	at    time.Time
	typ   reflect.Type
	inner reflect.Type // a one-field wrapper's payload (link.Msg{Msg: feed.…})
	key   tea.Key      // Code and Mod only, never Text
	a, b  int          // a size's width and height; a paste's length in a
}

func (r *ring) add(msg tea.Msg) {
	e := &r.e[r.n%Keep]
	r.n++
	*e = entry{at: time.Now(), typ: reflect.TypeOf(msg)}
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		e.key = tea.Key{Code: m.Code, Mod: m.Mod}
	case tea.KeyReleaseMsg:
		e.key = tea.Key{Code: m.Code, Mod: m.Mod}
	case tea.WindowSizeMsg:
		e.a, e.b = m.Width, m.Height
	case tea.PasteMsg:
		e.a = len(m.Content)
	case tea.MouseClickMsg:
		e.a, e.b = m.X, m.Y
	default:
		e.inner = payload(msg)
	}
}

// payload is the dynamic type of a struct's only field when that field is
// an interface: the monitor's posts arrive wrapped so (link.Msg), and the
// wrapper's type alone says little.
func payload(msg tea.Msg) reflect.Type {
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || v.NumField() != 1 {
		return nil
	}
	f := v.Field(0)
	if f.Kind() != reflect.Interface || f.IsNil() {
		return nil
	}
	return f.Elem().Type()
}

// lines describes the kept messages, oldest first, one a line.
func (r *ring) lines() []string {
	n := min(r.n, Keep)
	out := make([]string, 0, n)
	for i := r.n - n; i < r.n; i++ {
		out = append(out, r.e[i%Keep].String())
	}
	return out
}

func (e entry) String() string {
	var b strings.Builder
	b.WriteString(e.at.UTC().Format("15:04:05.000 "))
	b.WriteString(typeName(e.typ))
	switch {
	case e.key != tea.Key{}:
		b.WriteString(" " + e.key.String())
	case e.typ == reflect.TypeFor[tea.WindowSizeMsg]():
		fmt.Fprintf(&b, " %dx%d", e.a, e.b)
	case e.typ == reflect.TypeFor[tea.PasteMsg]():
		fmt.Fprintf(&b, " (%d bytes, not kept)", e.a)
	case e.typ == reflect.TypeFor[tea.MouseClickMsg]():
		fmt.Fprintf(&b, " at %d,%d", e.a, e.b)
	case e.inner != nil:
		b.WriteString(" " + typeName(e.inner))
	}
	return b.String()
}

func typeName(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	return t.String()
}
