package wire

import (
	"testing"

	"chainwatch/api"
)

func TestNegotiate(t *testing.T) {
	const no = -1
	for _, c := range []struct {
		accept string
		want   api.Format // or no: 406
	}{
		{"", api.JSON},
		{"   ", api.JSON},
		{"*/*", api.JSON},
		{"*", api.JSON},
		{"application/*", api.JSON},
		{"text/*", api.JSON},
		{"application/json", api.JSON},
		{"text/json", api.JSON},
		{"application/xml", api.XML},
		{"text/xml", api.XML},
		{"TEXT/XML; charset=UTF-8", api.XML},
		{"application/xml;q=0.9, application/json", api.JSON},
		{"application/json;q=0.5, application/xml", api.XML},
		{"application/xml, application/json", api.JSON}, // a tie goes to the default
		{"application/xml, */*", api.XML},               // the named type beats the wildcard
		{"application/xml;q=0.8, */*;q=0.9", api.JSON},  // unless the wildcard's q is higher
		{"text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8", api.XML}, // a browser
		{"application/json, text/javascript, */*; q=0.01", api.JSON},
		{"application/json;q=0, */*", api.JSON}, // text/json still acceptable
		{"application/json;q=0, text/json;q=0, */*", api.XML},
		{"*/*;q=0", no},
		{"application/json;q=0", no},
		{"text/html", no},
		{"image/png, text/plain", no},
		{"json", no},
		{"application/json;q=abc", no}, // a malformed range is ignored
		{"application/json;q=2, text/xml", api.XML},
		{"application/json;level=1;q=0.4, text/xml;q=0.3", api.JSON},
		{",,application/xml,,", api.XML},
		{"application/*;q=0.2, application/xml;q=0", api.JSON},
		{"text/*, text/json;q=0", api.XML},
	} {
		f, ok := Negotiate(c.accept)
		switch {
		case c.want == no && ok:
			t.Errorf("Negotiate(%q) = %v, want 406", c.accept, f)
		case c.want != no && (!ok || f != c.want):
			t.Errorf("Negotiate(%q) = %v, %v; want %v", c.accept, f, ok, c.want)
		}
	}
}

func TestRequestFormat(t *testing.T) {
	const no = -1
	for _, c := range []struct {
		ct   string
		want api.Format
	}{
		{"application/json", api.JSON},
		{"text/json", api.JSON},
		{"application/xml", api.XML},
		{"text/xml", api.XML},
		{"Application/JSON; charset=utf-8", api.JSON},
		{"text/xml;charset=\"UTF-8\"", api.XML},
		{"application/xml; charset=us-ascii", api.XML},
		{"application/json; boundary=x", api.JSON},
		{"", no},
		{"application/json; charset=iso-8859-1", no},
		{"text/plain", no},
		{"application/x-www-form-urlencoded", no},
		{"*/*", no},
		{"application/*", no},
		{"application/json, application/xml", no},
	} {
		f, ok := RequestFormat(c.ct)
		switch {
		case c.want == no && ok:
			t.Errorf("RequestFormat(%q) = %v, want 415", c.ct, f)
		case c.want != no && (!ok || f != c.want):
			t.Errorf("RequestFormat(%q) = %v, %v; want %v", c.ct, f, ok, c.want)
		}
	}
}

func TestContentType(t *testing.T) {
	for f, want := range map[api.Format]string{api.JSON: "application/json; charset=utf-8", api.XML: "application/xml; charset=utf-8"} {
		if got := ContentType(f); got != want {
			t.Errorf("ContentType(%v) = %q", f, got)
		}
		if back, ok := RequestFormat(ContentType(f)); !ok || back != f {
			t.Errorf("RequestFormat(ContentType(%v)) = %v, %v", f, back, ok)
		}
		if back, ok := Negotiate(ContentType(f)); !ok || back != f {
			t.Errorf("Negotiate(ContentType(%v)) = %v, %v", f, back, ok)
		}
	}
}
